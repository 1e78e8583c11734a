// JSON calls to the API with the session's bearer token; failures become react-admin HttpErrors with a French message.
import { HttpError } from 'ra-core';
import { authFetch } from '../authProvider/session';
import { extractErrorMessage } from '#domain/errors';

export interface ApiRequest {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function apiFetch<T = unknown>(path: string, request: ApiRequest = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/ld+json, application/json', ...request.headers };
  let body: BodyInit | undefined;
  if (request.body !== undefined) {
    body = request.body instanceof FormData || typeof request.body === 'string' ? (request.body as BodyInit) : JSON.stringify(request.body);
    if (!(request.body instanceof FormData)) headers['Content-Type'] ??= 'application/json';
  }
  const response = await authFetch(path, { method: request.method ?? 'GET', headers, body, signal: request.signal });
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
