// Organisations (/api/holdings): list conventions, validation messages, PUT/PATCH, deletion rules, bulk actions,
// tenancy, permissions and audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import {
  auditRows,
  checkDateRange,
  checkFilter,
  checkManyByIri,
  checkPaginationAndSort,
  expectForbidden,
  expectHiddenForEveryVerb,
  expectProblem,
  expectViolation,
  holdingIds,
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

const valid = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  registrationNumber: '900100200',
  vatNumber: 'FR11900100200',
  email: 'contact@exemple.fr',
  phone: '01 02 03 04 05',
  street: '1 place de la Comédie',
  postalCode: '34000',
  city: 'Montpellier',
  country: 'France',
  status: 'Active',
  ...extra,
});

async function create(body: Record<string, unknown>) {
  const res = await server.request('POST', '/api/holdings', { token: t.admin, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'rivieraAdmin']);
  org = await holdingIds(server);
  await create(valid('Audition Élysée', { city: 'Paris', status: 'Inactive' }));
  await create(valid('Zénith Optique', { city: 'Lille' }));
});
afterAll(() => server?.close());

describe('GET /api/holdings', () => {
  it('pages and sorts in both conventions', async () => {
    await checkPaginationAndSort(server, t.admin, 'holdings', 'name');
    await checkPaginationAndSort(server, t.admin, 'holdings', 'createdAt');
  });

  it('sorts by name by default, ascending; sort=-name reverses it', async () => {
    const names = (await listAll(server, t.admin, 'holdings')).map((h) => h.name);
    expect(names.indexOf('Audition Horizon')).toBeLessThan(names.indexOf('Zénith Optique'));
    const reversed = (await listAll(server, t.admin, 'holdings', 'sort=-name')).map((h) => h.name);
    expect(reversed).toEqual([...names].reverse());
  });

  it('filters by status and name, one value or several', async () => {
    await checkFilter(server, t.admin, 'holdings', 'status', (h) => h.status);
    const { onlyA } = await checkFilter(server, t.admin, 'holdings', 'name', (h) => h.name);
    expect(onlyA).toHaveLength(1);
  });

  it('searches name, SIREN and city, ignoring case and accents', async () => {
    expect((await listAll(server, t.admin, 'holdings', 'search=ELYSEE')).map((h) => h.name)).toEqual(['Audition Élysée']);
    expect((await listAll(server, t.admin, 'holdings', 'search=nice')).map((h) => h.name)).toEqual(['Optique Riviera']);
    expect((await listAll(server, t.admin, 'holdings', 'search=812345678')).map((h) => h.name)).toEqual(['Audition Horizon']);
    // LIKE wildcards are literal characters.
    expect(await listAll(server, t.admin, 'holdings', 'search=%25')).toEqual([]);
  });

  it('reads many by IRI and filters on the creation date', async () => {
    await checkManyByIri(server, t.admin, 'holdings');
    const id = (await listAll(server, t.admin, 'holdings', 'name=Zénith Optique'))[0].id;
    await checkDateRange(server, t.admin, 'holdings', 'holdings', id);
  });

  it('shows each organisation with its computed fullAddress, @id and @type', async () => {
    const [horizon] = await listAll(server, t.admin, 'holdings', `id=${org.horizon}`);
    expect(horizon).toMatchObject({
      '@id': `/api/holdings/${org.horizon}`,
      '@type': 'Holding',
      id: org.horizon,
      fullAddress: '18 rue de la Roquette, 75011 Paris, France',
      registrationNumber: '812345678',
    });
  });

  it('shows an organisation member only their own organisation', async () => {
    expect(ids(await listAll(server, t.horizonAdmin, 'holdings'))).toEqual([org.horizon]);
    expect(ids(await listAll(server, t.rivieraAdmin, 'holdings'))).toEqual([org.riviera]);
  });

  it('refuses the list to a user without settings.holdings.view', async () => {
    await expectForbidden(server, t.audio, 'GET', '/api/holdings');
    await expectForbidden(server, t.audio, 'GET', `/api/holdings/${org.horizon}`);
  });
});

describe('POST /api/holdings', () => {
  it('creates with 201, a Location header and the item as JSON-LD; the audit names the real actor, not _audit', async () => {
    const res = await server.request('POST', '/api/holdings', {
      token: t.admin,
      body: { ...valid('Acoustique Garonne'), '@id': '/api/holdings/999', id: 999, _audit: { action: 'holding.create', userId: 4242 }, unknownField: 'ignoré' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body['@id']);
    expect(res.headers.get('content-type')).toContain('application/ld+json');
    expect(res.body).toMatchObject({ '@type': 'Holding', name: 'Acoustique Garonne', city: 'Montpellier', status: 'Active' });
    expect(res.body.id).not.toBe(999);
    expect(res.body).not.toHaveProperty('unknownField');
    const [row] = await auditRows(server, 'holdings', res.body.id);
    expect(row).toMatchObject({ action: 'holding.create', actor_id: await userId(server, 'admin'), actor_email: 'admin@pecflow.fr', holding_id: res.body.id });
    expect(row!.changes.name).toEqual({ before: null, after: 'Acoustique Garonne' });
  });

  it('defaults the status to Active and the optional fields to null', async () => {
    const res = await server.request('POST', '/api/holdings', { token: t.admin, body: { name: 'Minimal', registrationNumber: '123', country: 'France' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'Active', email: null, vatNumber: null, fullAddress: 'France' });
  });

  it('answers each invalid field with its French message (spec section 5)', async () => {
    const res = await server.request('POST', '/api/holdings', {
      token: t.admin,
      body: { name: 'A', registrationNumber: '12', country: 'F', email: 'pas-un-email', status: 'Supprimé' },
    });
    expectViolation(res, 'name', 'Nom requis');
    expectViolation(res, 'registrationNumber', 'SIREN requis');
    expectViolation(res, 'country', 'Pays requis');
    expectViolation(res, 'email', 'Email invalide');
    expectViolation(res, 'status', 'Statut invalide');
    expect(res.body.detail).toContain('Nom requis');
    expect(res.body.detail).not.toContain('name:');
    expect(res.body['@context']['@vocab']).toMatch(/\/api\/docs\.jsonld#$/);
  });

  it('is refused to an organisation administrator (no settings.holdings.create)', async () => {
    await expectForbidden(server, t.horizonAdmin, 'POST', '/api/holdings', valid('Pirate'));
    expect(await listAll(server, t.admin, 'holdings', 'name=Pirate')).toEqual([]);
  });
});

describe('PUT and PATCH /api/holdings/{id}', () => {
  it('PATCH changes only the named fields; PUT replaces the writable fields', async () => {
    const created = await create(valid('Ouïe Fine'));
    const patched = await server.request('PATCH', `/api/holdings/${created.id}`, { token: t.admin, body: { phone: '09 99 99 99 99' }, headers: mergePatch });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Ouïe Fine', phone: '09 99 99 99 99', vatNumber: 'FR11900100200', city: 'Montpellier' });

    const put = await server.request('PUT', `/api/holdings/${created.id}`, {
      token: t.admin,
      body: { name: 'Ouïe Fine SA', registrationNumber: '900100200', country: 'France' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Ouïe Fine SA', phone: null, vatNumber: null, city: null, status: 'Active' });

    // PUT without a required field is refused; PATCH without it is fine.
    expectViolation(
      await server.request('PUT', `/api/holdings/${created.id}`, { token: t.admin, body: { registrationNumber: '900100200', country: 'France' } }),
      'name',
      'Nom requis',
    );
    // merge-patch null clears an optional field, and is refused on a required one.
    expect(
      (await server.request('PATCH', `/api/holdings/${created.id}`, { token: t.admin, body: { email: null }, headers: mergePatch })).body.email,
    ).toBeNull();
    expectViolation(
      await server.request('PATCH', `/api/holdings/${created.id}`, { token: t.admin, body: { name: null }, headers: mergePatch }),
      'name',
      'Nom requis',
    );
  });

  it('PATCH also accepts application/ld+json', async () => {
    const created = await create(valid('Son Clair'));
    const res = await server.request('PATCH', `/api/holdings/${created.id}`, { token: t.admin, body: { city: 'Rennes' } });
    expect(res.status).toBe(200);
    expect(res.body.city).toBe('Rennes');
  });

  it('records the before and after of the changed fields only, with the real actor', async () => {
    const created = await create(valid('Audio Atlantique'));
    await server.request('PATCH', `/api/holdings/${created.id}`, {
      token: t.admin,
      body: { city: 'Nantes', phone: '01 02 03 04 05', _audit: { userId: 1234 } },
      headers: mergePatch,
    });
    const rows = await auditRows(server, 'holdings', created.id);
    expect(rows.map((r) => r.action)).toEqual(['holding.create', 'holding.update']);
    expect(rows[1]!.changes).toEqual({ city: { before: 'Montpellier', after: 'Nantes' } });
    expect(rows[1]!.actor_email).toBe('admin@pecflow.fr');
  });

  it('lets an organisation administrator update their own organisation', async () => {
    const res = await server.request('PATCH', `/api/holdings/${org.horizon}`, {
      token: t.horizonAdmin,
      body: { phone: '01 44 55 66 78' },
      headers: mergePatch,
    });
    expect(res.status).toBe(200);
    const [row] = (await auditRows(server, 'holdings', org.horizon)).slice(-1);
    expect(row).toMatchObject({ action: 'holding.update', actor_email: 'direction@audition-horizon.fr', holding_id: org.horizon });
  });

  it('hides the other organisation from an organisation administrator, for every verb', async () => {
    // They may update their own organisation (404 for the other) but delete none (403 whatever the id).
    await expectHiddenForEveryVerb(server, t.rivieraAdmin, 'holdings', org.horizon, valid('Capture'), { table: 'holdings', lacking: ['delete'] });
    await expectHiddenForEveryVerb(server, t.horizonAdmin, 'holdings', org.riviera, valid('Capture'), { table: 'holdings', lacking: ['delete'] });
  });

  it('answers 404 for an id that is not a number or does not exist', async () => {
    expectProblem(await server.request('GET', '/api/holdings/abc', { token: t.admin }), 404);
    expectProblem(await server.request('GET', '/api/holdings/99999999', { token: t.admin }), 404, 'Organisation introuvable.');
    expectProblem(await server.request('PUT', '/api/holdings/99999999999', { token: t.admin, body: valid('X') }), 404);
  });
});

describe('DELETE /api/holdings/{id}', () => {
  it('refuses while companies or users are attached, saying by what', async () => {
    expectProblem(
      await server.request('DELETE', `/api/holdings/${org.horizon}`, { token: t.admin }),
      409,
      'Impossible de supprimer : 2 entreprises sont rattachées à cette organisation.',
    );
    expectProblem(
      await server.request('DELETE', `/api/holdings/${org.riviera}`, { token: t.admin }),
      409,
      'Impossible de supprimer : 1 entreprise est rattachée à cette organisation.',
    );
    const lone = await create(valid('Sans entreprise'));
    await sqlRows(server, `insert into users (holding_id, email, password_hash, first_name, last_name) values ($1, 'seul@exemple.fr', 'x', 'Jean', 'Seul')`, [
      lone.id,
    ]);
    expectProblem(
      await server.request('DELETE', `/api/holdings/${lone.id}`, { token: t.admin }),
      409,
      'Impossible de supprimer : 1 utilisateur est rattaché à cette organisation.',
    );
  });

  it('deletes an organisation with nothing attached, and audits it', async () => {
    const created = await create(valid('Éphémère'));
    const res = await server.request('DELETE', `/api/holdings/${created.id}`, { token: t.admin });
    expect(res.status).toBe(204);
    expectProblem(await server.request('GET', `/api/holdings/${created.id}`, { token: t.admin }), 404);
    const rows = await auditRows(server, 'holdings', created.id);
    expect(rows.at(-1)).toMatchObject({ action: 'holding.delete', actor_email: 'admin@pecflow.fr' });
    expect(rows.at(-1)!.changes.name).toEqual({ before: 'Éphémère', after: null });
  });

  it('is refused to an organisation administrator (no settings.holdings.delete)', async () => {
    await expectForbidden(server, t.horizonAdmin, 'DELETE', `/api/holdings/${org.horizon}`);
  });
});

describe('bulk actions', () => {
  it('bulk-delete is all or nothing: one refused item cancels the batch', async () => {
    const a = await create(valid('Lot A'));
    const b = await create(valid('Lot B'));
    const refused = await server.request('POST', '/api/holdings/bulk-delete', { token: t.admin, body: { ids: [a['@id'], org.horizon, b.id] } });
    expectProblem(refused, 409, `Élément ${org.horizon} : Impossible de supprimer : 2 entreprises sont rattachées à cette organisation.`);
    expect(ids(await listAll(server, t.admin, 'holdings', `id[]=${a.id}&id[]=${b.id}`)).sort()).toEqual([a.id, b.id].sort());

    const done = await server.request('POST', '/api/holdings/bulk-delete', { token: t.admin, body: { ids: [a['@id'], b.id], _audit: { userId: 99 } } });
    expect(done.status).toBe(200);
    expect(done.body.count).toBe(2);
    expect(await listAll(server, t.admin, 'holdings', `id[]=${a.id}&id[]=${b.id}`)).toEqual([]);
    expect((await auditRows(server, 'holdings', a.id)).at(-1)).toMatchObject({ action: 'holding.bulk_delete', actor_email: 'admin@pecflow.fr' });
  });

  it('bulk-update applies one change to every item, or none when one is invalid', async () => {
    const a = await create(valid('Maj A'));
    const b = await create(valid('Maj B'));
    const invalid = await server.request('POST', '/api/holdings/bulk-update', { token: t.admin, body: { ids: [a.id, b.id], data: { status: 'Fermé' } } });
    expectViolation(invalid, 'status', `Élément ${a.id} : Statut invalide`);
    const missing = await server.request('POST', '/api/holdings/bulk-update', {
      token: t.admin,
      body: { ids: [a.id, 99999999], data: { status: 'Inactive' } },
    });
    expectProblem(missing, 404);
    expect((await listAll(server, t.admin, 'holdings', `id[]=${a.id}&id[]=${b.id}`)).map((h) => h.status)).toEqual(['Active', 'Active']);

    const done = await server.request('POST', '/api/holdings/bulk-update', { token: t.admin, body: { ids: [a.id, b.id], data: { status: 'Inactive' } } });
    expect(done.status).toBe(200);
    expect(done.body.count).toBe(2);
    expect((await listAll(server, t.admin, 'holdings', `id[]=${a.id}&id[]=${b.id}`)).map((h) => h.status)).toEqual(['Inactive', 'Inactive']);
    expect((await auditRows(server, 'holdings', b.id)).at(-1)).toMatchObject({
      action: 'holding.bulk_update',
      changes: { status: { before: 'Active', after: 'Inactive' } },
    });
  });

  it('validates the batch itself', async () => {
    expectViolation(
      await server.request('POST', '/api/holdings/bulk-delete', { token: t.admin, body: { ids: [] } }),
      'ids',
      'Sélectionnez au moins un élément.',
    );
    expectViolation(
      await server.request('POST', '/api/holdings/bulk-delete', { token: t.admin, body: { ids: ['/api/companies/1'] } }),
      'ids',
      'Identifiant invalide dans la sélection.',
    );
    expectViolation(
      await server.request('POST', '/api/holdings/bulk-update', { token: t.admin, body: { ids: [1] } }),
      'data',
      'Les données à appliquer sont requises.',
    );
    expectViolation(
      await server.request('POST', '/api/holdings/bulk-delete', { token: t.admin, body: { ids: Array.from({ length: 501 }, (_, i) => i + 1) } }),
      'ids',
      'Au plus 500 éléments à la fois.',
    );
  });

  it('refuses bulk actions to a user without the permission, before reading anything', async () => {
    await expectForbidden(server, t.horizonAdmin, 'POST', '/api/holdings/bulk-delete', { ids: [org.horizon] });
    await expectForbidden(server, t.audio, 'POST', '/api/holdings/bulk-update', { ids: [org.horizon], data: { status: 'Inactive' } });
  });
});
