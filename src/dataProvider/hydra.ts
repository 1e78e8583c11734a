// @api-platform/admin's Hydra data provider, wired to our authenticated fetch. Loaded on first use:
// its JSON-LD machinery is not needed to show the login page.
import { fetchHydra, hydraDataProvider } from '@api-platform/admin';
import { parseHydraDocumentation } from '@api-platform/api-doc-parser';
import { freshAccessToken, getRefreshToken, refreshAccessToken } from '../authProvider/session';

type HttpClientOptions = Parameters<typeof fetchHydra>[1];

function withBearer(options: HttpClientOptions = {}, token: string | null): HttpClientOptions {
  const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return { ...options, headers };
}

/** fetchHydra with the bearer token, one shared refresh on a 401, then one retry. */
export async function hydraHttpClient(url: URL, options: HttpClientOptions = {}) {
  const token = await freshAccessToken();
  try {
    return await fetchHydra(url, withBearer(options, token));
  } catch (error) {
    if ((error as { status?: number }).status !== 401 || !getRefreshToken()) throw error;
    return fetchHydra(url, withBearer(options, await refreshAccessToken()));
  }
}

export const entrypoint = () => `${window.location.origin}/api`;

export function createHydraProvider() {
  return hydraDataProvider({
    entrypoint: entrypoint(),
    httpClient: hydraHttpClient,
    apiDocumentationParser: (url: string) => parseHydraDocumentation(url),
    mercure: false,
  });
}
