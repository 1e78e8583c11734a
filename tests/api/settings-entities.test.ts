// Every declared settings entity, run through the same checks without a line of its own: a new declaration is tested
// here as soon as it is listed in server/resources/index.ts. Its own file (tests/api/backoffice-<name>.test.ts) adds
// what is particular to it: a valid record created, changed and deleted, its rules, its messages, its audit.
import { getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../server/resources';
import { holdingIds, listAll, loginAll, sqlRows, type Tokens } from './helpers/backoffice';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';

let server: TestServer;
let t: Tokens;
let horizon: number;
let riviera: number;

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin']);
  ({ horizon, riviera } = await holdingIds(server));
});

afterAll(async () => {
  await server?.close();
});

const SETTINGS_ENTITIES = RESOURCES.filter((decl) => decl.settingsTab && decl.list && !decl.readOnly);
/** Each check runs for the entities it applies to (named in the test's title), so none is reported as skipped. */
const cases = (applies: (decl: (typeof SETTINGS_ENTITIES)[number]) => boolean) => SETTINGS_ENTITIES.filter(applies).map((decl) => [decl.name, decl] as const);

describe.each(cases(() => true))('%s', (name) => {
  it('lists its records, as a Hydra collection, to the platform administrator', async () => {
    const members = await listAll(server, t.admin, name);
    expect(members.length).toBeGreaterThan(0);
    for (const member of members.slice(0, 5)) expect(member['@id']).toBe(`/api/${name}/${member.id}`);
  });
});

describe.each(cases((decl) => decl.creatable !== false))('%s', (name, decl) => {
  it('refuses an empty record with a French violation on each required field (422)', async () => {
    const res = await server.request('POST', `/api/${name}`, { token: t.admin, body: {} });
    expect(res.status, res.text).toBe(422);
    expect(res.body['@type']).toBe('ConstraintViolationList');
    const required = Object.entries(decl.fields).filter(([, f]) => f.writable && f.required && f.default === undefined && f.kind !== 'computed');
    expect(required.length).toBeGreaterThan(0);
    for (const [field] of required) {
      const violation = res.body.violations.find((v: JsonBody) => v.propertyPath === field);
      expect(violation, `${name}.${field}`).toBeDefined();
      expect(violation.message).toMatch(/[a-zé]{3,}/i);
    }
  });
});

describe.each(cases((decl) => !!decl.tenancy.holdingColumn))('%s', (name, decl) => {
  it("keeps another organisation's records from an organisation's administrator (404)", async () => {
    const table = getTableName(decl.table);
    const column = decl.tenancy.holdingColumn!.name;
    let [other] = await sqlRows<{ id: number }>(server, `select id from "${table}" where "${column}" is not null and "${column}" <> $1 limit 1`, [horizon]);
    // No record of another organisation in the demo data (roles: the platform's): one copied to Optique Riviera, without
    // the key that marks a seeded role (unique; a column the other tables do not have, which the copy then ignores).
    other ??= (
      await sqlRows<{ id: number }>(
        server,
        `insert into "${table}" select (r).* from (select jsonb_populate_record(null::"${table}", to_jsonb(s) ||
         jsonb_build_object('id', nextval(pg_get_serial_sequence('${table}', 'id')), '${column}', $1::int, 'seed_key', null)) as r
       from "${table}" s limit 1) as copy returning id`,
        [riviera],
      )
    )[0];
    expect(other, `${name}: a record of another organisation`).toBeDefined();
    const res = await server.get(`/api/${name}/${other!.id}`, t.horizonAdmin);
    expect(res.status, res.text).toBe(404);
    const [own] = await sqlRows<{ n: number }>(server, `select count(*)::int as n from "${table}" where "${column}" <> $1`, [horizon]);
    const members = await listAll(server, t.horizonAdmin, name);
    expect(own!.n).toBeGreaterThan(0);
    expect(members.map((m: JsonBody) => m.id)).not.toContain(other!.id);
  });
});
