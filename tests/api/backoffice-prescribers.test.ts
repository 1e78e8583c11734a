// Prescripteurs (/api/prescribers), added with one declaration: list conventions, the French validation of its
// constraints (RPPS 11 digits, unique within the organisation), organisation confinement, permissions
// settings.prescribers.*, audit, and what the docs and the catalogue say about it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
import {
  auditRows,
  checkFilter,
  checkManyByIri,
  checkPaginationAndSort,
  expectForbidden,
  expectHiddenForEveryVerb,
  expectProblem,
  expectViolation,
  holdingIds,
  idWhere,
  ids,
  listAll,
  loginAll,
  mergePatch,
  seededRoleId,
  sqlRows,
  userId,
  type Tokens,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };
let lefevre: number; // Dr Claire Lefèvre, ORL, Audition Horizon, RPPS 10003456781

const RPPS_MESSAGE = 'RPPS doit contenir 11 chiffres';
const DUPLICATE_MESSAGE = 'Ce RPPS est déjà celui d’un autre prescripteur de votre organisation';

let nextRpps = 20000000000;
const body = (lastName: string, extra: Record<string, unknown> = {}) => ({
  civility: 'Dr',
  lastName,
  firstName: 'Anne',
  specialty: 'ORL',
  rpps: String(nextRpps++),
  city: 'Paris',
  phone: '01 02 03 04 05',
  email: 'anne@example.fr',
  ...extra,
});

const count = async () => Number((await sqlRows<{ n: string }>(server, 'select count(*) as n from prescribers'))[0]!.n);

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'lecture', 'rivieraAdmin']);
  org = await holdingIds(server);
  lefevre = await idWhere(server, 'prescribers', 'rpps', '10003456781');
});
afterAll(() => server?.close());

describe('GET /api/prescribers', () => {
  it('shows each organisation its own demo prescribers, the platform administrator all of them', async () => {
    const horizon = await listAll(server, t.horizonAdmin, 'prescribers');
    expect(horizon.map((p) => p.lastName)).toEqual(['Garnier', 'Lefèvre', 'Moreau', 'Petit']);
    expect(horizon.every((p) => p.holding.id === org.horizon)).toBe(true);
    expect((await listAll(server, t.rivieraAdmin, 'prescribers')).map((p) => p.lastName)).toEqual(['Bernard', 'Fabre', 'Rossi']);
    expect(await listAll(server, t.rivieraAdmin, 'prescribers', `holding=${org.horizon}`)).toEqual([]);
    expect(await listAll(server, t.admin, 'prescribers')).toHaveLength(7);
    const [item] = await listAll(server, t.horizonAdmin, 'prescribers', `id=${lefevre}`);
    expect(item).toMatchObject({
      '@id': `/api/prescribers/${lefevre}`,
      '@type': 'Prescriber',
      civility: 'Dr',
      lastName: 'Lefèvre',
      firstName: 'Claire',
      specialty: 'ORL',
      rpps: '10003456781',
      city: 'Paris',
      status: 'Active',
      holding: { '@id': `/api/holdings/${org.horizon}`, id: org.horizon, name: 'Audition Horizon' },
    });
  });

  it('pages, sorts, filters and searches without case or accents', async () => {
    await checkPaginationAndSort(server, t.admin, 'prescribers', 'lastName');
    await checkPaginationAndSort(server, t.admin, 'prescribers', 'city');
    await checkFilter(server, t.admin, 'prescribers', 'status', (p) => p.status);
    await checkFilter(server, t.admin, 'prescribers', 'specialty', (p) => p.specialty);
    await checkManyByIri(server, t.admin, 'prescribers');
    expect((await listAll(server, t.horizonAdmin, 'prescribers', 'search=LEFEVRE')).map((p) => p.id)).toEqual([lefevre]);
    expect((await listAll(server, t.admin, 'prescribers', 'search=10003456792')).map((p) => p.lastName)).toEqual(['Bernard']);
    expect((await listAll(server, t.rivieraAdmin, 'prescribers', 'status=Inactive')).map((p) => p.lastName)).toEqual(['Fabre']);
  });

  it('is refused without settings.prescribers.view, except to those who create PEC files: their organisation only (issue 15)', async () => {
    await expectForbidden(server, t.lecture, 'GET', '/api/prescribers');
    await expectForbidden(server, t.lecture, 'GET', `/api/prescribers/${lefevre}`);
    const seen = await listAll(server, t.audio, 'prescribers');
    expect(seen.map((p) => p.id)).toContain(lefevre);
    expect(new Set(seen.map((p) => p.holding.id))).toEqual(new Set([org.horizon]));
  });
});

describe('POST /api/prescribers', () => {
  it("creates in the caller's organisation (given or not), with the declared defaults, and audits it", async () => {
    const res = await server.request('POST', '/api/prescribers', { token: t.horizonAdmin, body: { lastName: 'Durand', rpps: '30000000001' } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/prescribers/${res.body.id}`);
    expect(res.body).toMatchObject({
      lastName: 'Durand',
      civility: 'Dr',
      specialty: 'ORL',
      status: 'Active',
      firstName: null,
      email: null,
      holding: { id: org.horizon },
    });
    const [row] = await auditRows(server, 'prescribers', res.body.id);
    expect(row).toMatchObject({ action: 'prescriber.create', actor_id: await userId(server, 'horizonAdmin'), holding_id: org.horizon });
    expect(row!.changes.rpps).toEqual({ before: null, after: '30000000001' });

    const named = await server.request('POST', '/api/prescribers', {
      token: t.rivieraAdmin,
      body: body('Blanc', { holding: `/api/holdings/${org.riviera}`, specialty: 'Ophtalmologiste' }),
    });
    expect(named.status, named.text).toBe(201);
    expect(named.body.holding.id).toBe(org.riviera);
    // A platform administrator names the organisation.
    const byAdmin = await server.request('POST', '/api/prescribers', { token: t.admin, body: body('Noir', { holdingId: org.riviera }) });
    expect(byAdmin.status, byAdmin.text).toBe(201);
    expect(byAdmin.body.holding.id).toBe(org.riviera);
  });

  it('answers each invalid field with its French message and writes nothing', async () => {
    const before = await count();
    const res = await server.request('POST', '/api/prescribers', {
      token: t.horizonAdmin,
      body: { civility: 'Mlle', lastName: 'X', specialty: 'Dentiste', rpps: '123', email: 'pas-un-email', status: 'Archivé' },
    });
    expectViolation(res, 'lastName', 'Le nom doit contenir au moins 2 caractères');
    expectViolation(res, 'rpps', RPPS_MESSAGE);
    expectViolation(res, 'civility', 'Valeur invalide : M., Mme, Dr ou Pr');
    expectViolation(res, 'specialty', 'Valeur invalide : ORL, Médecin généraliste, Ophtalmologiste ou Autre');
    expectViolation(res, 'email', 'Email invalide');
    expectViolation(res, 'status', 'Valeur invalide : ✅ Activé ou ❌ Désactivé');
    // Letters, 10 or 12 digits, a missing RPPS: the same message.
    for (const rpps of ['1000345678A', '1000345678', '100034567812', undefined]) {
      expectViolation(await server.request('POST', '/api/prescribers', { token: t.horizonAdmin, body: body('Martin', { rpps }) }), 'rpps', RPPS_MESSAGE);
    }
    expectViolation(
      await server.request('POST', '/api/prescribers', { token: t.horizonAdmin, body: body('Martin', { city: 'x'.repeat(256) }) }),
      'city',
      'Ce champ ne peut pas dépasser 255 caractères',
    );
    expect(await count()).toBe(before);
  });

  it('keeps an RPPS to one prescriber of an organisation (422, not 500); another organisation may have it', async () => {
    const before = await count();
    expectViolation(
      await server.request('POST', '/api/prescribers', { token: t.horizonAdmin, body: body('Doublon', { rpps: '10003456781' }) }),
      'rpps',
      DUPLICATE_MESSAGE,
    );
    expect(await count()).toBe(before);
    const elsewhere = await server.request('POST', '/api/prescribers', { token: t.rivieraAdmin, body: body('Homonyme', { rpps: '10003456781' }) });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    // Changing another prescriber's RPPS to a taken one is refused too; keeping one's own is not a duplicate.
    const moreau = await idWhere(server, 'prescribers', 'rpps', '10003456782');
    expectViolation(
      await server.request('PATCH', `/api/prescribers/${moreau}`, { token: t.horizonAdmin, body: { rpps: '10003456781' }, headers: mergePatch }),
      'rpps',
      DUPLICATE_MESSAGE,
    );
    const kept = await server.request('PATCH', `/api/prescribers/${lefevre}`, {
      token: t.horizonAdmin,
      body: { rpps: '10003456781', city: 'Paris 11e' },
      headers: mergePatch,
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.city).toBe('Paris 11e');
  });

  it('refuses with 422 a prescriber in another organisation, and a platform administrator naming none', async () => {
    expectViolation(
      await server.request('POST', '/api/prescribers', { token: t.rivieraAdmin, body: body('Pirate', { holding: `/api/holdings/${org.horizon}` }) }),
      'holding',
      'Organisation introuvable ou hors de votre périmètre.',
    );
    expectViolation(await server.request('POST', '/api/prescribers', { token: t.admin, body: body('Sans organisation') }), 'holding', 'Organisation requise');
    expect(await listAll(server, t.admin, 'prescribers', 'search=pirate')).toEqual([]);
  });

  it('is refused without settings.prescribers.create', async () => {
    await expectForbidden(server, t.audio, 'POST', '/api/prescribers', body('Interdit'));
  });
});

describe('PUT, PATCH and DELETE /api/prescribers/{id}', () => {
  it('PATCH changes the named fields, PUT replaces the others with their defaults; both audited', async () => {
    const created = (await server.request('POST', '/api/prescribers', { token: t.horizonAdmin, body: body('Roux', { specialty: 'Médecin généraliste' }) }))
      .body;
    const patched = await server.request('PATCH', `/api/prescribers/${created.id}`, {
      token: t.horizonAdmin,
      body: { status: 'Inactive', phone: '' },
      headers: mergePatch,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ status: 'Inactive', phone: null, specialty: 'Médecin généraliste', email: 'anne@example.fr' });
    const put = await server.request('PUT', `/api/prescribers/${created.id}`, {
      token: t.horizonAdmin,
      body: { lastName: 'Roux', rpps: created.rpps, civility: 'Pr', specialty: 'Autre' },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ civility: 'Pr', specialty: 'Autre', status: 'Active', firstName: null, email: null, holding: { id: org.horizon } });
    const actions = (await auditRows(server, 'prescribers', created.id)).map((r) => r.action);
    expect(actions).toEqual(['prescriber.create', 'prescriber.update', 'prescriber.update']);
    expect((await auditRows(server, 'prescribers', created.id))[1]!.changes).toEqual({
      status: { before: 'Active', after: 'Inactive' },
      phone: { before: '01 02 03 04 05', after: null },
    });
  });

  it('hides an Audition Horizon prescriber from Optique Riviera for every verb', async () => {
    await expectHiddenForEveryVerb(server, t.rivieraAdmin, 'prescribers', lefevre, body('Capture'), { table: 'prescribers' });
  });

  it('keeps a member from moving a prescriber to another organisation', async () => {
    expectViolation(
      await server.request('PATCH', `/api/prescribers/${lefevre}`, {
        token: t.horizonAdmin,
        body: { holding: `/api/holdings/${org.riviera}` },
        headers: mergePatch,
      }),
      'holding',
      'Organisation introuvable ou hors de votre périmètre.',
    );
  });

  it('deletes (one or in bulk) and audits the deletion', async () => {
    const a = (await server.request('POST', '/api/prescribers', { token: t.horizonAdmin, body: body('Supprimé') })).body;
    expect((await server.request('DELETE', `/api/prescribers/${a.id}`, { token: t.horizonAdmin })).status).toBe(204);
    expectProblem(await server.request('GET', `/api/prescribers/${a.id}`, { token: t.horizonAdmin }), 404, 'Prescripteur introuvable.');
    expect((await auditRows(server, 'prescribers', a.id)).at(-1)).toMatchObject({
      action: 'prescriber.delete',
      actor_email: 'direction@audition-horizon.fr',
      holding_id: org.horizon,
    });
    const b = (await server.request('POST', '/api/prescribers', { token: t.horizonAdmin, body: body('Lot 1') })).body;
    const c = (await server.request('POST', '/api/prescribers', { token: t.horizonAdmin, body: body('Lot 2') })).body;
    expect((await server.request('POST', '/api/prescribers/bulk-delete', { token: t.horizonAdmin, body: { ids: [b.id, c.id] } })).body.count).toBe(2);
    expect(await listAll(server, t.horizonAdmin, 'prescribers', `id[]=${b.id}&id[]=${c.id}`)).toEqual([]);
  });

  it('enforces update and delete permissions', async () => {
    await expectForbidden(server, t.audio, 'PATCH', `/api/prescribers/${lefevre}`, { city: 'Ailleurs' });
    await expectForbidden(server, t.lecture, 'PUT', `/api/prescribers/${lefevre}`, body('X'));
    await expectForbidden(server, t.audio, 'DELETE', `/api/prescribers/${lefevre}`);
  });
});

describe('settings.prescribers.*: the catalogue, the seeded roles, a role granting only the view', () => {
  it('lists the four keys in the catalogue under their French labels; the organisation administrator holds them', async () => {
    const catalogue = (await server.request('GET', '/api/permissions', { token: t.horizonAdmin })).body.member;
    expect(catalogue.filter((p: JsonBody) => p.key.startsWith('settings.prescribers.')).map((p: JsonBody) => [p.key, p.label, p.level])).toEqual([
      ['settings.prescribers.view', 'Voir les prescripteurs', 'view'],
      ['settings.prescribers.create', 'Créer des prescripteurs', 'create'],
      ['settings.prescribers.update', 'Modifier les prescripteurs', 'edit'],
      ['settings.prescribers.delete', 'Supprimer des prescripteurs', 'delete'],
    ]);
    const organisationAdmin = await server.request('GET', `/api/roles/${await seededRoleId(server, 'organisationAdmin')}`, { token: t.admin });
    expect(organisationAdmin.body.permissions).toContain('settings.prescribers.*');
  });

  it('lets a user holding settings.prescribers.view read the list, not change it', async () => {
    const role = await server.request('POST', '/api/roles', {
      token: t.horizonAdmin,
      body: { name: 'Consultation prescripteurs', permissions: ['pec.view', 'settings.prescribers.view'] },
    });
    expect(role.status, role.text).toBe(201);
    const lecture = await userId(server, 'lecture');
    const assigned = await server.request('PATCH', `/api/users/${lecture}`, {
      token: t.horizonAdmin,
      body: { roles: [role.body['@id']] },
      headers: mergePatch,
    });
    expect(assigned.status, assigned.text).toBe(200);
    expect((await listAll(server, t.lecture, 'prescribers')).length).toBeGreaterThanOrEqual(4);
    await expectForbidden(server, t.lecture, 'POST', '/api/prescribers', body('Lecteur'));
    await expectForbidden(server, t.lecture, 'DELETE', `/api/prescribers/${lefevre}`);
  });

  it("is a settings tab 'Prescripteurs' in the docs, with its labels, choices and constraints", async () => {
    const docs = (await server.request('GET', '/api/docs.jsonld')).body;
    const prescriber = docs['hydra:supportedClass'].find((c: JsonBody) => c['@id'] === '#Prescriber');
    expect(prescriber['pecflow:admin']).toMatchObject({
      label: { singular: 'Prescripteur', plural: 'Prescripteurs' },
      settingsTab: { label: 'Prescripteurs', permission: 'settings.prescribers.view' },
      permissions: {
        view: 'settings.prescribers.view',
        create: 'settings.prescribers.create',
        update: 'settings.prescribers.update',
        delete: 'settings.prescribers.delete',
      },
      list: { empty: 'Aucun prescripteur trouvé', scopeToHolding: true },
    });
    const rpps = prescriber['hydra:supportedProperty'].find((p: JsonBody) => p['hydra:title'] === 'rpps');
    expect(rpps).toMatchObject({ 'hydra:required': true, 'pecflow:label': 'RPPS', 'pecflow:constraints': { pattern: '^\\d{11}$', message: RPPS_MESSAGE } });
    const specialty = prescriber['hydra:supportedProperty'].find((p: JsonBody) => p['hydra:title'] === 'specialty');
    expect(specialty['pecflow:choices'].map((c: JsonBody) => c.id)).toEqual(['ORL', 'Médecin généraliste', 'Ophtalmologiste', 'Autre']);
    expect(ids(await listAll(server, t.admin, 'prescribers', `id=${lefevre}`))).toEqual([lefevre]);
  });
});
