// @api-platform/admin's Hydra data provider, wired to our authenticated fetch. Loaded on first use:
// its JSON-LD machinery is not needed to show the login page.
import { fetchHydra, hydraDataProvider } from '@api-platform/admin';
import { parseHydraDocumentation } from '@api-platform/api-doc-parser';
import { freshAccessToken, getAccessToken, getRefreshToken, refreshAccessToken } from '../authProvider/session';

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

/** The parser also reads each collection once (its search template: filters and sortable fields), which needs the token. */
const parserHeaders = (): Record<string, string> => {
  const token = getAccessToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

export function createHydraProvider() {
  return hydraDataProvider({
    entrypoint: entrypoint(),
    httpClient: hydraHttpClient,
    apiDocumentationParser: (url: string) => parseHydraDocumentation(url, { headers: parserHeaders }),
    mercure: false,
    // Embedded references ({@id, id, name}) stay in the records: lists show holding.name without another call.
    useEmbedded: true,
    // ...but they must never stand in for the full record in react-admin's getOne cache (an edit form would be partial).
    disableCache: true,
  });
}
