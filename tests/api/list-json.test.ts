// Lists written by PostgreSQL (ResourceRepository.listJson, the route's path) give the very documents the JavaScript
// serializer gives for the same data (list + present + collectionDocument, the reference): for every collection, as
// the platform and as an organisation, with filters, searches, sorts and pages; and a list's member is the item the
// item route gives, but for the fields only a single item carries.
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPrincipal } from '../../server/auth/principal';
import { collectionDocument } from '../../server/hydra/output';
import { MAX_PAGE_SIZE } from '#domain/limits';
import { parseListQuery } from '../../server/hydra/query';
import type { ResourceRepository } from '../../server/hydra/repository';
import { RESOURCES } from '../../server/resources';
import { ACCOUNTS, idWhere, loginAll, type Tokens } from './helpers/backoffice';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';

let server: TestServer;
let tokens: Tokens;
const AS = ['admin', 'horizonAdmin', 'audio'] as const;

beforeAll(async () => {
  server = await startTestServer();
  tokens = await loginAll(server, [...AS]);
  // Values the demo data may lack: a timestamp with microseconds (JavaScript keeps milliseconds), an empty text.
  const fileId = await idWhere(server, 'pec_dossiers', 'status', 'approved');
  await server.database.query(`update pec_dossiers set date_validation = '2026-03-04 05:06:07.891234+00', commentaire = '' where id = $1`, [fileId]);
});

afterAll(async () => {
  await server?.close();
});

/** The reference document: the same list read and serialized in JavaScript, as the route did before listJson. */
async function serializedInJs(repository: ResourceRepository, email: string, path: string): Promise<JsonBody> {
  const [user] = await server.database.query<{ id: number }>('select id from users where email = $1', [email]);
  const principal = (await loadPrincipal(server.database, user!.id))!;
  const url = new URL(path, 'http://local');
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    raw[key] = values.length > 1 || key.endsWith('[]') ? values : values[0]!;
  }
  const { decl } = repository;
  const query = parseListQuery(raw, {
    paginated: decl.paginated !== false,
    rangeAliasKey: Object.keys(decl.rangeFilters ?? {})[0],
    maxItemsPerPage: MAX_PAGE_SIZE,
  });
  const { rows, total } = await repository.list(principal, query);
  const request = { url: path, server: server.app } as unknown as FastifyRequest;
  // Through JSON, as the route sends it (undefined values dropped, dates written).
  return JSON.parse(JSON.stringify(collectionDocument(request, decl, await repository.present(principal, rows, 'list'), total, query)));
}

/** Same values and the same key order, nested objects included. */
function expectSameDocument(actual: JsonBody, expected: JsonBody, where: string) {
  expect(actual, where).toEqual(expected);
  expect(JSON.stringify(actual), `${where}: key order`).toBe(JSON.stringify(expected));
}

/** Queries each collection is read with: its default page, small pages, each sort both ways, its filters, a search. */
function queriesOf(repository: ResourceRepository): string[] {
  const { decl } = repository;
  const queries = ['', 'itemsPerPage=2', 'itemsPerPage=2&page=2', 'itemsPerPage=3&page=999'];
  for (const key of Object.keys(decl.order)) queries.push(`order[${key}]=desc&itemsPerPage=5`, `order[${key}]=asc&itemsPerPage=5&page=2`);
  if (decl.search?.length) queries.push('search=a', 'search=zzzz-nothing');
  if (decl.filters?.status) queries.push('status=Active', 'status=approved');
  if (decl.rangeFilters?.createdAt) queries.push('createdAt[after]=2020-01-01&itemsPerPage=4');
  if (decl.paginated !== false && decl.unpaginatedAllowed !== false) queries.push('pagination=false');
  return queries;
}

describe('lists written by PostgreSQL', () => {
  it('serve every collection (else the comparisons below would compare the serializer with itself)', async () => {
    const [admin] = await server.database.query<{ id: number }>('select id from users where email = $1', [ACCOUNTS.admin]);
    const principal = (await loadPrincipal(server.database, admin!.id))!;
    const query = parseListQuery({}, { paginated: true });
    const inJavaScript = [];
    for (const repository of server.app.ctx.resources.all()) {
      if ((await repository.listJson(principal, query)) === undefined) inJavaScript.push(repository.decl.name);
    }
    // A derived field needs its `sql`, an expand hook its listJson.
    expect(inJavaScript).toEqual([]);
  });

  it.each(RESOURCES.map((decl) => decl.name))(
    'give %s exactly the document the JavaScript serializer gives, for each reader, filter, sort and page',
    async (name) => {
      const repository = server.app.ctx.resources.get(name);
      let compared = 0;
      for (const as of AS) {
        for (const query of queriesOf(repository)) {
          const path = `/api/${name}${query ? `?${query}` : ''}`;
          const res = await server.get(path, tokens[as]);
          if (res.status === 403) continue;
          expect(res.status, `${path} as ${as}: ${res.text}`).toBe(200);
          expectSameDocument(res.body, await serializedInJs(repository, ACCOUNTS[as], path), `${path} as ${as}`);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(5);
    },
  );

  it('write the PEC list with its embedded centre, mutual and network, for its own filters', async () => {
    const repository = server.app.ctx.resources.get('pec_dossiers');
    const [file] = await server.database.query<{ numero: string }>(`select numero_dossier as numero from pec_dossiers order by id limit 1`);
    const queries = [
      'status[]=approved&status[]=draft',
      `search=${encodeURIComponent(file!.numero)}`,
      'dateFrom=2020-01-01&dateTo=2030-12-31&sort=-totalTtc',
      'order[datePeremption]=desc&itemsPerPage=3',
      'statutFacturation=true',
      'robotFailedWithinDays=30',
    ];
    for (const as of AS) {
      for (const query of queries) {
        const path = `/api/pec_dossiers?${query}`;
        const res = await server.get(path, tokens[as]);
        expect(res.status, res.text).toBe(200);
        expectSameDocument(res.body, await serializedInJs(repository, ACCOUNTS[as], path), `${path} as ${as}`);
      }
    }
    const page = await server.get('/api/pec_dossiers?itemsPerPage=50', tokens.admin);
    const withMutual = page.body.member.find((m: JsonBody) => m.mutual?.network);
    expect(withMutual.mutual).toMatchObject({ '@type': 'Mutual', network: { id: expect.any(Number), name: expect.any(String) } });
    expect(page.body.member.some((m: JsonBody) => m.dateValidation === '2026-03-04T05:06:07.891Z')).toBe(true);
  });

  it('give as members the items the item route gives, but for the fields of a single item', async () => {
    let items = 0;
    for (const repository of server.app.ctx.resources.all()) {
      const { decl } = repository;
      const list = await server.get(`/api/${decl.name}?itemsPerPage=3`, tokens.admin);
      if (list.status !== 200) continue;
      const itemOnly = Object.entries(decl.fields)
        .filter(([, field]) => field.kind === 'derived' && field.itemOnly)
        .map(([name]) => name);
      for (const member of list.body.member) {
        const item = await server.get(member['@id'], tokens.admin);
        expect(item.status, item.text).toBe(200);
        const { '@context': context, ...fields } = item.body;
        expect(context).toBe(list.body['@context']);
        for (const name of itemOnly) delete fields[name];
        expectSameDocument(member, fields, member['@id']);
        items++;
      }
    }
    expect(items).toBeGreaterThan(20);
  });
});
