// Reads a collection query in both conventions: API Platform's (order[field]=desc, itemsPerPage, field[]=, id[]=IRI,
// field[after]) and the spec's (sort=-field or sort=field&order=desc, limit, search, dateFrom/dateTo). Unknown keys are ignored.
import { MAX_PAGE_SIZE, PAGE_SIZE, UNPAGINATED_MAX } from '#domain/limits';

export interface ListQuery {
  page: number;
  itemsPerPage: number;
  paginate: boolean;
  order?: { field: string; direction: 'asc' | 'desc' };
  search?: string;
  /** key -> accepted values (strings as sent). */
  filters: Map<string, string[]>;
  /** key -> {after, before} as sent. */
  ranges: Map<string, { after?: string; before?: string }>;
}

type Raw = Record<string, string | string[] | undefined>;

/**
 * The entry a declaration (filters, order, ranges) has for a key read from the query, own properties only: a key such
 * as `__proto__`, `constructor` or `toString` would otherwise find Object.prototype's members and break the query.
 */
export function declared<T>(entries: Record<string, T> | undefined, key: string): T | undefined {
  return entries && Object.hasOwn(entries, key) ? entries[key] : undefined;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const all = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function positiveInt(value: string | undefined, fallback: number, max: number) {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
}

/** PostgreSQL text cannot hold NUL characters: they are dropped from query values (they would match nothing). */
function withoutNul(raw: Raw): Raw {
  const clean = (v: string) => v.replaceAll('\u0000', '');
  return Object.fromEntries(
    Object.entries(raw).map(([key, value]) => [clean(key), Array.isArray(value) ? value.map(clean) : value === undefined ? value : clean(String(value))]),
  );
}

const RESERVED = new Set(['page', 'itemsPerPage', 'limit', 'pagination', 'sort', 'order', 'search', 'q', 'dateFrom', 'dateTo']);

export function parseListQuery(raw: Raw, options: { paginated: boolean; rangeAliasKey?: string; maxItemsPerPage?: number }): ListQuery {
  raw = withoutNul(raw);
  const paginationParam = first(raw.pagination);
  const paginate = options.paginated && paginationParam !== 'false' && paginationParam !== '0';
  const max = options.maxItemsPerPage ?? MAX_PAGE_SIZE;
  const itemsPerPage = paginate ? positiveInt(first(raw.itemsPerPage) ?? first(raw.limit), Math.min(PAGE_SIZE, max), max) : UNPAGINATED_MAX;
  const page = paginate ? positiveInt(first(raw.page), 1, 1_000_000) : 1;

  let order: ListQuery['order'];
  const filters = new Map<string, string[]>();
  const ranges = new Map<string, { after?: string; before?: string }>();

  for (const [key, value] of Object.entries(raw)) {
    const orderMatch = /^order\[(.+)\]$/.exec(key);
    if (orderMatch) {
      const direction = first(value)?.toLowerCase();
      order ??= { field: orderMatch[1]!, direction: direction === 'desc' ? 'desc' : 'asc' };
      continue;
    }
    const rangeMatch = /^(.+)\[(after|before|strictly_after|strictly_before)\]$/.exec(key);
    if (rangeMatch) {
      const bound = rangeMatch[2]!.includes('after') ? 'after' : 'before';
      ranges.set(rangeMatch[1]!, { ...ranges.get(rangeMatch[1]!), [bound]: first(value) });
      continue;
    }
    if (RESERVED.has(key)) continue;
    // field[]=a&field[]=b, field[0]=a (react-admin's array filters), or field=a.
    const name = key.replace(/\[\d*\]$/, '');
    const values = all(value).filter((v) => v !== '');
    if (values.length) filters.set(name, [...(filters.get(name) ?? []), ...values]);
  }

  // The spec's sort: "-createdAt", or "createdAt" with order=desc.
  const sort = first(raw.sort);
  if (!order && sort) {
    const descending = sort.startsWith('-');
    const orderParam = first(raw.order)?.toLowerCase();
    order = { field: descending ? sort.slice(1) : sort, direction: descending || orderParam === 'desc' ? 'desc' : 'asc' };
  }

  if (options.rangeAliasKey && (raw.dateFrom || raw.dateTo)) {
    const current = ranges.get(options.rangeAliasKey) ?? {};
    ranges.set(options.rangeAliasKey, { after: current.after ?? first(raw.dateFrom), before: current.before ?? first(raw.dateTo) });
  }

  const search = (first(raw.search) ?? first(raw.q))?.trim().slice(0, 200) || undefined;
  return { page, itemsPerPage, paginate, order, search, filters, ranges };
}
