// Logiciels (/api/software): type general | mutual | network | medical | billing, http(s) URLs, soft delete (DELETE and
// PATCH /archive), versions, organisation confinement; settings.software.view/edit stand for read/update (spec section 6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
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
  sqlRows,
  type Tokens,
  firstSignIn,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };
let editorToken: string;

const software = (label: string, extra: Record<string, unknown> = {}) => ({
  label,
  description: 'Logiciel de test',
  type: 'general',
  vendor: 'Éditeur SAS',
  version: '1.2.3',
  apiUrl: 'https://api.exemple.fr/v1',
  documentationUrl: 'https://docs.exemple.fr',
  status: 'Active',
  ...extra,
});

async function createSoftware(label: string, extra: Record<string, unknown> = {}, token = t.horizonAdmin) {
  const res = await server.request('POST', '/api/software', { token, body: software(label, extra) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'lecture', 'rivieraAdmin']);
  org = await holdingIds(server);
  // A user who may only view and edit software (no create, no delete).
  const role = await server.request('POST', '/api/roles', {
    token: t.horizonAdmin,
    body: { name: 'Éditeur logiciels', permissions: ['settings.software.view', 'settings.software.edit'] },
  });
  const user = await server.request('POST', '/api/users', {
    token: t.horizonAdmin,
    body: {
      firstName: 'Paul',
      lastName: 'Éditeur',
      email: 'editeur@audition-horizon.fr',
      password: 'Lune-Bleue-2026!',
      holding: `/api/holdings/${org.horizon}`,
      roles: [role.body['@id']],
    },
  });
  expect(user.status, user.text).toBe(201);
  editorToken = (await firstSignIn(server, 'editeur@audition-horizon.fr', 'Lune-Bleue-2026!')).token;
});
afterAll(() => server?.close());

describe('GET /api/software', () => {
  it('pages, sorts, filters and searches in both conventions', async () => {
    await createSoftware('Logiciel Inactif', { status: 'Inactive', type: 'mutual' });
    await checkPaginationAndSort(server, t.admin, 'software', 'label');
    await checkPaginationAndSort(server, t.admin, 'software', 'vendor');
    await checkFilter(server, t.admin, 'software', 'status', (s) => s.status);
    await checkFilter(server, t.admin, 'software', 'type', (s) => s.type);
    await checkFilter(server, t.admin, 'software', 'holding', (s) => s.holding['@id']);
    await checkManyByIri(server, t.admin, 'software');
    await checkDateRange(server, t.admin, 'software', 'software', await idWhere(server, 'software', 'label', 'Auditdata Manage'));
    expect((await listAll(server, t.horizonAdmin, 'software', 'search=teletransmission')).map((s) => s.label)).toEqual(['Cosium Facturation']);
  });

  it('confines each organisation to its software, with its organisation embedded', async () => {
    const horizon = await listAll(server, t.horizonAdmin, 'software');
    expect(horizon.length).toBeGreaterThanOrEqual(4);
    expect(horizon.every((s) => s.holding.id === org.horizon && s.holding.name === 'Audition Horizon')).toBe(true);
    expect((await listAll(server, t.rivieraAdmin, 'software')).map((s) => s.label).sort()).toEqual([
      'Cosium Facturation',
      'Optimum Opticien',
      'Portail Kalixia',
    ]);
  });

  it('is refused without settings.software.view', async () => {
    await expectForbidden(server, t.audio, 'GET', '/api/software');
    await expectForbidden(server, t.lecture, 'GET', `/api/software/${await idWhere(server, 'software', 'label', 'Auditdata Manage')}`);
  });
});

describe('writing software', () => {
  it('accepts the five types and stores the caller organisation', async () => {
    for (const type of ['general', 'mutual', 'network', 'medical', 'billing']) {
      const created = await createSoftware(`Logiciel ${type}`, { type });
      expect(created).toMatchObject({ type, holding: { id: org.horizon } });
    }
    const [audit] = await auditRows(server, 'software', (await listAll(server, t.horizonAdmin, 'software', 'type=billing&search=Logiciel billing'))[0].id);
    expect(audit).toMatchObject({ action: 'software.create', holding_id: org.horizon, actor_email: 'direction@audition-horizon.fr' });
  });

  it('answers each invalid field with its French message (spec section 5)', async () => {
    const res = await server.request('POST', '/api/software', {
      token: t.horizonAdmin,
      body: {
        label: 'L',
        type: 'autre',
        vendor: 'V'.repeat(256),
        version: '9'.repeat(101),
        apiUrl: 'pas une url',
        documentationUrl: 'javascript:alert(1)',
        status: 'Actif',
      },
    });
    expectViolation(res, 'label', 'Le libellé doit contenir au moins 2 caractères');
    expectViolation(res, 'type', 'Type de logiciel requis');
    expectViolation(res, 'vendor', 'Le fournisseur ne peut pas dépasser 255 caractères');
    expectViolation(res, 'version', 'La version ne peut pas dépasser 100 caractères');
    expectViolation(res, 'apiUrl', 'L’URL de l’API doit être valide');
    expectViolation(res, 'documentationUrl', 'L’URL de documentation doit être valide');
    expectViolation(res, 'status', 'Statut invalide');
    expectViolation(
      await server.request('POST', '/api/software', { token: t.horizonAdmin, body: software('L'.repeat(256)) }),
      'label',
      'Le libellé ne peut pas dépasser 255 caractères',
    );
    expectViolation(
      await server.request('POST', '/api/software', { token: t.horizonAdmin, body: software('Sans type', { type: undefined }) }),
      'type',
      'Type de logiciel requis',
    );
    // Empty URLs are fine.
    expect(
      (await server.request('POST', '/api/software', { token: t.horizonAdmin, body: software('Sans URL', { apiUrl: '', documentationUrl: null }) })).body,
    ).toMatchObject({ apiUrl: null, documentationUrl: null });
  });

  it('needs an organisation: the caller one, or the one a platform administrator names (and keeps on a PUT)', async () => {
    expectViolation(await server.request('POST', '/api/software', { token: t.admin, body: software('Orphelin') }), 'holding', 'Organisation requise');
    const created = await createSoftware('Choisi par la plateforme', { holding: `/api/holdings/${org.riviera}` }, t.admin);
    expect(created.holding.id).toBe(org.riviera);
    // The form's PUT carries no holding: the software stays where it is.
    const put = await server.request('PUT', `/api/software/${created.id}`, { token: t.admin, body: software('Renommé par la plateforme') });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ label: 'Renommé par la plateforme', holding: { id: org.riviera } });
    expectViolation(
      await server.request('POST', '/api/software', { token: t.horizonAdmin, body: software('Ailleurs', { holding: `/api/holdings/${org.riviera}` }) }),
      'holding',
      'Organisation introuvable ou hors de votre périmètre.',
    );
  });

  it('refuses to move a software with credentials to another organisation', async () => {
    const auditdata = await idWhere(server, 'software', 'label', 'Auditdata Manage');
    expectViolation(
      await server.request('PATCH', `/api/software/${auditdata}`, { token: t.admin, body: { holding: `/api/holdings/${org.riviera}` }, headers: mergePatch }),
      'holding',
      'Impossible de changer l’organisation : 1 identifiant est rattaché à ce logiciel.',
    );
  });

  it('view and edit stand for read and update: an editor may change, not create nor delete', async () => {
    const target = await createSoftware('À éditer');
    const res = await server.request('PATCH', `/api/software/${target.id}`, { token: editorToken, body: { version: '2.0' }, headers: mergePatch });
    expect(res.status, res.text).toBe(200);
    expect(res.body.version).toBe('2.0');
    await expectForbidden(server, editorToken, 'POST', '/api/software', software('Refusé'));
    await expectForbidden(server, editorToken, 'DELETE', `/api/software/${target.id}`);
    await expectForbidden(server, editorToken, 'PATCH', `/api/software/${target.id}/archive`);
    await expectForbidden(server, t.lecture, 'PUT', `/api/software/${target.id}`, software('Refusé'));
  });
});

describe('soft delete, history and tenancy', () => {
  it('DELETE and PATCH /archive archive the software: hidden from the API, kept in the table, audited', async () => {
    const a = await createSoftware('Archivé par DELETE');
    const b = await createSoftware('Archivé par PATCH');
    expect((await server.request('DELETE', `/api/software/${a.id}`, { token: t.horizonAdmin })).status).toBe(204);
    expect(
      (
        await server.request('PATCH', `/api/software/${b.id}/archive`, {
          token: t.horizonAdmin,
          body: { _audit: { action: 'software.archive' } },
          headers: mergePatch,
        })
      ).status,
    ).toBe(204);
    for (const id of [a.id, b.id]) {
      expectProblem(await server.request('GET', `/api/software/${id}`, { token: t.horizonAdmin }), 404, 'Logiciel introuvable.');
      const [row] = await sqlRows(server, 'select deleted_at from software where id = $1', [id]);
      expect(row!.deleted_at).not.toBeNull();
      expect((await auditRows(server, 'software', id)).at(-1)).toMatchObject({ action: 'software.archive', actor_email: 'direction@audition-horizon.fr' });
    }
    expect(ids(await listAll(server, t.horizonAdmin, 'software'))).not.toContain(a.id);
    // An archived software cannot be archived again, nor receive new credentials.
    expectProblem(await server.request('DELETE', `/api/software/${a.id}`, { token: t.horizonAdmin }), 404);
    expectViolation(
      await server.request('POST', '/api/credential_software', {
        token: t.horizonAdmin,
        body: { login: 'robot', password: 'secret', loginPage: 'https://x.exemple.fr', software: a['@id'] },
      }),
      'software',
      'Logiciel introuvable ou hors de votre périmètre.',
    );
  });

  it('bulk-delete archives every software of the batch or none', async () => {
    const a = await createSoftware('Lot archivé A');
    const riviera = await idWhere(server, 'software', 'label', 'Optimum Opticien');
    expectProblem(await server.request('POST', '/api/software/bulk-delete', { token: t.horizonAdmin, body: { ids: [a.id, riviera] } }), 404);
    expect(ids(await listAll(server, t.horizonAdmin, 'software'))).toContain(a.id);
    const b = await createSoftware('Lot archivé B');
    expect((await server.request('POST', '/api/software/bulk-delete', { token: t.horizonAdmin, body: { ids: [a.id, b.id] } })).body.count).toBe(2);
    expect(ids(await listAll(server, t.horizonAdmin, 'software'))).not.toContain(b.id);
  });

  it('keeps its versions at /history', async () => {
    const created = await createSoftware('Versionné', { version: '1.0' });
    await server.request('PATCH', `/api/software/${created.id}`, { token: t.horizonAdmin, body: { version: '1.1' }, headers: mergePatch });
    const history = await server.request('GET', `/api/software/${created.id}/history`, { token: t.horizonAdmin });
    expect(history.body.member.map((v: JsonBody) => v.action)).toEqual(['software.create', 'software.update']);
    expect(history.body.member[1].changes).toEqual({ version: { before: '1.0', after: '1.1' } });
    await expectForbidden(server, t.audio, 'GET', `/api/software/${created.id}/history`);
  });

  it('hides Audition Horizon software from Optique Riviera for every verb', async () => {
    const auditdata = await idWhere(server, 'software', 'label', 'Auditdata Manage');
    await expectHiddenForEveryVerb(server, t.rivieraAdmin, 'software', auditdata, software('Capture'), { table: 'software', archive: true, history: true });
  });
});
