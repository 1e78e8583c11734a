// JSON calls to the API with the session's bearer token; failures become react-admin HttpErrors with a French message.
import { HttpError } from 'ra-core';
import { authFetch, SessionExpiredError } from '../session';
import { extractErrorMessage } from '#domain/errors';

export interface ApiRequest {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function apiFetch<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
  return send<T>(path, request, authFetch);
}

/** A call that needs no session (the steps of signing in, the links sent by email): no token, no refresh on a 401. */
export function publicFetch<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
  return send<T>(path, request, fetch);
}

async function send<T>(path: string, request: ApiRequest, transport: (input: string, init: RequestInit) => Promise<Response>): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/ld+json, application/json', ...request.headers };
  let body: BodyInit | undefined;
  if (request.body !== undefined) {
    body = request.body instanceof FormData || typeof request.body === 'string' ? (request.body as BodyInit) : JSON.stringify(request.body);
    if (!(request.body instanceof FormData)) headers['Content-Type'] ??= 'application/json';
  }
  const response = await transport(path, { method: request.method ?? 'GET', headers, body, signal: request.signal }).catch((error: unknown) => {
    // A session the server ended is a 401 (react-admin signs out, saying why), not a network that failed.
    if (error instanceof SessionExpiredError) throw error;
    throw new HttpError('Connexion au serveur impossible. Vérifiez votre réseau.', 0);
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    throw new HttpError(extractErrorMessage({ body: parsed, message: response.statusText }), response.status, parsed);
  }
  return parsed as T;
}
