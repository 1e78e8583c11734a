// Absolute URLs of the API (the Hydra Link header and `@vocab` must be absolute). They come from PUBLIC_URL, never from
// the request's Host header: a forged Host must not make the API point its clients elsewhere.
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { API_PREFIX } from '#domain/iri';

/** PUBLIC_URL without its trailing slash; without it, this server on loopback (the port it listens on). */
export function publicBaseUrl(app: FastifyInstance): string {
  const configured = app.ctx.config.publicUrl;
  if (configured) return configured.replace(/\/+$/, '');
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : app.ctx.config.port;
  return `http://127.0.0.1:${port}`;
}

export function apiDocsUrl(request: FastifyRequest): string {
  return `${publicBaseUrl(request.server)}${API_PREFIX}/docs.jsonld`;
}

export function docsLinkHeader(request: FastifyRequest): string {
  return docsLink(publicBaseUrl(request.server));
}

export const docsLink = (base: string) => `<${base}${API_PREFIX}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`;
