// Every declared table carries the list trigger (server/hydra/listTriggers.ts), added at start when its migration did
// not: a new entity's lists are kept without a hand-written step. Only a declaration saying `keptLists: false` (a busy
// table) goes without.
import { getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureListTriggers, listTriggerTables, tablesWithListTrigger } from '../../server/hydra/listTriggers';
import { RESOURCES } from '../../server/resources';
import { listAll, loginAll, sqlRows, type Tokens } from './helpers/backoffice';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
let tokens: Tokens;

beforeAll(async () => {
  server = await startTestServer();
  tokens = await loginAll(server, ['admin']);
});

afterAll(async () => {
  await server?.close();
});

describe('the list trigger', () => {
  it('is on the table of every organisation-owned declaration, unless it says keptLists: false', async () => {
    const present = await tablesWithListTrigger(server.database);
    const owned = RESOURCES.filter((decl) => decl.tenancy.holdingColumn);
    expect(owned.length).toBeGreaterThan(5);
    for (const decl of owned) {
      const table = getTableName(decl.table);
      expect(present.has(table) || decl.keptLists === false, `${decl.name} (${table}): no pecflow_list_changed trigger`).toBe(true);
    }
  });

  it('is on every table a declaration lists read, link tables included', async () => {
    const present = await tablesWithListTrigger(server.database);
    const tables = listTriggerTables(RESOURCES);
    expect(tables).toEqual(expect.arrayContaining(['prescribers', 'user_roles', 'shop_credentials']));
    expect(tables.filter((table) => !present.has(table))).toEqual([]);
    expect(tables).not.toContain('pec_dossiers');
  });

  it('is added back at start to a table that lacks it, once, and its lists are kept again', async () => {
    await sqlRows(server, 'drop trigger prescribers_list_changed on prescribers');
    expect((await tablesWithListTrigger(server.database)).has('prescribers')).toBe(false);
    expect(await ensureListTriggers(server.database, RESOURCES)).toEqual(['prescribers']);
    expect(await ensureListTriggers(server.database, RESOURCES)).toEqual([]);
    expect((await tablesWithListTrigger(server.database)).has('prescribers')).toBe(true);

    await server.app.ctx.lists.readWatched();
    await listAll(server, tokens.admin, 'prescribers');
    const hits = server.app.ctx.lists.stats.hits;
    await listAll(server, tokens.admin, 'prescribers');
    expect(server.app.ctx.lists.stats.hits).toBe(hits + 1);
  });
});
