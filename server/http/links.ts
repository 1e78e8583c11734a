// Absolute URLs of the API as the client reached it (the Hydra Link header must be absolute).
import type { FastifyRequest } from 'fastify';

import { API_PREFIX } from '../../src/domain/iri';

export function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function apiDocsUrl(request: FastifyRequest): string {
  return `${baseUrl(request)}${API_PREFIX}/docs.jsonld`;
}

export function docsLinkHeader(request: FastifyRequest): string {
  return `<${apiDocsUrl(request)}>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`;
}
