// Journal d'audit (/api/audit_logs): read-only, audit.view, each organisation reads its own trail; filters by actor,
// action, entity and date; rows are written in the transaction of the change (a refused batch leaves none).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import {
  checkDateRange,
  checkFilter,
  checkPaginationAndSort,
  expectForbidden,
  expectProblem,
  holdingIds,
  idWhere,
  ids,
  listAll,
  loginAll,
  mergePatch,
  sqlRows,
  userId,
  type Tokens,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };

const count = async () => Number((await sqlRows(server, 'select count(*)::int as n from audit_logs'))[0]!.n);

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'rivieraAdmin']);
  org = await holdingIds(server);
  // A little history from three actors in two organisations and the platform.
  const idf = await idWhere(server, 'companies', 'name', 'Horizon Audition Île-de-France');
  await server.request('PATCH', `/api/companies/${idf}`, { token: t.horizonAdmin, body: { city: 'Paris 11e' }, headers: mergePatch });
  const riviera = await idWhere(server, 'companies', 'name', 'Riviera Vision');
  await server.request('PATCH', `/api/companies/${riviera}`, { token: t.rivieraAdmin, body: { city: 'Nice Centre' }, headers: mergePatch });
  await server.request('POST', '/api/networks', { token: t.admin, body: { name: 'Réseau Audité', code: 'AUDIT' } });
  await server.request('POST', '/api/companies', {
    token: t.horizonAdmin,
    body: { name: 'Horizon Audit', registrationNumber: '123456789', country: 'France', holding: `/api/holdings/${org.horizon}` },
  });
});
afterAll(() => server?.close());

describe('GET /api/audit_logs', () => {
  it('shows who did what, on which record, when, with the changed fields', async () => {
    const [entry] = await listAll(server, t.horizonAdmin, 'audit_logs', 'action=company.update');
    expect(entry).toMatchObject({
      '@type': 'AuditLog',
      action: 'company.update',
      entity: 'companies',
      entityId: String(await idWhere(server, 'companies', 'name', 'Horizon Audition Île-de-France')),
      actorId: await userId(server, 'horizonAdmin'),
      actorEmail: 'direction@audition-horizon.fr',
      changes: { city: { before: 'Paris', after: 'Paris 11e' } },
    });
    expect(new Date(entry.createdAt).getTime()).toBeGreaterThan(Date.now() - 120_000);
  });

  it('filters by actor (id or IRI), action, entity, entity id and date; newest first by default', async () => {
    await checkPaginationAndSort(server, t.admin, 'audit_logs', 'createdAt');
    const horizonAdmin = await userId(server, 'horizonAdmin');
    const byActor = await listAll(server, t.admin, 'audit_logs', `actor=${horizonAdmin}`);
    expect(byActor.length).toBeGreaterThanOrEqual(2);
    expect(byActor.every((e) => e.actorId === horizonAdmin)).toBe(true);
    expect(ids(await listAll(server, t.admin, 'audit_logs', `actor=/api/users/${horizonAdmin}`))).toEqual(ids(byActor));
    await checkFilter(server, t.admin, 'audit_logs', 'action', (e) => e.action);
    await checkFilter(server, t.admin, 'audit_logs', 'entity', (e) => e.entity);
    await checkFilter(server, t.admin, 'audit_logs', 'actorEmail', (e) => e.actorEmail ?? undefined);
    await checkFilter(server, t.admin, 'audit_logs', 'entityId', (e) => e.entityId ?? undefined, 'entity=companies');
    const newest = await listAll(server, t.admin, 'audit_logs');
    const times = newest.map((e) => new Date(e.createdAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    await checkDateRange(server, t.admin, 'audit_logs', 'audit_logs', newest.at(-1).id);
    expect((await listAll(server, t.admin, 'audit_logs', 'search=riviera')).every((e) => e.actorEmail === 'direction@optique-riviera.fr')).toBe(true);
  });

  it("confines each organisation to its own trail; platform entries are the platform administrator's", async () => {
    const horizon = await listAll(server, t.horizonAdmin, 'audit_logs');
    const riviera = await listAll(server, t.rivieraAdmin, 'audit_logs');
    expect(horizon.length).toBeGreaterThan(0);
    expect(horizon.every((e) => e.actorEmail !== 'direction@optique-riviera.fr')).toBe(true);
    expect(horizon.map((e) => e.action)).not.toContain('network.create');
    // Riviera's trail: its administrator's changes (and the robot's, which have no actor), nobody of Horizon.
    expect(riviera.map((e) => e.actorEmail)).toContain('direction@optique-riviera.fr');
    expect(riviera.every((e) => e.actorEmail === null || e.actorEmail === 'direction@optique-riviera.fr')).toBe(true);
    expectProblem(await server.request('GET', `/api/audit_logs/${horizon[0].id}`, { token: t.rivieraAdmin }), 404);
    expect((await listAll(server, t.admin, 'audit_logs', 'action=network.create')).length).toBe(1);
  });

  it('needs audit.view and is read-only', async () => {
    await expectForbidden(server, t.audio, 'GET', '/api/audit_logs');
    const [entry] = await listAll(server, t.admin, 'audit_logs');
    for (const [method, path] of [
      ['POST', '/api/audit_logs'],
      ['PUT', `/api/audit_logs/${entry.id}`],
      ['PATCH', `/api/audit_logs/${entry.id}`],
      ['DELETE', `/api/audit_logs/${entry.id}`],
      ['POST', '/api/audit_logs/bulk-delete'],
    ] as const) {
      const res = await server.request(method, path, { token: t.admin, body: { ids: [entry.id], action: 'falsifié' } });
      expect(res.status).toBe(404);
    }
    expect((await server.request('GET', `/api/audit_logs/${entry.id}`, { token: t.admin })).body.action).toBe(entry.action);
  });
});

describe('audit rows and transactions', () => {
  it('a refused change leaves no audit row (written in the same transaction)', async () => {
    const before = await count();
    const idf = await idWhere(server, 'companies', 'name', 'Horizon Audition Île-de-France');
    const empty = await idWhere(server, 'companies', 'name', 'Horizon Audit');
    // The first item is deleted, the second refuses: the batch rolls back with its audit rows.
    expectProblem(await server.request('POST', '/api/companies/bulk-delete', { token: t.horizonAdmin, body: { ids: [empty, idf] } }), 409);
    expectProblem(await server.request('PATCH', `/api/companies/${idf}`, { token: t.horizonAdmin, body: { name: 'X' }, headers: mergePatch }), 422);
    expect(await count()).toBe(before);
    expect(ids(await listAll(server, t.horizonAdmin, 'companies'))).toContain(empty);
  });

  it('a bulk action writes one row per item with the bulk action name', async () => {
    const a = (await server.request('POST', '/api/networks', { token: t.admin, body: { name: 'Audit A' } })).body;
    const b = (await server.request('POST', '/api/networks', { token: t.admin, body: { name: 'Audit B' } })).body;
    await server.request('POST', '/api/networks/bulk-update', { token: t.admin, body: { ids: [a.id, b.id], data: { description: 'lot' } } });
    const rows = await listAll(server, t.admin, 'audit_logs', 'action=network.bulk_update');
    expect(rows.map((r) => Number(r.entityId)).sort()).toEqual([a.id, b.id].sort());
    expect(rows.every((r) => r.actorEmail === 'admin@pecflow.fr' && r.changes.description.after === 'lot')).toBe(true);
  });
});
