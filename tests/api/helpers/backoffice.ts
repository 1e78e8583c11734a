// Shared checks of the back-office API tests: accounts, list conventions, tenancy, permissions, audit rows.
import { expect } from 'vitest';
import type { ApiResponse, JsonBody, TestServer } from './server';
import { ACCOUNT_MESSAGES } from '#domain/accounts';
import type { SeededRoleKey } from '#domain/roles';

export const ACCOUNTS = {
  admin: 'admin@pecflow.fr',
  horizonAdmin: 'direction@audition-horizon.fr',
  audio: 'audio@audition-horizon.fr',
  assistant: 'assistant@audition-horizon.fr',
  lecture: 'lecture@audition-horizon.fr',
  rivieraAdmin: 'direction@optique-riviera.fr',
} as const;

export type AccountKey = keyof typeof ACCOUNTS;
export type Tokens = Record<AccountKey, string>;

/** Signs in the demo accounts a test file needs (argon2 makes each sign-in slow: once per file). */
export async function loginAll(server: TestServer, keys: AccountKey[] = Object.keys(ACCOUNTS) as AccountKey[]): Promise<Tokens> {
  const tokens = {} as Tokens;
  for (const key of keys) tokens[key] = await server.login(ACCOUNTS[key]);
  return tokens;
}

/** One value of the raw database (what the API does not show: ciphertexts, organisation columns). */
export async function sqlRows<T = Record<string, unknown>>(server: TestServer, text: string, values: unknown[] = []): Promise<T[]> {
  return server.database.query<T>(text, values);
}

export async function idWhere(server: TestServer, table: string, column: string, value: unknown): Promise<number> {
  const [row] = await sqlRows<{ id: number }>(server, `select id from ${table} where ${column} = $1 order by id limit 1`, [value]);
  if (!row) throw new Error(`no ${table} with ${column} = ${String(value)}`);
  return Number(row.id);
}

/** A seeded platform role's id, found by its key (roles.seed_key), never by its French name. */
export const seededRoleId = (server: TestServer, key: SeededRoleKey) => idWhere(server, 'roles', 'seed_key', key);

export const holdingIds = async (server: TestServer) => ({
  horizon: await idWhere(server, 'holdings', 'name', 'Audition Horizon'),
  riviera: await idWhere(server, 'holdings', 'name', 'Optique Riviera'),
});

/** Every member of a collection (one large page), with the query given. */
export async function listAll(server: TestServer, token: string, collection: string, query = ''): Promise<JsonBody[]> {
  const separator = query ? '&' : '';
  const res = await server.request('GET', `/api/${collection}?${query}${separator}itemsPerPage=100`, { token });
  expect(res.status, res.text).toBe(200);
  expect(res.body['@type']).toBe('hydra:Collection');
  return res.body.member;
}

export const mergePatch = { 'content-type': 'application/merge-patch+json' };

export const ids = (members: { id: number }[]) => members.map((m) => m.id);

export function expectViolation(res: ApiResponse, propertyPath: string, message: string) {
  expect(res.status, res.text).toBe(422);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body['@type']).toBe('ConstraintViolationList');
  expect(res.body.violations).toContainEqual({ propertyPath, message });
}

export function expectProblem(res: ApiResponse, status: number, detail?: string | RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.headers.get('link')).toContain('rel="http://www.w3.org/ns/hydra/core#apiDocumentation"');
  if (typeof detail === 'string') expect(res.body.detail).toBe(detail);
  else if (detail) expect(res.body.detail).toMatch(detail);
}

/**
 * Both pagination conventions on one collection: the spec's (page, itemsPerPage, limit, sort=-field) and API Platform's
 * (order[field]=desc), which must return the same pages; the Hydra view links first/last/next/previous.
 */
export async function checkPaginationAndSort(server: TestServer, token: string, collection: string, sortField: string, filter = '') {
  // `filter` ("entity=companies") keeps the pages on records nothing else writes while they are read.
  const and = filter ? `${filter}&` : '';
  const everything = await listAll(server, token, collection, `${and}order[${sortField}]=asc`);
  expect(everything.length, `${collection} needs at least 3 records to test pagination`).toBeGreaterThanOrEqual(3);
  const total = everything.length;

  const spec = await server.request('GET', `/api/${collection}?${and}sort=-${sortField}&page=2&itemsPerPage=2`, { token });
  const platform = await server.request('GET', `/api/${collection}?${and}order[${sortField}]=desc&page=2&itemsPerPage=2`, { token });
  const limit = await server.request('GET', `/api/${collection}?${and}sort=${sortField}&order=desc&page=2&limit=2`, { token });
  expect(spec.status).toBe(200);
  expect(spec.body.totalItems).toBe(total);
  // Descending is the exact reverse of ascending (ties are broken by id in the same direction).
  const descending = [...ids(everything)].reverse();
  expect(ids(spec.body.member)).toEqual(descending.slice(2, 4));
  expect(ids(platform.body.member)).toEqual(descending.slice(2, 4));
  expect(ids(limit.body.member)).toEqual(descending.slice(2, 4));

  const view = spec.body.view;
  expect(view['@type']).toBe('hydra:PartialCollectionView');
  expect(view.first).toContain('page=1');
  expect(view.previous).toContain('page=1');
  expect(view.last).toContain(`page=${Math.ceil(total / 2)}`);
  if (total > 4) expect(view.next).toContain('page=3');

  // Page 1 and 2 of two items are the first four of one page of four.
  const first = await server.request('GET', `/api/${collection}?${and}order[${sortField}]=asc&page=1&itemsPerPage=2`, { token });
  const second = await server.request('GET', `/api/${collection}?${and}order[${sortField}]=asc&page=2&itemsPerPage=2`, { token });
  expect([...ids(first.body.member), ...ids(second.body.member)]).toEqual(ids(everything).slice(0, 4));
  expect(first.body.view.previous).toBeUndefined();
  return everything;
}

/** The value a filter compares, read from an item: a reference's IRI, or the field itself as sent in a query. */
export function queryValue(value: unknown): string {
  if (value && typeof value === 'object' && '@id' in value) return String((value as { '@id': string })['@id']);
  return String(value);
}

/**
 * A filter: `key=value` keeps exactly the members whose field has that value; `key[]=a&key[]=b` keeps both values.
 * `read` gives the compared value of an item (as a query string would carry it), undefined when it has none.
 */
export async function checkFilter(
  server: TestServer,
  token: string,
  collection: string,
  key: string,
  read: (item: JsonBody) => string | undefined,
  baseQuery = '',
) {
  const everything = await listAll(server, token, collection, baseQuery);
  const values = [...new Set(everything.map(read).filter((v) => v !== undefined))];
  expect(values.length, `${collection}: the filter ${key} needs records with a value`).toBeGreaterThan(0);
  const [a, b] = values;
  const prefix = baseQuery ? `${baseQuery}&` : '';
  const onlyA = await listAll(server, token, collection, `${prefix}${key}=${encodeURIComponent(a!)}`);
  expect(onlyA.length).toBeGreaterThan(0);
  expect(onlyA.every((item) => read(item) === a)).toBe(true);
  expect(ids(onlyA).sort()).toEqual(ids(everything.filter((item) => read(item) === a)).sort());
  if (b !== undefined) {
    const both = await listAll(server, token, collection, `${prefix}${key}[]=${encodeURIComponent(a!)}&${key}[]=${encodeURIComponent(b)}`);
    expect(ids(both).sort()).toEqual(ids(everything.filter((item) => read(item) === a || read(item) === b)).sort());
  }
  // A value no record has gives an empty list, not an error.
  const none = await server.request('GET', `/api/${collection}?${prefix}${key}=${encodeURIComponent('valeur-absente-999')}`, { token });
  expect(none.status).toBe(200);
  return { everything, onlyA };
}

/** id[]=<IRI>: many records by IRI, as the admin's getMany asks. */
export async function checkManyByIri(server: TestServer, token: string, collection: string) {
  const everything = await listAll(server, token, collection);
  const wanted = everything.slice(0, 2).map((m) => m['@id'] as string);
  const res = await listAll(server, token, collection, wanted.map((iri) => `id[]=${encodeURIComponent(iri)}`).join('&'));
  expect(res.map((m) => m['@id']).sort()).toEqual(wanted.sort());
}

/** createdAt[after]/[before] (and the spec's dateFrom/dateTo): a record moved to the past falls on the right side. */
export async function checkDateRange(
  server: TestServer,
  token: string,
  collection: string,
  table: string,
  id: number,
  field = 'createdAt',
  column = 'created_at',
) {
  await sqlRows(server, `update ${table} set ${column} = '2020-03-15T10:00:00Z' where id = $1`, [id]);
  const after = await listAll(server, token, collection, `${field}[after]=2021-01-01`);
  const before = await listAll(server, token, collection, `${field}[before]=2020-12-31`);
  expect(ids(after)).not.toContain(id);
  expect(ids(before)).toContain(id);
  expect(before.every((m) => new Date(m[field]).getTime() < new Date('2021-01-01').getTime())).toBe(true);
  if (field === 'createdAt') {
    const spec = await listAll(server, token, collection, 'dateFrom=2020-03-15&dateTo=2020-03-15');
    expect(ids(spec)).toContain(id);
    expect(spec.every((m) => m.createdAt.startsWith('2020-03-1'))).toBe(true);
  }
  // An unreadable bound is ignored, never an error.
  const unreadable = await server.request('GET', `/api/${collection}?${field}[after]=pas-une-date`, { token });
  expect(unreadable.status).toBe(200);
}

/**
 * A record of another organisation does not exist for the caller, for every verb: 404 on read, write, delete, archive,
 * history, and a bulk action naming it fails with 404 too; and the record is unchanged. A verb the caller may not use
 * at all (`lacking`) answers 403 whatever the id, which says nothing about the record either.
 */
export async function expectHiddenForEveryVerb(
  server: TestServer,
  token: string,
  collection: string,
  id: number,
  validBody: Record<string, unknown>,
  options: { archive?: boolean; history?: boolean; table: string; lacking?: ('update' | 'delete')[] },
) {
  const [before] = await sqlRows(server, `select * from ${options.table} where id = $1`, [id]);
  const path = `/api/${collection}/${id}`;
  const updateStatus = options.lacking?.includes('update') ? 403 : 404;
  const deleteStatus = options.lacking?.includes('delete') ? 403 : 404;
  expectProblem(await server.request('GET', path, { token }), 404);
  expectProblem(await server.request('PUT', path, { token, body: validBody }), updateStatus);
  expectProblem(await server.request('PATCH', path, { token, body: validBody, headers: mergePatch }), updateStatus);
  // Even an invalid body answers 404: nothing about the record is revealed.
  expectProblem(await server.request('PATCH', path, { token, body: { name: '' }, headers: mergePatch }), updateStatus);
  expectProblem(await server.request('DELETE', path, { token }), deleteStatus);
  if (options.archive) expectProblem(await server.request('PATCH', `${path}/archive`, { token }), deleteStatus);
  if (options.history) expectProblem(await server.request('GET', `${path}/history`, { token }), 404);
  expectProblem(await server.request('POST', `/api/${collection}/bulk-delete`, { token, body: { ids: [id] } }), deleteStatus);
  expectProblem(
    await server.request('POST', `/api/${collection}/bulk-update`, { token, body: { ids: [`/api/${collection}/${id}`], data: { status: 'Inactive' } } }),
    updateStatus,
  );
  expect(ids(await listAll(server, token, collection))).not.toContain(id);
  const [after] = await sqlRows(server, `select * from ${options.table} where id = $1`, [id]);
  expect(after).toEqual(before);
}

/** A caller without the permission gets 403 for this call, and nothing changes. */
export async function expectForbidden(server: TestServer, token: string, method: string, path: string, body?: unknown) {
  const res = await server.request(method, path, { token, body, headers: method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : undefined });
  expectProblem(res, 403, 'Accès refusé : vous n’avez pas la permission nécessaire.');
}

/** The audit rows of one record, oldest first. */
export async function auditRows(server: TestServer, entity: string, id: number) {
  return sqlRows<{ action: string; actor_id: number | null; actor_email: string | null; holding_id: number | null; changes: JsonBody }>(
    server,
    `select action, actor_id, actor_email, holding_id, changes from audit_logs where entity = $1 and entity_id = $2 order by id`,
    [entity, String(id)],
  );
}

export async function userId(server: TestServer, key: AccountKey) {
  return idWhere(server, 'users', 'email', ACCOUNTS[key]);
}

/** A body of exactly one megabyte of text. */
export const ONE_MEGABYTE = 'x'.repeat(1024 * 1024);

/**
 * The first sign-in of an account whose password an administrator typed: its owner must choose another (the sign-in's
 * `password_change` step) before any token. Returns the session then opened.
 */
export async function firstSignIn(server: TestServer, email: string, typed: string, chosen = 'Choisi-Par-Moi-2026!') {
  const first = await server.request('POST', '/api/login_check', { body: { email, password: typed } });
  expect(first.body, first.text).toMatchObject({ step: 'password_change', message: ACCOUNT_MESSAGES.passwordChosenByAdministrator });
  const done = await server.request('POST', '/api/login_check/password', { body: { challenge: first.body.challenge, password: chosen } });
  expect(done.status, done.text).toBe(200);
  return done.body as { token: string; refresh_token: string };
}
