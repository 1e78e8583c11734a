// Entreprises (/api/companies): the holding reference in and out as an IRI, organisation confinement, deletion refused
// while centres are attached, list conventions, validation, bulk actions and audit.
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
  idWhere,
  ids,
  listAll,
  loginAll,
  mergePatch,
  userId,
  type Tokens,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };
let idf: number; // Horizon Audition Île-de-France, 3 centres

const body = (name: string, holding: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  registrationNumber: '812345700',
  vatNumber: 'FR00812345700',
  holding,
  street: '2 rue des Lilas',
  postalCode: '75019',
  city: 'Paris',
  country: 'France',
  status: 'Active',
  ...extra,
});

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'lecture', 'rivieraAdmin']);
  org = await holdingIds(server);
  idf = await idWhere(server, 'companies', 'name', 'Horizon Audition Île-de-France');
});
afterAll(() => server?.close());

describe('GET /api/companies', () => {
  it('pages, sorts, filters, searches in both conventions', async () => {
    await server.request('POST', '/api/companies', {
      token: t.admin,
      body: body('Horizon Audition Ouest', `/api/holdings/${org.horizon}`, { status: 'Inactive', city: 'Nantes' }),
    });
    await checkPaginationAndSort(server, t.admin, 'companies', 'name');
    await checkPaginationAndSort(server, t.admin, 'companies', 'city');
    await checkFilter(server, t.admin, 'companies', 'status', (c) => c.status);
    await checkFilter(server, t.admin, 'companies', 'holding', (c) => c.holding['@id']);
    await checkFilter(server, t.admin, 'companies', 'name', (c) => c.name);
    await checkManyByIri(server, t.admin, 'companies');
    await checkDateRange(server, t.admin, 'companies', 'companies', idf);
  });

  it('filters on the organisation by IRI, by holdingId and by holding[]', async () => {
    const byIri = await listAll(server, t.admin, 'companies', `holding=/api/holdings/${org.riviera}`);
    const byId = await listAll(server, t.admin, 'companies', `holdingId=${org.riviera}`);
    expect(byIri.map((c) => c.name)).toEqual(['Riviera Vision']);
    expect(ids(byId)).toEqual(ids(byIri));
  });

  it('searches name, SIREN and city without case or accents', async () => {
    expect((await listAll(server, t.admin, 'companies', 'search=ile-de-FRANCE')).map((c) => c.name)).toEqual(['Horizon Audition Île-de-France']);
    expect((await listAll(server, t.admin, 'companies', 'search=812345694')).map((c) => c.name)).toEqual(['Horizon Audition Rhône']);
  });

  it('embeds the organisation {@id, id, name} in each item', async () => {
    const [company] = await listAll(server, t.admin, 'companies', `id=${idf}`);
    expect(company.holding).toEqual({ '@id': `/api/holdings/${org.horizon}`, '@type': 'Holding', id: org.horizon, name: 'Audition Horizon' });
  });

  it('confines each organisation to its own companies', async () => {
    const horizon = await listAll(server, t.horizonAdmin, 'companies');
    expect(horizon.length).toBeGreaterThanOrEqual(2);
    expect(horizon.every((c) => c.holding.id === org.horizon)).toBe(true);
    expect((await listAll(server, t.rivieraAdmin, 'companies')).map((c) => c.name)).toEqual(['Riviera Vision']);
    // Asking for the other organisation's companies by filter gives nothing.
    expect(await listAll(server, t.rivieraAdmin, 'companies', `holding=${org.horizon}`)).toEqual([]);
  });

  it('refuses the list without settings.companies.view', async () => {
    await expectForbidden(server, t.audio, 'GET', '/api/companies');
    await expectForbidden(server, t.lecture, 'GET', `/api/companies/${idf}`);
  });
});

describe('POST /api/companies', () => {
  it('creates within the caller organisation, the holding given as IRI or as holdingId', async () => {
    const viaIri = await server.request('POST', '/api/companies', {
      token: t.horizonAdmin,
      body: body('Horizon Audition Nord', `/api/holdings/${org.horizon}`),
    });
    expect(viaIri.status, viaIri.text).toBe(201);
    expect(viaIri.body.holding['@id']).toBe(`/api/holdings/${org.horizon}`);
    const { holding: _h, ...rest } = body('Horizon Audition Est', null);
    const viaId = await server.request('POST', '/api/companies', { token: t.horizonAdmin, body: { ...rest, holdingId: org.horizon } });
    expect(viaId.status, viaId.text).toBe(201);
    expect(viaId.body.holding.id).toBe(org.horizon);

    const [row] = await auditRows(server, 'companies', viaIri.body.id);
    expect(row).toMatchObject({ action: 'company.create', actor_id: await userId(server, 'horizonAdmin'), holding_id: org.horizon });
    expect(row!.changes.holding).toEqual({ before: null, after: org.horizon });
  });

  it('refuses with 422 a company in another organisation', async () => {
    const res = await server.request('POST', '/api/companies', { token: t.rivieraAdmin, body: body('Riviera Pirate', `/api/holdings/${org.horizon}`) });
    expectViolation(res, 'holding', 'Organisation introuvable ou hors de votre périmètre.');
    expect(await listAll(server, t.admin, 'companies', 'name=Riviera Pirate')).toEqual([]);
  });

  it('answers each invalid field with its French message', async () => {
    const res = await server.request('POST', '/api/companies', {
      token: t.admin,
      body: { name: 'X', registrationNumber: '1', country: '', holding: 'pas-une-iri' },
    });
    expectViolation(res, 'name', 'Nom requis');
    expectViolation(res, 'registrationNumber', 'SIREN requis');
    expectViolation(res, 'country', 'Pays requis');
    expectViolation(res, 'holding', 'Organisation requise');
    expectViolation(
      await server.request('POST', '/api/companies', { token: t.admin, body: body('Sans organisation', undefined) }),
      'holding',
      'Organisation requise',
    );
    // An IRI of another collection is no organisation.
    expectViolation(
      await server.request('POST', '/api/companies', { token: t.admin, body: body('Mauvaise IRI', `/api/shops/${org.horizon}`) }),
      'holding',
      'Organisation requise',
    );
    // An organisation that does not exist.
    expectViolation(
      await server.request('POST', '/api/companies', { token: t.admin, body: body('Fantôme', '/api/holdings/999999') }),
      'holding',
      'Organisation introuvable ou hors de votre périmètre.',
    );
  });

  it('is refused without settings.companies.create', async () => {
    await expectForbidden(server, t.audio, 'POST', '/api/companies', body('Interdite', `/api/holdings/${org.horizon}`));
  });
});

describe('PUT, PATCH and DELETE /api/companies/{id}', () => {
  it('PATCH changes the named fields; PUT replaces the others with their defaults', async () => {
    const created = (
      await server.request('POST', '/api/companies', { token: t.horizonAdmin, body: body('Horizon Centre-Val', `/api/holdings/${org.horizon}`) })
    ).body;
    const patched = await server.request('PATCH', `/api/companies/${created.id}`, { token: t.horizonAdmin, body: { city: 'Tours' }, headers: mergePatch });
    expect(patched.body).toMatchObject({ city: 'Tours', street: '2 rue des Lilas', vatNumber: 'FR00812345700' });
    const put = await server.request('PUT', `/api/companies/${created.id}`, {
      token: t.horizonAdmin,
      body: { name: 'Horizon Centre', registrationNumber: '812345700', country: 'France', holding: `/api/holdings/${org.horizon}` },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ name: 'Horizon Centre', city: null, street: null, vatNumber: null, status: 'Active' });
  });

  it('refuses to move a company to another organisation by a member, and one with centres by anyone', async () => {
    expectViolation(
      await server.request('PATCH', `/api/companies/${idf}`, { token: t.horizonAdmin, body: { holding: `/api/holdings/${org.riviera}` }, headers: mergePatch }),
      'holding',
      'Organisation introuvable ou hors de votre périmètre.',
    );
    expectViolation(
      await server.request('PATCH', `/api/companies/${idf}`, { token: t.admin, body: { holding: `/api/holdings/${org.riviera}` }, headers: mergePatch }),
      'holding',
      'Impossible de changer l’organisation : 3 centres sont rattachés à cette entreprise.',
    );
    // A company without centres may be moved by a platform administrator.
    const empty = (await server.request('POST', '/api/companies', { token: t.admin, body: body('Coquille vide', `/api/holdings/${org.horizon}`) })).body;
    const moved = await server.request('PATCH', `/api/companies/${empty.id}`, {
      token: t.admin,
      body: { holding: `/api/holdings/${org.riviera}` },
      headers: mergePatch,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.holding.name).toBe('Optique Riviera');
  });

  it('hides Audition Horizon companies from Optique Riviera for every verb', async () => {
    await expectHiddenForEveryVerb(server, t.rivieraAdmin, 'companies', idf, body('Capture', `/api/holdings/${org.riviera}`), { table: 'companies' });
  });

  it('refuses deletion while centres are attached, then deletes and audits', async () => {
    expectProblem(
      await server.request('DELETE', `/api/companies/${idf}`, { token: t.horizonAdmin }),
      409,
      'Impossible de supprimer : 3 centres sont rattachés à cette entreprise.',
    );
    const rhone = await idWhere(server, 'companies', 'name', 'Horizon Audition Rhône');
    expectProblem(
      await server.request('DELETE', `/api/companies/${rhone}`, { token: t.horizonAdmin }),
      409,
      'Impossible de supprimer : 2 centres sont rattachés à cette entreprise.',
    );
    const created = (await server.request('POST', '/api/companies', { token: t.horizonAdmin, body: body('À supprimer', `/api/holdings/${org.horizon}`) })).body;
    expect((await server.request('DELETE', `/api/companies/${created.id}`, { token: t.horizonAdmin })).status).toBe(204);
    expect((await auditRows(server, 'companies', created.id)).at(-1)).toMatchObject({
      action: 'company.delete',
      actor_email: 'direction@audition-horizon.fr',
      holding_id: org.horizon,
    });
  });

  it('enforces update and delete permissions', async () => {
    await expectForbidden(server, t.lecture, 'PATCH', `/api/companies/${idf}`, { city: 'Ailleurs' });
    await expectForbidden(server, t.lecture, 'PUT', `/api/companies/${idf}`, body('X', `/api/holdings/${org.horizon}`));
    await expectForbidden(server, t.audio, 'DELETE', `/api/companies/${idf}`);
  });

  it('bulk-update and bulk-delete are all or nothing', async () => {
    const a = (await server.request('POST', '/api/companies', { token: t.horizonAdmin, body: body('Lot 1', `/api/holdings/${org.horizon}`) })).body;
    const b = (await server.request('POST', '/api/companies', { token: t.horizonAdmin, body: body('Lot 2', `/api/holdings/${org.horizon}`) })).body;
    // The other organisation's company in the batch: 404, nothing changes.
    const riviera = await idWhere(server, 'companies', 'name', 'Riviera Vision');
    expectProblem(
      await server.request('POST', '/api/companies/bulk-update', { token: t.horizonAdmin, body: { ids: [a.id, riviera], data: { status: 'Inactive' } } }),
      404,
    );
    expect((await listAll(server, t.horizonAdmin, 'companies', `id[]=${a.id}&id[]=${b.id}`)).map((c) => c.status)).toEqual(['Active', 'Active']);
    expectProblem(await server.request('POST', '/api/companies/bulk-delete', { token: t.horizonAdmin, body: { ids: [a.id, idf, b.id] } }), 409);
    expect(await listAll(server, t.horizonAdmin, 'companies', `id[]=${a.id}&id[]=${b.id}`)).toHaveLength(2);
    expect((await server.request('POST', '/api/companies/bulk-delete', { token: t.horizonAdmin, body: { ids: [a.id, b.id] } })).body.count).toBe(2);
    expect(await listAll(server, t.horizonAdmin, 'companies', `id[]=${a.id}&id[]=${b.id}`)).toEqual([]);
  });
});
