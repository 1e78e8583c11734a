// Identifiants (/api/credential_software): password, apiKey and apiSecret encrypted at rest with AES-256-GCM and never
// returned (hasPassword, hasApiKey, hasApiSecret instead), masked in the audit; organisation from the software;
// unpaginated list; soft delete that also takes the credential away from the centres using it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../server/crypto';
import { TEST_APP_SECRET_KEY } from './helpers/databases';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
import {
  auditRows,
  checkDateRange,
  checkFilter,
  checkManyByIri,
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
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };
let auditdata: number;
let optimum: number;
const box = new SecretBox(TEST_APP_SECRET_KEY);

const credential = (login: string, extra: Record<string, unknown> = {}) => ({
  login,
  password: 'MotDePasseRobot!',
  loginPage: 'https://manage.auditdata.example/login',
  status: 'Active',
  contextType: 'general',
  contextName: null,
  software: `/api/software/${auditdata}`,
  environment: 'production',
  apiKey: 'cle-api-123456',
  apiSecret: 'secret-api-abcdef',
  displayIdentifier: 'Compte de test',
  ...extra,
});

async function createCredential(login: string, extra: Record<string, unknown> = {}, token = t.horizonAdmin) {
  const res = await server.request('POST', '/api/credential_software', { token, body: credential(login, extra) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const raw = async (id: number) =>
  (
    await sqlRows<{ password_enc: string | null; api_key_enc: string | null; api_secret_enc: string | null; holding_id: number }>(
      server,
      'select password_enc, api_key_enc, api_secret_enc, holding_id from credential_software where id = $1',
      [id],
    )
  )[0]!;

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'lecture', 'rivieraAdmin']);
  org = await holdingIds(server);
  auditdata = await idWhere(server, 'software', 'label', 'Auditdata Manage');
  optimum = await idWhere(server, 'software', 'label', 'Optimum Opticien');
});
afterAll(() => server?.close());

describe('secrets', () => {
  it('stores password, apiKey and apiSecret encrypted (AES-256-GCM) and never returns them', async () => {
    const created = await createCredential('robot.secret');
    expect(created).toMatchObject({ hasPassword: true, hasApiKey: true, hasApiSecret: true, login: 'robot.secret' });
    for (const key of ['password', 'apiKey', 'apiSecret', 'passwordEnc', 'apiKeyEnc', 'apiSecretEnc']) expect(created).not.toHaveProperty(key);

    const row = await raw(created.id);
    expect(row.password_enc).toMatch(/^v1:/);
    expect(row.password_enc).not.toContain('MotDePasseRobot!');
    expect(box.decrypt(row.password_enc!)).toBe('MotDePasseRobot!');
    expect(box.decrypt(row.api_key_enc!)).toBe('cle-api-123456');
    expect(box.decrypt(row.api_secret_enc!)).toBe('secret-api-abcdef');
    // Two encryptions of one value differ (random IV).
    const twin = await createCredential('robot.jumeau');
    expect((await raw(twin.id)).password_enc).not.toBe(row.password_enc);

    const everywhere = JSON.stringify([
      (await server.request('GET', `/api/credential_software/${created.id}`, { token: t.horizonAdmin })).body,
      await listAll(server, t.horizonAdmin, 'credential_software'),
      await listAll(server, t.horizonAdmin, 'audit_logs'),
      (await server.request('GET', `/api/credential_software?search=robot.secret`, { token: t.admin })).body,
    ]);
    for (const secret of ['MotDePasseRobot!', 'cle-api-123456', 'secret-api-abcdef', 'v1:']) expect(everywhere).not.toContain(secret);
  });

  it('masks secrets in the audit: set on create, rewritten on update, never their value', async () => {
    const created = await createCredential('robot.audit');
    await server.request('PATCH', `/api/credential_software/${created.id}`, {
      token: t.horizonAdmin,
      body: { password: 'NouveauSecret', contextName: 'Paris' },
      headers: mergePatch,
    });
    const rows = await auditRows(server, 'credential_software', created.id);
    expect(rows.map((r) => r.action)).toEqual(['credential.create', 'credential.update']);
    expect(rows[0]!.changes).toMatchObject({
      password: { before: null, after: '••••••' },
      apiKey: { before: null, after: '••••••' },
      login: { before: null, after: 'robot.audit' },
    });
    expect(rows[1]!.changes).toEqual({ password: { before: '••••••', after: '••••••' }, contextName: { before: null, after: 'Paris' } });
    // A secret given to a credential that held none: nothing was there before, the trail does not say it was replaced.
    const bare = await createCredential('robot.sans-api', { apiKey: null, apiSecret: null });
    await server.request('PATCH', `/api/credential_software/${bare.id}`, {
      token: t.horizonAdmin,
      body: { apiKey: 'K-1', apiSecret: 'S-1' },
      headers: mergePatch,
    });
    expect((await auditRows(server, 'credential_software', bare.id))[1]!.changes).toEqual({
      apiKey: { before: null, after: '••••••' },
      apiSecret: { before: null, after: '••••••' },
    });
    const text = JSON.stringify(await sqlRows(server, 'select changes from audit_logs'));
    for (const secret of ['NouveauSecret', 'MotDePasseRobot!', 'cle-api-123456', 'v1:']) expect(text).not.toContain(secret);
  });

  it('keeps a secret left empty or absent, replaces one given again', async () => {
    const created = await createCredential('robot.garde');
    const before = await raw(created.id);
    const put = await server.request('PUT', `/api/credential_software/${created.id}`, {
      token: t.horizonAdmin,
      body: credential('robot.garde', { password: '', apiKey: null, apiSecret: undefined, contextName: 'Lyon' }),
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ hasPassword: true, hasApiKey: true, hasApiSecret: true, contextName: 'Lyon' });
    expect(await raw(created.id)).toEqual(before);
    await server.request('PATCH', `/api/credential_software/${created.id}`, { token: t.horizonAdmin, body: { apiSecret: 'tout-neuf' }, headers: mergePatch });
    const after = await raw(created.id);
    expect(after.password_enc).toBe(before.password_enc);
    expect(box.decrypt(after.api_secret_enc!)).toBe('tout-neuf');
    // A credential without any secret says so.
    const bare = await createCredential('robot.nu', { password: undefined, apiKey: '', apiSecret: null });
    expect(bare).toMatchObject({ hasPassword: false, hasApiKey: false, hasApiSecret: false });
  });
});

describe('GET /api/credential_software', () => {
  it('is one unpaginated list, filtered, sorted and searched', async () => {
    await createCredential('robot.test', { environment: 'test', contextType: 'network', contextName: 'Itelis', status: 'Inactive' });
    const res = await server.request('GET', '/api/credential_software?itemsPerPage=1&page=2', { token: t.admin });
    expect(res.body.view).toBeUndefined();
    expect(res.body.member.length).toBe(res.body.totalItems);
    expect(res.body.totalItems).toBeGreaterThan(7);
    for (const [key, read] of [
      ['status', (c: JsonBody) => c.status],
      ['software', (c: JsonBody) => c.software['@id']],
      ['holding', (c: JsonBody) => c.holding['@id']],
      ['contextType', (c: JsonBody) => c.contextType],
      ['environment', (c: JsonBody) => c.environment],
    ] as const) {
      await checkFilter(server, t.admin, 'credential_software', key, read);
    }
    await checkManyByIri(server, t.admin, 'credential_software');
    await checkDateRange(server, t.admin, 'credential_software', 'credential_software', (await listAll(server, t.admin, 'credential_software'))[0].id);
    const asc = ids(await listAll(server, t.admin, 'credential_software', 'order[login]=asc'));
    expect(ids(await listAll(server, t.admin, 'credential_software', 'sort=-login'))).toEqual([...asc].reverse());
    expect((await listAll(server, t.admin, 'credential_software', 'search=ROBOT.RIVIERA')).every((c) => c.login.startsWith('robot.riviera'))).toBe(true);
  });

  it('shows the software and organisation embedded; each organisation sees only its own', async () => {
    const horizon = await listAll(server, t.horizonAdmin, 'credential_software');
    expect(horizon.every((c) => c.holding.id === org.horizon)).toBe(true);
    const portal = horizon.find((c) => c.contextName === 'Santéclair');
    expect(portal).toMatchObject({
      contextType: 'network',
      environment: 'production',
      software: { label: 'Portail Santéclair', type: 'network' },
      holding: { name: 'Audition Horizon' },
    });
    expect((await listAll(server, t.rivieraAdmin, 'credential_software')).every((c) => c.holding.id === org.riviera)).toBe(true);
  });

  it('is refused without settings.credentials.view', async () => {
    await expectForbidden(server, t.audio, 'GET', '/api/credential_software');
    await expectForbidden(server, t.lecture, 'GET', '/api/credential_software');
  });
});

describe('writing credentials', () => {
  it('answers each invalid field with its French message (spec section 5)', async () => {
    const res = await server.request('POST', '/api/credential_software', {
      token: t.horizonAdmin,
      body: { login: ' a ', password: 'abc', loginPage: 'pas-une-url', software: 0, contextType: 'autre', environment: 'prod', apiKey: 'k'.repeat(256) },
    });
    expectViolation(res, 'login', 'L’identifiant doit contenir au moins 2 caractères');
    expectViolation(res, 'password', 'Le mot de passe doit contenir au moins 4 caractères');
    expectViolation(res, 'loginPage', 'L’URL de connexion doit être valide');
    expectViolation(res, 'software', 'Un logiciel doit être sélectionné');
    expectViolation(res, 'contextType', 'Contexte invalide : general, mutual ou network');
    expectViolation(res, 'environment', 'Environnement invalide : production ou test');
    expectViolation(res, 'apiKey', 'Ce secret ne peut pas dépasser 255 caractères');
    const missing = await server.request('POST', '/api/credential_software', { token: t.horizonAdmin, body: { login: 'l'.repeat(256), loginPage: '' } });
    expectViolation(missing, 'login', 'L’identifiant ne peut pas dépasser 255 caractères');
    expectViolation(missing, 'loginPage', 'La page de connexion est requise');
    expectViolation(missing, 'software', 'Un logiciel doit être sélectionné');
    expectViolation(
      await server.request('POST', '/api/credential_software', { token: t.horizonAdmin, body: credential('robot.js', { loginPage: 'javascript:alert(1)' }) }),
      'loginPage',
      'L’URL de connexion doit être valide',
    );
  });

  it('defaults contextType to general, environment to production and status to Active', async () => {
    const res = await server.request('POST', '/api/credential_software', {
      token: t.horizonAdmin,
      body: { login: 'robot.defaut', loginPage: 'https://x.exemple.fr/login', software: auditdata },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ contextType: 'general', environment: 'production', status: 'Active', hasPassword: false });
  });

  it("takes its organisation from its software, and refuses another organisation's software", async () => {
    const created = await createCredential('robot.orga', { holding: `/api/holdings/${org.riviera}` });
    expect(created.holding.id).toBe(org.horizon);
    expect((await raw(created.id)).holding_id).toBe(org.horizon);
    expectViolation(
      await server.request('POST', '/api/credential_software', {
        token: t.horizonAdmin,
        body: credential('robot.vol', { software: `/api/software/${optimum}` }),
      }),
      'software',
      'Logiciel introuvable ou hors de votre périmètre.',
    );
    expectViolation(
      await server.request('POST', '/api/credential_software', { token: t.horizonAdmin, body: credential('robot.vide', { software: '/api/software/99999' }) }),
      'software',
      'Logiciel introuvable ou hors de votre périmètre.',
    );
    // A platform administrator creates it in the software's organisation.
    const platform = await createCredential('robot.plateforme', { software: `/api/software/${optimum}` }, t.admin);
    expect(platform.holding.id).toBe(org.riviera);
  });

  it("hides Audition Horizon's credentials from Optique Riviera for every verb", async () => {
    const target = await createCredential('robot.cache');
    await expectHiddenForEveryVerb(server, t.rivieraAdmin, 'credential_software', target.id, credential('capture', { software: `/api/software/${optimum}` }), {
      table: 'credential_software',
      archive: true,
    });
  });

  it('archives on DELETE: gone from lists and from the centres that used it, kept in the table', async () => {
    const target = await createCredential('robot.archive', { software: `/api/software/${await idWhere(server, 'software', 'label', 'Portail Itelis')}` });
    const shop = await idWhere(server, 'shops', 'name', 'Horizon Versailles');
    const current = (await server.request('GET', `/api/shops/${shop}`, { token: t.horizonAdmin })).body.credentials as string[];
    const withoutItelis = [];
    for (const iri of current) {
      const c = (await server.request('GET', iri, { token: t.horizonAdmin })).body;
      if (c.software.label !== 'Portail Itelis') withoutItelis.push(iri);
    }
    const linked = await server.request('PATCH', `/api/shops/${shop}`, {
      token: t.horizonAdmin,
      body: { credentials: [...withoutItelis, target['@id']] },
      headers: mergePatch,
    });
    expect(linked.status, linked.text).toBe(200);
    expect((await server.request('DELETE', `/api/credential_software/${target.id}`, { token: t.horizonAdmin })).status).toBe(204);
    expectProblem(await server.request('GET', `/api/credential_software/${target.id}`, { token: t.horizonAdmin }), 404);
    expect(ids(await listAll(server, t.horizonAdmin, 'credential_software'))).not.toContain(target.id);
    expect((await server.request('GET', `/api/shops/${shop}`, { token: t.horizonAdmin })).body.credentials).not.toContain(target['@id']);
    expect((await raw(target.id)).password_enc).toMatch(/^v1:/);
    expect((await auditRows(server, 'credential_software', target.id)).at(-1)).toMatchObject({ action: 'credential.archive' });
  });

  it('refuses to move a credential used by centres to another organisation', async () => {
    const used = Number((await sqlRows(server, 'select credential_id from shop_credentials order by credential_id limit 1'))[0]!.credential_id);
    const [row] = await sqlRows(server, 'select holding_id from credential_software where id = $1', [used]);
    const otherSoftware = Number(row!.holding_id) === org.horizon ? optimum : auditdata;
    const res = await server.request('PATCH', `/api/credential_software/${used}`, {
      token: t.admin,
      body: { software: `/api/software/${otherSoftware}` },
      headers: mergePatch,
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.violations[0]).toMatchObject({
      propertyPath: 'software',
      message: expect.stringMatching(/^Impossible de changer l’organisation : \d+ centres? utilisen?t? cet identifiant\.$/),
    });
  });

  it('enforces settings.credentials.create / edit / delete', async () => {
    const target = await createCredential('robot.droits');
    await expectForbidden(server, t.lecture, 'POST', '/api/credential_software', credential('robot.refus'));
    await expectForbidden(server, t.audio, 'PATCH', `/api/credential_software/${target.id}`, { login: 'robot.refus' });
    await expectForbidden(server, t.audio, 'DELETE', `/api/credential_software/${target.id}`);
    await expectForbidden(server, t.audio, 'PATCH', `/api/credential_software/${target.id}/archive`);
  });

  it('bulk-update and bulk-delete are all or nothing', async () => {
    const a = await createCredential('robot.lot.a');
    const b = await createCredential('robot.lot.b');
    expectViolation(
      await server.request('POST', '/api/credential_software/bulk-update', {
        token: t.horizonAdmin,
        body: { ids: [a.id, b.id], data: { environment: 'recette' } },
      }),
      'environment',
      `Élément ${a.id} : Environnement invalide : production ou test`,
    );
    const done = await server.request('POST', '/api/credential_software/bulk-update', {
      token: t.horizonAdmin,
      body: { ids: [a.id, b.id], data: { environment: 'test' } },
    });
    expect(done.body.count).toBe(2);
    expect((await listAll(server, t.horizonAdmin, 'credential_software', `id[]=${a.id}&id[]=${b.id}`)).map((c) => c.environment)).toEqual(['test', 'test']);
    // Secrets are untouched by a bulk update that does not name them.
    expect(box.decrypt((await raw(a.id)).password_enc!)).toBe('MotDePasseRobot!');
  });
});
