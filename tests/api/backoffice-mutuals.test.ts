// Mutuelles (/api/mutuals): platform reference data everyone reads, settings.mutuelles.* writes; optional network
// reference embedded {id, name}; history of versions; deletion refused while PEC files use it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
import {
  auditRows,
  checkDateRange,
  checkFilter,
  checkManyByIri,
  checkPaginationAndSort,
  expectForbidden,
  expectProblem,
  expectViolation,
  holdingIds,
  idWhere,
  ids,
  listAll,
  loginAll,
  mergePatch,
  sqlRows,
  type Tokens,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let santeclair: number;
let itelis: number;

async function createMutual(body: Record<string, unknown>) {
  const res = await server.request('POST', '/api/mutuals', { token: t.admin, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'rivieraAdmin']);
  santeclair = await idWhere(server, 'networks', 'code', 'SANTECLAIR');
  itelis = await idWhere(server, 'networks', 'code', 'ITELIS');
});
afterAll(() => server?.close());

describe('GET /api/mutuals', () => {
  it('pages, sorts, filters and searches in both conventions', async () => {
    await createMutual({ name: 'Mutuelle Inactive', code: 'INACT', status: 'Inactive' });
    await checkPaginationAndSort(server, t.admin, 'mutuals', 'name');
    await checkPaginationAndSort(server, t.admin, 'mutuals', 'code');
    await checkFilter(server, t.admin, 'mutuals', 'status', (m) => m.status);
    await checkFilter(server, t.admin, 'mutuals', 'network', (m) => m.network?.['@id']);
    await checkFilter(server, t.admin, 'mutuals', 'code', (m) => m.code);
    await checkManyByIri(server, t.admin, 'mutuals');
    await checkDateRange(server, t.admin, 'mutuals', 'mutuals', await idWhere(server, 'mutuals', 'name', 'MAAF'));
    expect((await listAll(server, t.admin, 'mutuals', 'search=AESIO')).map((m) => m.name)).toEqual(['Aésio']);
  });

  it("answers the PEC form's call: network.id with pagination=false, every mutual of the network in one list", async () => {
    const res = await server.request('GET', `/api/mutuals?network.id=${santeclair}&pagination=false`, { token: t.audio });
    expect(res.status).toBe(200);
    expect(res.body.view).toBeUndefined();
    expect(res.body.member.map((m: JsonBody) => m.name).sort()).toEqual(['Allianz', 'MAAF', 'MMA', 'Ociane', 'Smatis', 'Swiss Life']);
    expect(res.body.member.every((m: JsonBody) => m.network.name === 'Santéclair' && m.network.id === santeclair)).toBe(true);
    expect(res.body.totalItems).toBe(6);
  });

  it('is readable by every signed-in user, and by no anonymous caller', async () => {
    for (const token of [t.audio, t.horizonAdmin, t.rivieraAdmin]) expect((await listAll(server, token, 'mutuals')).length).toBeGreaterThanOrEqual(30);
    expectProblem(await server.request('GET', '/api/mutuals'), 401);
  });
});

describe('writing mutuals', () => {
  it('creates with an optional network given as IRI, networkId or nothing', async () => {
    const withIri = await createMutual({ name: 'Mutuelle des Artisans', code: 'MDA', network: `/api/networks/${itelis}` });
    expect(withIri.network).toMatchObject({ '@id': `/api/networks/${itelis}`, id: itelis, name: 'Itelis', code: 'ITELIS' });
    const withId = await createMutual({ name: 'Mutuelle du Rail', networkId: santeclair });
    expect(withId.network.id).toBe(santeclair);
    const without = await createMutual({ name: 'Mutuelle Indépendante' });
    expect(without).toMatchObject({ network: null, status: 'Active', code: null });
    const [audit] = await auditRows(server, 'mutuals', withIri.id);
    expect(audit).toMatchObject({ action: 'mutual.create', actor_email: 'admin@pecflow.fr', holding_id: null });
  });

  it('answers invalid fields in French', async () => {
    const res = await server.request('POST', '/api/mutuals', { token: t.admin, body: { name: 'M', network: 'réseau', status: 'Oui' } });
    expectViolation(res, 'name', 'Le nom de la mutuelle est requis (min. 2 caractères)');
    expectViolation(res, 'network', 'Réseau invalide');
    expectViolation(res, 'status', 'Statut invalide');
    expectViolation(
      await server.request('POST', '/api/mutuals', { token: t.admin, body: { name: 'Sans réseau réel', network: '/api/networks/99999' } }),
      'network',
      'Réseau introuvable ou hors de votre périmètre.',
    );
  });

  it('PATCH moves a mutual to another network or to none; PUT replaces', async () => {
    const created = await createMutual({ name: 'Mutuelle Mobile', code: 'MOB', network: `/api/networks/${itelis}` });
    const moved = await server.request('PATCH', `/api/mutuals/${created.id}`, {
      token: t.admin,
      body: { network: `/api/networks/${santeclair}` },
      headers: mergePatch,
    });
    expect(moved.body).toMatchObject({ code: 'MOB', network: { id: santeclair } });
    const none = await server.request('PATCH', `/api/mutuals/${created.id}`, { token: t.admin, body: { network: null }, headers: mergePatch });
    expect(none.body.network).toBeNull();
    const put = await server.request('PUT', `/api/mutuals/${created.id}`, { token: t.admin, body: { name: 'Mutuelle Fixe' } });
    expect(put.body).toMatchObject({ name: 'Mutuelle Fixe', code: null, network: null, status: 'Active' });
  });

  it('exposes its versions at /history, oldest first, with the changes of each', async () => {
    const created = await createMutual({ name: 'Mutuelle Versionnée', code: 'V1' });
    await server.request('PATCH', `/api/mutuals/${created.id}`, { token: t.admin, body: { code: 'V2' }, headers: mergePatch });
    await server.request('PATCH', `/api/mutuals/${created.id}`, { token: t.admin, body: { status: 'Inactive' }, headers: mergePatch });
    const res = await server.request('GET', `/api/mutuals/${created.id}/history`, { token: t.audio });
    expect(res.status).toBe(200);
    expect(res.body.totalItems).toBe(3);
    expect(res.body.member.map((v: JsonBody) => [v.version, v.action])).toEqual([
      [1, 'mutual.create'],
      [2, 'mutual.update'],
      [3, 'mutual.update'],
    ]);
    expect(res.body.member[1].changes).toEqual({ code: { before: 'V1', after: 'V2' } });
    // Its author is in the platform's journal: shown to the platform administrator, not to an organisation.
    expect(res.body.member[2]).toMatchObject({ actorEmail: null, changes: { status: { before: 'Active', after: 'Inactive' } } });
    expect((await server.request('GET', `/api/mutuals/${created.id}/history`, { token: t.admin })).body.member[2].actorEmail).toBe('admin@pecflow.fr');
    expectProblem(await server.request('GET', '/api/mutuals/99999/history', { token: t.admin }), 404);
  });

  it('is written only with settings.mutuelles.* (organisation administrators only read it)', async () => {
    const maaf = await idWhere(server, 'mutuals', 'name', 'MAAF');
    await expectForbidden(server, t.horizonAdmin, 'POST', '/api/mutuals', { name: 'Pirate' });
    await expectForbidden(server, t.horizonAdmin, 'PUT', `/api/mutuals/${maaf}`, { name: 'Pirate' });
    await expectForbidden(server, t.rivieraAdmin, 'PATCH', `/api/mutuals/${maaf}`, { name: 'Pirate' });
    await expectForbidden(server, t.audio, 'DELETE', `/api/mutuals/${maaf}`);
    await expectForbidden(server, t.horizonAdmin, 'POST', '/api/mutuals/bulk-delete', { ids: [maaf] });
    expect((await server.request('GET', `/api/mutuals/${maaf}`, { token: t.admin })).body.name).toBe('MAAF');
  });

  it('refuses deletion while PEC files use it; deletes otherwise; bulk is all or nothing', async () => {
    const { horizon } = await holdingIds(server);
    const shop = await idWhere(server, 'shops', 'name', 'Horizon Paris Bastille');
    const used = await createMutual({ name: 'Mutuelle Utilisée' });
    await sqlRows(server, 'insert into pec_dossiers (holding_id, shop_id, mutual_id, numero_dossier) values ($1, $2, $3, $4)', [
      horizon,
      shop,
      used.id,
      `M-${used.id}`,
    ]);
    expectProblem(
      await server.request('DELETE', `/api/mutuals/${used.id}`, { token: t.admin }),
      409,
      'Impossible de supprimer : 1 demande de PEC est rattachée à cette mutuelle.',
    );
    const free = await createMutual({ name: 'Mutuelle Libre' });
    expectProblem(await server.request('POST', '/api/mutuals/bulk-delete', { token: t.admin, body: { ids: [free.id, used.id] } }), 409);
    expect(ids(await listAll(server, t.admin, 'mutuals', `id=${free.id}`))).toEqual([free.id]);
    expect((await server.request('DELETE', `/api/mutuals/${free.id}`, { token: t.admin })).status).toBe(204);
    expect((await auditRows(server, 'mutuals', free.id)).at(-1)).toMatchObject({ action: 'mutual.delete' });
  });
});
