// Journal d'audit (/api/audit_logs): read-only, audit.view, each organisation reads its own trail; filters by actor,
// action, entity and date; rows are written in the transaction of the change (a refused batch leaves none), in the
// trail of the record's organisation (none for platform-wide records). The versions of a record (/history) are its
// changes, never its reads; who made them shows only to those who may read the same entry in the journal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
import { createDossier, demoRefs } from './helpers/pec';
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
  firstSignIn,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };

// The companies' audit rows: the server's background jobs may write rows of other entities meanwhile (one did in CI).
const companyRows = async () => Number((await sqlRows(server, "select count(*)::int as n from audit_logs where entity = 'company'"))[0]!.n);

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'lecture', 'rivieraAdmin']);
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
    // On the companies' rows: the server's background jobs may write others meanwhile (the robot's sweep did in CI).
    await checkPaginationAndSort(server, t.admin, 'audit_logs', 'createdAt', 'entity=companies');
    const horizonAdmin = await userId(server, 'horizonAdmin');
    const byActor = await listAll(server, t.admin, 'audit_logs', `actor=${horizonAdmin}`);
    expect(byActor.length).toBeGreaterThanOrEqual(2);
    expect(byActor.every((e) => e.actorId === horizonAdmin)).toBe(true);
    expect(ids(await listAll(server, t.admin, 'audit_logs', `actor=/api/users/${horizonAdmin}`))).toEqual(ids(byActor));
    // Within one actor's entries (or the companies'): the background jobs, which write entries of their own with no
    // actor (CI saw one land between the two reads a filter compares), cannot change what is compared.
    await checkFilter(server, t.admin, 'audit_logs', 'action', (e) => e.action, `actor=${horizonAdmin}`);
    await checkFilter(server, t.admin, 'audit_logs', 'entity', (e) => e.entity, `actor=${horizonAdmin}`);
    await checkFilter(server, t.admin, 'audit_logs', 'actorEmail', (e) => e.actorEmail ?? undefined, 'entity=companies');
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
    const before = await companyRows();
    const idf = await idWhere(server, 'companies', 'name', 'Horizon Audition Île-de-France');
    const empty = await idWhere(server, 'companies', 'name', 'Horizon Audit');
    // The first item is deleted, the second refuses: the batch rolls back with its audit rows.
    expectProblem(await server.request('POST', '/api/companies/bulk-delete', { token: t.horizonAdmin, body: { ids: [empty, idf] } }), 409);
    expectProblem(await server.request('PATCH', `/api/companies/${idf}`, { token: t.horizonAdmin, body: { name: 'X' }, headers: mergePatch }), 422);
    expect(await companyRows()).toBe(before);
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

describe('GET /api/{collection}/{id}/history', () => {
  const history = async (path: string, token: string) => {
    const res = await server.request('GET', `${path}/history`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.member as JsonBody[];
  };

  it('lists the changes of a record, never its reads, numbered over the changes', async () => {
    const file = await createDossier(server, t.horizonAdmin, await demoRefs(server));
    const path = `/api/pec_dossiers/${file.id}`;
    // Opening the file is recorded (health data), between two changes.
    for (const token of [t.lecture, t.admin, t.audio]) expect((await server.request('GET', path, { token })).status).toBe(200);
    await server.request('PATCH', path, { token: t.audio, body: { commentaire: 'Relu' }, headers: mergePatch });
    expect((await server.request('GET', path, { token: t.lecture })).status).toBe(200);
    // Another organisation's director does not see the file: nothing was read, nothing is recorded.
    expect((await server.request('GET', path, { token: t.rivieraAdmin })).status).toBe(404);
    const reads = await listAll(server, t.admin, 'audit_logs', `action=pec_dossier.read&entityId=${file.id}`);
    // Each entry is in the file's organisation's trail.
    const trails = await sqlRows(server, `select distinct holding_id from audit_logs where action = 'pec_dossier.read' and entity_id = '${file.id}'`);
    expect(trails.map((r) => r.holding_id)).toEqual([org.horizon]);
    expect(reads.map((r) => r.actorEmail).sort()).toEqual([
      'admin@pecflow.fr',
      'audio@audition-horizon.fr',
      'lecture@audition-horizon.fr',
      'lecture@audition-horizon.fr',
    ]);

    const versions = await history(path, t.horizonAdmin);
    expect(versions.map((v) => [v.version, v.action, v.actorEmail])).toEqual([
      [1, 'pec_dossier.create', 'direction@audition-horizon.fr'],
      [2, 'pec_dossier.update', 'audio@audition-horizon.fr'],
    ]);
    expect(versions[1].changes).toEqual({ commentaire: { before: 'Créé par les tests', after: 'Relu' } });
  });

  it('shows who made a change only to those who may read that entry in the journal', async () => {
    const file = await createDossier(server, t.horizonAdmin, await demoRefs(server));
    const path = `/api/pec_dossiers/${file.id}`;
    await server.request('PATCH', path, { token: t.admin, body: { commentaire: 'Vu par la plateforme' }, headers: mergePatch });
    // lecture@ reads the file (pec.view) but not the journal (no audit.view): the changes, without their authors.
    const anonymous = await history(path, t.lecture);
    expect(anonymous.map((v) => v.action)).toEqual(['pec_dossier.create', 'pec_dossier.update']);
    expect(anonymous.every((v) => v.actorId === null && v.actorEmail === null)).toBe(true);
    // The file is Horizon's: its entries are in Horizon's journal, authors included (as /api/audit_logs shows them).
    expect((await history(path, t.horizonAdmin)).map((v) => v.actorEmail)).toEqual(['direction@audition-horizon.fr', 'admin@pecflow.fr']);

    // A mutual is the platform's: its entries are in no organisation's journal, so no organisation sees their authors.
    const mutual = (await server.request('POST', '/api/mutuals', { token: t.admin, body: { name: 'Mutuelle Historique' } })).body;
    await server.request('PATCH', `/api/mutuals/${mutual.id}`, { token: t.admin, body: { code: 'MH' }, headers: mergePatch });
    for (const token of [t.rivieraAdmin, t.horizonAdmin, t.audio]) {
      const versions = await history(`/api/mutuals/${mutual.id}`, token);
      expect(versions.map((v) => [v.version, v.action, v.actorId, v.actorEmail])).toEqual([
        [1, 'mutual.create', null, null],
        [2, 'mutual.update', null, null],
      ]);
    }
    const adminView = await history(`/api/mutuals/${mutual.id}`, t.admin);
    expect(adminView.map((v) => v.actorEmail)).toEqual(['admin@pecflow.fr', 'admin@pecflow.fr']);
    expect(adminView[0].actorId).toBe(await userId(server, 'admin'));
  });
});

describe("the organisation of an audit entry is the record's, never the actor's", () => {
  it("keeps a platform administrator's changes to platform-wide records out of their own organisation's journal", async () => {
    // A platform administrator who belongs to Audition Horizon.
    const email = 'plateforme.horizon@exemple.fr';
    const created = await server.request('POST', '/api/users', {
      token: t.admin,
      body: { firstName: 'Paul', lastName: 'Plateforme', email, password: 'Secret-2026-Lumiere', holding: `/api/holdings/${org.horizon}` },
    });
    expect(created.status, created.text).toBe(201);
    await sqlRows(server, `insert into user_roles (user_id, role_id) select $1, id from roles where seed_key = 'superAdmin'`, [created.body.id]);
    const platform = (await firstSignIn(server, email, 'Secret-2026-Lumiere')).token;

    const write = async (method: string, path: string, body: unknown) => {
      const res = await server.request(method, path, { token: platform, body, headers: method === 'PATCH' ? mergePatch : {} });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
      return res.body;
    };
    const mutual = await write('POST', '/api/mutuals', { name: 'Mutuelle Plateforme' });
    await write('PATCH', `/api/mutuals/${mutual.id}`, { code: 'MP' });
    await write('POST', '/api/networks', { name: 'Réseau Plateforme' });
    await write('PATCH', `/api/configs/${await idWhere(server, 'configs', 'key', 'integrations.robot_url')}`, { value: 'https://robot.exemple.fr' });
    await write('POST', '/api/roles', { name: 'Rôle Plateforme', permissions: ['pec.view'] });
    // And records of organisations: each in its own organisation's journal.
    await write('POST', '/api/companies', {
      name: 'Riviera Plateforme',
      registrationNumber: '123456789',
      country: 'France',
      holding: `/api/holdings/${org.riviera}`,
    });
    await write('POST', '/api/companies', {
      name: 'Horizon Plateforme',
      registrationNumber: '123456789',
      country: 'France',
      holding: `/api/holdings/${org.horizon}`,
    });
    const exported = await fetch(`${server.url}/api/pec_dossiers/export`, { headers: { authorization: `Bearer ${platform}` } });
    expect(exported.status).toBe(200);
    await exported.text();

    const rows = await sqlRows<{ action: string; holding_id: number | null }>(
      server,
      'select action, holding_id from audit_logs where actor_email = $1 order by id',
      [email],
    );
    expect(rows.map((r) => [r.action, r.holding_id])).toEqual([
      ['mutual.create', null],
      ['mutual.update', null],
      ['network.create', null],
      ['system.setting.update', null],
      ['role.create', null],
      ['company.create', org.riviera],
      ['company.create', org.horizon],
      ['pec_dossier.export', null],
    ]);
    const seen = async (token: string) => (await listAll(server, token, 'audit_logs', `actorEmail=${encodeURIComponent(email)}`)).map((e) => e.action);
    expect(await seen(t.horizonAdmin)).toEqual(['company.create']);
    expect(await seen(t.rivieraAdmin)).toEqual(['company.create']);
    expect((await seen(t.admin)).length).toBe(8);
  });

  it("files an organisation administrator's changes in their organisation's journal", async () => {
    const rows = await sqlRows<{ holding_id: number }>(
      server,
      `select holding_id from audit_logs where action = 'company.create' and actor_email = 'direction@audition-horizon.fr'`,
    );
    expect(rows.map((r) => r.holding_id)).toEqual([org.horizon]);
    const file = await createDossier(server, t.horizonAdmin, await demoRefs(server));
    const [entry] = await listAll(server, t.horizonAdmin, 'audit_logs', `action=pec_dossier.create&entityId=${file.id}`);
    expect(entry.actorEmail).toBe('direction@audition-horizon.fr');
  });
});
