// Réseaux (/api/networks): unique code of at most 20 characters, one default network at a time (set in the same
// transaction), activeMutualsCount read-only, deletion refused while mutuals are attached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import {
  auditRows,
  checkDateRange,
  checkFilter,
  checkManyByIri,
  checkPaginationAndSort,
  expectForbidden,
  expectProblem,
  expectViolation,
  idWhere,
  listAll,
  loginAll,
  mergePatch,
  sqlRows,
  type Tokens,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;

async function createNetwork(body: Record<string, unknown>) {
  const res = await server.request('POST', '/api/networks', { token: t.admin, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const defaults = async () => (await sqlRows<{ id: number }>(server, 'select id from networks where is_default order by id')).map((r) => Number(r.id));

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio']);
});
afterAll(() => server?.close());

describe('GET /api/networks', () => {
  it('pages, sorts, filters and searches in both conventions', async () => {
    await createNetwork({ name: 'Réseau Inactif', code: 'INACTIF', status: 'Inactive' });
    await checkPaginationAndSort(server, t.admin, 'networks', 'name');
    await checkPaginationAndSort(server, t.admin, 'networks', 'code');
    await checkFilter(server, t.admin, 'networks', 'status', (n) => n.status);
    await checkFilter(server, t.admin, 'networks', 'isDefault', (n) => String(n.isDefault));
    await checkFilter(server, t.admin, 'networks', 'code', (n) => n.code);
    await checkManyByIri(server, t.admin, 'networks');
    await checkDateRange(server, t.admin, 'networks', 'networks', await idWhere(server, 'networks', 'code', 'KALIXIA'));
    expect((await listAll(server, t.admin, 'networks', 'search=seveane')).map((n) => n.name)).toEqual(['Sévéane']);
  });

  it('counts the active mutuals of each network', async () => {
    const [itelis] = await listAll(server, t.audio, 'networks', 'code=ITELIS');
    expect(itelis).toMatchObject({ '@type': 'Network', name: 'Itelis', activeMutualsCount: 6 });
    await sqlRows(server, "update mutuals set status = 'Inactive' where name = 'AXA'");
    expect((await listAll(server, t.audio, 'networks', 'code=ITELIS'))[0].activeMutualsCount).toBe(5);
  });

  it('is readable by every signed-in user, with holdingId ignored (spec: GET /api/networks with holdingId)', async () => {
    const res = await server.request('GET', '/api/networks?holdingId=1', { token: t.audio });
    expect(res.status).toBe(200);
    expect(res.body.totalItems).toBeGreaterThanOrEqual(5);
  });
});

describe('writing networks', () => {
  it('keeps one default network: marking one unmarks the others in the same transaction', async () => {
    expect(await defaults()).toEqual([await idWhere(server, 'networks', 'code', 'SANTECLAIR')]);
    const created = await createNetwork({ name: 'Réseau Principal', code: 'PRINC', isDefault: true });
    expect(created.isDefault).toBe(true);
    expect(await defaults()).toEqual([created.id]);
    const kalixia = await idWhere(server, 'networks', 'code', 'KALIXIA');
    const patched = await server.request('PATCH', `/api/networks/${kalixia}`, { token: t.admin, body: { isDefault: true }, headers: mergePatch });
    expect(patched.body.isDefault).toBe(true);
    expect(await defaults()).toEqual([kalixia]);
    // Unmarking the default leaves none (nothing is marked behind the user's back).
    await server.request('PATCH', `/api/networks/${kalixia}`, { token: t.admin, body: { isDefault: false }, headers: mergePatch });
    expect(await defaults()).toEqual([]);
  });

  it('refuses a code already used (whatever its case) or longer than 20 characters, and a short name', async () => {
    expectViolation(
      await server.request('POST', '/api/networks', { token: t.admin, body: { name: 'Doublon', code: 'itelis' } }),
      'code',
      'Ce code est déjà utilisé par un autre réseau',
    );
    const res = await server.request('POST', '/api/networks', { token: t.admin, body: { name: 'R', code: 'X'.repeat(21), isDefault: 'oui' } });
    expectViolation(res, 'name', 'Le nom du réseau est requis (min. 2 caractères)');
    expectViolation(res, 'code', 'Le code ne peut pas dépasser 20 caractères');
    expectViolation(res, 'isDefault', 'Valeur oui/non attendue');
    // A network keeps its own code on update; several networks may have none.
    const itelis = await idWhere(server, 'networks', 'code', 'ITELIS');
    expect(
      (await server.request('PATCH', `/api/networks/${itelis}`, { token: t.admin, body: { code: 'ITELIS', description: 'AXA' }, headers: mergePatch })).status,
    ).toBe(200);
    await createNetwork({ name: 'Sans code 1' });
    await createNetwork({ name: 'Sans code 2', code: '' });
  });

  it('ignores activeMutualsCount in bodies (read-only)', async () => {
    const created = await createNetwork({ name: 'Réseau Calculé', activeMutualsCount: 99 });
    expect(created.activeMutualsCount).toBe(0);
  });

  it('refuses deletion while mutuals are attached, deletes an empty network and audits it', async () => {
    const carteBlanche = await idWhere(server, 'networks', 'code', 'CARTEBLANCHE');
    expectProblem(
      await server.request('DELETE', `/api/networks/${carteBlanche}`, { token: t.admin }),
      409,
      'Impossible de supprimer : 6 mutuelles sont rattachées à ce réseau.',
    );
    const empty = await createNetwork({ name: 'Réseau Vide', code: 'VIDE' });
    expect((await server.request('DELETE', `/api/networks/${empty.id}`, { token: t.admin })).status).toBe(204);
    const rows = await auditRows(server, 'networks', empty.id);
    expect(rows.map((r) => r.action)).toEqual(['network.create', 'network.delete']);
    expect(rows[1]!.changes.code).toEqual({ before: 'VIDE', after: null });
    // The default network is kept until another one is the default.
    const current = await createNetwork({ name: 'Réseau Défaut', code: 'DEFAUT', isDefault: true });
    expectProblem(
      await server.request('DELETE', `/api/networks/${current.id}`, { token: t.admin }),
      409,
      'Impossible de supprimer le réseau par défaut : désignez d’abord un autre réseau par défaut.',
    );
    expect(await defaults()).toEqual([current.id]);
    await server.request('PATCH', `/api/networks/${current.id}`, { token: t.admin, body: { isDefault: false }, headers: mergePatch });
    expect((await server.request('DELETE', `/api/networks/${current.id}`, { token: t.admin })).status).toBe(204);
  });

  it('PUT replaces: description and default flag go back to their defaults', async () => {
    const created = await createNetwork({ name: 'Réseau Complet', code: 'COMPLET', description: 'Texte', isDefault: true });
    const put = await server.request('PUT', `/api/networks/${created.id}`, { token: t.admin, body: { name: 'Réseau Complet', code: 'COMPLET' } });
    expect(put.body).toMatchObject({ description: null, isDefault: false, status: 'Active' });
  });

  it('bulk-update applies to every network or none', async () => {
    const a = await createNetwork({ name: 'Lot A', code: 'LOTA' });
    const b = await createNetwork({ name: 'Lot B', code: 'LOTB' });
    expectViolation(
      await server.request('POST', '/api/networks/bulk-update', { token: t.admin, body: { ids: [a.id, b.id], data: { code: 'LOTA' } } }),
      'code',
      `Élément ${b.id} : Ce code est déjà utilisé par un autre réseau`,
    );
    expect((await listAll(server, t.admin, 'networks', `id[]=${a.id}&id[]=${b.id}`)).map((n) => n.code)).toEqual(['LOTA', 'LOTB']);
    const done = await server.request('POST', '/api/networks/bulk-update', { token: t.admin, body: { ids: [a.id, b.id], data: { status: 'Inactive' } } });
    expect(done.body.count).toBe(2);
  });

  it('is written only with settings.mutuelles.*', async () => {
    const itelis = await idWhere(server, 'networks', 'code', 'ITELIS');
    await expectForbidden(server, t.horizonAdmin, 'POST', '/api/networks', { name: 'Pirate' });
    await expectForbidden(server, t.horizonAdmin, 'PATCH', `/api/networks/${itelis}`, { isDefault: true });
    await expectForbidden(server, t.audio, 'DELETE', `/api/networks/${itelis}`);
    await expectForbidden(server, t.audio, 'POST', '/api/networks/bulk-update', { ids: [itelis], data: { status: 'Inactive' } });
  });
});
