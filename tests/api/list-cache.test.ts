// Back-office lists kept by the server between reads (server/hydra/listCache.ts): a kept list is never older than a
// change committed before the read, whether made through the API or elsewhere (another instance, the robot, SQL); a
// change to a table the list does not read keeps it; each reader keeps their own scope; lists of busy tables (PEC
// files) and the items are read from the database every time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connect';
import { ListCache } from '../../server/hydra/listCache';
import { holdingIds, idWhere, listAll, loginAll, mergePatch, sqlRows, type Tokens } from './helpers/backoffice';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
let tokens: Tokens;
let holdings: Awaited<ReturnType<typeof holdingIds>>;

beforeAll(async () => {
  server = await startTestServer();
  tokens = await loginAll(server, ['admin', 'horizonAdmin', 'rivieraAdmin']);
  holdings = await holdingIds(server);
});

afterAll(async () => {
  await server?.close();
});

const stats = () => ({ ...server.app.ctx.lists.stats });
const read = (token: string, collection: string) => listAll(server, token, collection);
const logins = async (token: string) => (await read(token, 'credential_software')).map((c) => c.login as string).sort();

/** Reads the list twice: the second answer comes from the cache. */
async function kept(token: string, collection: string) {
  await read(token, collection);
  const hits = stats().hits;
  await read(token, collection);
  expect(stats().hits, `${collection} kept`).toBe(hits + 1);
}

describe('a kept list', () => {
  it('answers the same body again from the cache', async () => {
    const first = await server.get('/api/credential_software', tokens.admin);
    const before = stats();
    const second = await server.get('/api/credential_software', tokens.admin);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(stats().hits).toBe(before.hits + 1);
  });

  it('shows a write through the API in the very next read', async () => {
    const id = await idWhere(server, 'credential_software', 'status', 'Active');
    await kept(tokens.admin, 'credential_software');
    const renamed = `cache.api.${Date.now()}`;
    const patched = await server.request('PATCH', `/api/credential_software/${id}`, { token: tokens.admin, body: { login: renamed }, headers: mergePatch });
    expect(patched.status).toBe(200);
    expect(await logins(tokens.admin)).toContain(renamed);
  });

  it('shows a change made outside this server (another instance, the robot, SQL) in the very next read', async () => {
    const id = await idWhere(server, 'companies', 'status', 'Active');
    await kept(tokens.admin, 'companies');
    const renamed = `Entreprise cache ${Date.now()}`;
    await sqlRows(server, 'update companies set name = $1 where id = $2', [renamed, id]);
    // In the very next read: it waits for the database's notices up to its own.
    expect((await read(tokens.admin, 'companies')).some((c) => c.name === renamed)).toBe(true);
    await kept(tokens.admin, 'companies');
  });

  it('stays kept when a table it does not read changes', async () => {
    await kept(tokens.admin, 'credential_software');
    const id = await idWhere(server, 'companies', 'status', 'Active');
    const patched = await server.request('PATCH', `/api/companies/${id}`, {
      token: tokens.admin,
      body: { name: `Entreprise ${Date.now()}` },
      headers: mergePatch,
    });
    expect(patched.status).toBe(200);
    const hits = stats().hits;
    await read(tokens.admin, 'credential_software');
    expect(stats().hits).toBe(hits + 1);
  });

  it('shows a change to a table it embeds (the organisation of each credential)', async () => {
    await kept(tokens.admin, 'credential_software');
    const renamed = `Organisation cache ${Date.now()}`;
    await sqlRows(server, 'update holdings set name = $1 where id = $2', [renamed, holdings.riviera]);
    expect((await read(tokens.admin, 'credential_software')).some((c) => (c.holding as { name?: string })?.name === renamed)).toBe(true);
  });
});

describe('the total of a kept list', () => {
  it('counts a large list afresh after a change made outside this server, though large totals are otherwise reused', async () => {
    const total = async () => {
      const res = await server.get('/api/networks?itemsPerPage=5', tokens.admin);
      expect(res.status).toBe(200);
      return (res.body as { totalItems: number }).totalItems;
    };
    const prefix = `Réseau total ${Date.now()}`;
    await sqlRows(server, `insert into networks (name) select $1 || ' ' || g from generate_series(1, 1000) g`, [prefix]);
    try {
      const before = await total();
      expect(before).toBeGreaterThanOrEqual(1000);
      await sqlRows(server, `insert into networks (name) values ($1)`, [`${prefix} de plus`]);
      expect(await total()).toBe(before + 1);
    } finally {
      await sqlRows(server, `delete from networks where name like $1 || '%'`, [prefix]);
    }
  });
});

describe('what is kept for whom', () => {
  it('keeps each reader to their own organisation', async () => {
    for (let round = 0; round < 2; round++) {
      for (const [who, holding] of [
        ['horizonAdmin', holdings.horizon],
        ['rivieraAdmin', holdings.riviera],
      ] as const) {
        const expected = await sqlRows<{ login: string }>(server, 'select login from credential_software where holding_id = $1', [holding]);
        expect(expected.length, `${who} has credentials`).toBeGreaterThan(0);
        expect(await logins(tokens[who]), `${who}, read ${round + 1}`).toEqual(expected.map((r) => r.login).sort());
      }
    }
  });

  it('never keeps the PEC list nor an item', async () => {
    const before = stats();
    for (let i = 0; i < 3; i++) {
      expect((await server.get('/api/pec_dossiers?itemsPerPage=5', tokens.horizonAdmin)).status).toBe(200);
      const id = await idWhere(server, 'credential_software', 'status', 'Active');
      expect((await server.get(`/api/credential_software/${id}`, tokens.admin)).status).toBe(200);
    }
    expect(stats()).toEqual(before);
  });
});

describe('the cache when notices may be lost (a database of its own, whose notices the test controls)', () => {
  /** Lists of the table `companies`, and a LISTEN connection the test can lose or silence. */
  function fakeDatabase(deliver: 'always' | 'never' | 'fails') {
    const fake = { notices: 0, onPayload: (_: string) => undefined as void, onGap: () => undefined as void };
    const database = {
      async listen(_channel: string, onPayload: (payload: string) => void, onGap: () => void) {
        Object.assign(fake, { onPayload, onGap });
        return async () => undefined;
      },
      async notifyFromListener(_channel: string, payload: string) {
        fake.notices++;
        if (deliver === 'fails') throw new Error('connexion perdue');
        if (deliver === 'always') setImmediate(() => fake.onPayload(payload));
      },
      async query(text: string) {
        return text.startsWith('explain') ? [{ 'QUERY PLAN': [{ Plan: { 'Relation Name': 'companies' } }] }] : [{ table: 'companies' }];
      },
    } as unknown as Database;
    return { fake, database };
  }
  const page = (n: number) => ({ members: `[${n}]`, total: n });

  it('uses nothing kept before the LISTEN connection was lost and listened again', async () => {
    const { fake, database } = fakeDatabase('always');
    const cache = new ListCache(database);
    await cache.start();
    let reads = 0;
    const run = async () => page(++reads);
    await cache.read('select 1', [], run);
    expect((await cache.read('select 1', [], run)).total).toBe(1);
    // A write committed while the connection was down was never heard.
    fake.onGap();
    expect((await cache.read('select 1', [], run)).total).toBe(2);
  });

  it('sends one notice at a time, shared by the reads that begin meanwhile', async () => {
    const { fake, database } = fakeDatabase('always');
    const cache = new ListCache(database);
    await cache.start();
    await cache.read('select 1', [], async () => page(1));
    const before = fake.notices;
    const answers = await Promise.all(Array.from({ length: 200 }, () => cache.read('select 1', [], async () => page(2))));
    expect(answers.every((a) => a.total === 1)).toBe(true);
    expect(fake.notices - before).toBeLessThanOrEqual(2);
  });

  it('goes to the database, and forgets what it kept, when its notice cannot be sent', async () => {
    const { database } = fakeDatabase('fails');
    const cache = new ListCache(database);
    await cache.start();
    let reads = 0;
    const run = async () => page(++reads);
    for (let i = 1; i <= 3; i++) expect((await cache.read('select 1', [], run)).total).toBe(i);
    expect(cache.stats).toEqual({ hits: 0, misses: 0 });
  });
});
