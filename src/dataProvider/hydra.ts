// @api-platform/admin's Hydra data provider, wired to our authenticated fetch. Loaded on first use:
// its JSON-LD machinery is not needed to show the login page.
import { fetchHydra, hydraDataProvider } from '@api-platform/admin';
import { HttpError } from 'ra-core';
import { freshAccessToken, getRefreshToken, refreshAccessToken } from '../session';
import { API_DESCRIPTION_ERROR_MESSAGE, extractErrorMessage } from '#domain/errors';
import { readApiDocs } from './adminSchema';
import { toApi } from './docsApi';

type HttpClientOptions = Parameters<typeof fetchHydra>[1];

function withBearer(options: HttpClientOptions = {}, token: string | null): HttpClientOptions {
  const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return { ...options, headers };
}

/**
 * A 5xx (or an error answer that is not JSON) reaches us from fetchHydra as the bare `{response}` the JSON-LD fetch
 * throws, its body unread: it becomes an HttpError with the response's message (spec section 8: the message first,
 * the generic French text only when there is none; never the English status text).
 */
async function unreadFailure(error: unknown): Promise<unknown> {
  const response = (error as { response?: unknown } | null)?.response;
  if (error instanceof Error || !(response instanceof Response)) return error;
  const text = await response.text().catch(() => '');
  let body: unknown = text || undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // a plain text answer (a proxy's page): no message of ours in it
  }
  return new HttpError(extractErrorMessage({ body }), response.status, body);
}

/** fetchHydra with the bearer token, one shared refresh on a 401, then one retry. */
export async function hydraHttpClient(url: URL, options: HttpClientOptions = {}) {
  const token = await freshAccessToken();
  try {
    return await fetchHydra(url, withBearer(options, token)).catch(async (error) => Promise.reject(await unreadFailure(error)));
  } catch (error) {
    if ((error as { status?: number }).status !== 401 || !getRefreshToken()) throw error;
    return fetchHydra(url, withBearer(options, await refreshAccessToken())).catch(async (retryError) => Promise.reject(await unreadFailure(retryError)));
  }
}

export const entrypoint = () => `${window.location.origin}/api`;

/**
 * The provider with its reading of the API description started. A read's request goes out at once and its answer
 * waits for the description (the provider maps answers through it): the read and the parser's round trips and work go
 * side by side instead of one after the other. Writes build their body from the description: the caller waits first.
 */
export function createHydraProvider() {
  let described: Promise<unknown> = Promise.resolve();
  const provider = hydraDataProvider({
    entrypoint: entrypoint(),
    httpClient: async (url, options) => {
      const response = await hydraHttpClient(url, options);
      await described;
      return response;
    },
    // The docs the application has already read, parsed from their compact form (src/dataProvider/docsParser.ts):
    // not api-doc-parser's GET /api, the docs again and their JSON-LD expansion.
    apiDocumentationParser: async (url: string) => ({ api: toApi((await readApiDocs()).api, url), response: new Response(), status: 200 }),
    mercure: false,
    // Embedded references ({@id, id, name}) stay in the records: lists show holding.name without another call.
    useEmbedded: true,
    // ...but they must never stand in for the full record in react-admin's getOne cache (an edit form would be partial).
    disableCache: true,
  });
  // @api-platform/admin's failure says "Cannot fetch API documentation" in English: the screens show this one.
  described = provider.introspect().catch((error: unknown) => {
    throw new Error(API_DESCRIPTION_ERROR_MESSAGE, { cause: error });
  });
  return { provider, described };
}
