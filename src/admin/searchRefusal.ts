// A list's search the server refuses (a 422 whose violation names `search`: more words than the PEC search takes,
// SEARCH_WORDS of domain/limits.ts) is said at the search box, not as the list's failure: « Réessayer » would fail
// again. Read by the list frame (src/admin/ListFrame.tsx), its search box, the PEC filters and the PEC list's periodic
// refresh, which stops while the search is refused (refetchUnlessSearchRefused).

/** A member of a node of the answer as the Hydra client leaves it, expanded JSON-LD: keyed by its IRI (`…#message`), a list. */
function member(node: unknown, name: string): unknown[] {
  if (!node || typeof node !== 'object') return [];
  const value = Object.entries(node).find(([key]) => key.endsWith(`#${name}`))?.[1];
  return Array.isArray(value) ? value : [];
}

const valueOf = (node: unknown, name: string) => (member(node, name)[0] as { '@value'?: unknown } | undefined)?.['@value'];

/** The server's French message refusing the search of a list's read (its HttpError), else undefined. */
export function searchRefusalOf(error: unknown): string | undefined {
  const { status, body } = (error ?? {}) as { status?: unknown; body?: unknown };
  if (status !== 422 || !Array.isArray(body)) return undefined;
  const violation = member(body[0], 'violations').find((node) => valueOf(node, 'propertyPath') === 'search');
  const message = valueOf(violation, 'message');
  return typeof message === 'string' ? message : undefined;
}

/**
 * A list's periodic refresh (react-query's refetchInterval) every `ms`, stopped while its read is refused for its search:
 * the same search would be refused again. It starts again with the next read the server answers.
 */
export const refetchUnlessSearchRefused =
  (ms: number) =>
  (query: { state: { error: unknown } }): number | false =>
    searchRefusalOf(query.state.error) === undefined ? ms : false;
