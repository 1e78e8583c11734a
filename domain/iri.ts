// IRIs (/api/shops/7) <-> numeric ids, for the browser and the server.
export const API_PREFIX = '/api';

export const iriOf = (collection: string, id: number | string) => `${API_PREFIX}/${collection}/${id}`;

/**
 * The numeric id a client wrote for a reference to `collection`: an IRI of that collection, a number, a numeric string
 * or an object with an `@id`. Undefined when the value is none of these.
 */
export function idFromReference(value: unknown, collection: string): number | undefined {
  if (value && typeof value === 'object' && '@id' in value) value = (value as { '@id': unknown })['@id'];
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const prefix = `${API_PREFIX}/${collection}/`;
  const raw = value.startsWith(prefix) ? value.slice(prefix.length) : value;
  if (!/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : undefined;
}
