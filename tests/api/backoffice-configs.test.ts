// Paramètres système (/api/configs): six categories, readable by everyone, PUT {value} by settings.system.edit only,
// only editable settings and only with a value of their own type and range; the editable ones drive the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
import { auditRows, expectForbidden, expectProblem, expectViolation, listAll, loginAll, sqlRows, userId, type Tokens } from './helpers/backoffice';
import { SETTING_CATEGORIES } from '#domain/settings';

let server: TestServer;
let t: Tokens;
let settings: Record<string, JsonBody>;

const put = (key: string, value: unknown, token = t.admin) =>
  server.request('PUT', `/api/configs/${settings[key].id}`, {
    token,
    body: { value, _audit: { action: 'system.setting.update', userId: 4242, metadata: { settingId: settings[key].id } } },
  });

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio']);
  settings = Object.fromEntries((await listAll(server, t.admin, 'configs')).map((c) => [c.key, c]));
});
afterAll(() => server?.close());

describe('GET /api/configs', () => {
  it('lists settings in the six categories, each with its type and whether it may change', async () => {
    const all = Object.values(settings);
    expect(new Set(all.map((s) => s.category))).toEqual(new Set(SETTING_CATEGORIES));
    for (const setting of all) {
      expect(setting).toMatchObject({
        '@type': 'Config',
        key: expect.stringMatching(new RegExp(`^${setting.category}\\.`)),
        description: expect.any(String),
        isEditable: expect.any(Boolean),
      });
      expect(['boolean', 'number', 'string', 'array', 'object']).toContain(setting.valueType);
      const actual = Array.isArray(setting.value) ? 'array' : setting.value === null ? 'null' : typeof setting.value;
      expect(actual).toBe(setting.valueType);
    }
    expect(settings['security.access_token_ttl']).toMatchObject({ value: 3600, isEditable: true, category: 'security' });
    expect(settings['general.app_version']).toMatchObject({ value: '1.0.0', isEditable: false });
    // Each setting's rule, the one the server checks, for the screen to check it as well.
    expect(settings['security.login_max_attempts']!.rule).toMatchObject({ integer: true, min: expect.any(Number) });
    expect(settings['integrations.robot_mode']!.rule).toEqual({ choices: ['simulator', 'http'] });
    expect(settings['general.app_version']!.rule).toBeNull();
  });

  it('filters by category (GET /api/configs?category=) and is one unpaginated list', async () => {
    const res = await server.request('GET', '/api/configs?category=security&itemsPerPage=1', { token: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.view).toBeUndefined();
    expect(res.body.member.length).toBeGreaterThanOrEqual(4);
    expect(res.body.member.every((c: JsonBody) => c.category === 'security')).toBe(true);
    expect((await listAll(server, t.admin, 'configs', 'isEditable=false')).every((c) => c.isEditable === false)).toBe(true);
    expect((await listAll(server, t.admin, 'configs', 'search=jeton')).map((c) => c.key).sort()).toEqual([
      'security.access_token_ttl',
      'security.refresh_token_ttl_days',
    ]);
  });

  it('is readable by every signed-in user (platform reference data)', async () => {
    expect((await listAll(server, t.audio, 'configs')).length).toBe(Object.keys(settings).length);
    expect((await server.request('GET', `/api/configs/${settings['general.app_name'].id}`, { token: t.audio })).body.value).toBe('Pecflow');
  });
});

describe('PUT /api/configs/{id}', () => {
  it('changes an editable value and audits it with the real actor (not _audit.userId)', async () => {
    const res = await put('security.refresh_token_ttl_days', 14);
    expect(res.status, res.text).toBe(200);
    expect(res.body.value).toBe(14);
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThan(new Date(settings['security.refresh_token_ttl_days'].updatedAt).getTime());
    const [row] = (await auditRows(server, 'configs', settings['security.refresh_token_ttl_days'].id)).slice(-1);
    expect(row).toMatchObject({
      action: 'system.setting.update',
      actor_id: await userId(server, 'admin'),
      actor_email: 'admin@pecflow.fr',
      changes: { value: { before: 30, after: 14 } },
    });
  });

  it('refuses a read-only setting', async () => {
    expectViolation(await put('general.app_version', '2.0.0'), 'value', 'Ce paramètre est en lecture seule.');
    expectViolation(await put('security.password_hashing', 'md5'), 'value', 'Ce paramètre est en lecture seule.');
    expect((await server.request('GET', `/api/configs/${settings['general.app_version'].id}`, { token: t.admin })).body.value).toBe('1.0.0');
  });

  it('refuses a value of another type or outside its range, in French', async () => {
    expectViolation(await put('security.access_token_ttl', '3600'), 'value', 'Valeur invalide : un nombre est attendu.');
    expectViolation(await put('security.access_token_ttl', 10), 'value', 'Valeur trop petite : au moins 300.');
    expectViolation(await put('security.access_token_ttl', 1e9), 'value', 'Valeur trop grande : au plus 86400.');
    expectViolation(await put('security.login_max_attempts', 4.5), 'value', 'Valeur invalide : un nombre entier est attendu.');
    expectViolation(await put('integrations.robot_mode', 'manuel'), 'value', 'Valeur invalide : simulator ou http attendu.');
    expectViolation(await put('integrations.robot_url', 'ftp://robot'), 'value', 'Valeur invalide : une URL http(s) est attendue.');
    expectViolation(await put('integrations.robot_url', 42), 'value', 'Valeur invalide : un texte est attendu.');
    expectViolation(await put('integrations.robot_url', null), 'value', 'Valeur invalide : un texte est attendu.');
    expectViolation(
      await server.request('PUT', `/api/configs/${settings['integrations.robot_url'].id}`, { token: t.admin, body: {} }),
      'value',
      'Valeur requise',
    );
    // A valid URL and the other mode are accepted.
    expect((await put('integrations.robot_url', 'https://robot.exemple.fr/api')).status).toBe(200);
    expect((await put('integrations.robot_mode', 'http')).body.value).toBe('http');
  });

  it('needs settings.system.edit: an organisation administrator only reads', async () => {
    await expectForbidden(server, t.horizonAdmin, 'PUT', `/api/configs/${settings['security.access_token_ttl'].id}`, { value: 600 });
    await expectForbidden(server, t.audio, 'PATCH', `/api/configs/${settings['security.access_token_ttl'].id}`, { value: 600 });
    await expectForbidden(server, t.horizonAdmin, 'POST', '/api/configs/bulk-update', {
      ids: [settings['security.access_token_ttl'].id],
      data: { value: 600 },
    });
  });

  it('cannot be created or deleted', async () => {
    expectProblem(await server.request('POST', '/api/configs', { token: t.admin, body: { key: 'general.nouveau', value: 1 } }), 404);
    expectProblem(await server.request('DELETE', `/api/configs/${settings['general.app_name'].id}`, { token: t.admin }), 404);
    expect((await listAll(server, t.admin, 'configs')).length).toBe(Object.keys(settings).length);
  });
});

describe('editable settings drive the server', () => {
  it('security.access_token_ttl sets the lifetime of the next access tokens', async () => {
    expect((await put('security.access_token_ttl', 900)).status).toBe(200);
    const login = await server.request('POST', '/api/login_check', { body: { email: 'audio@audition-horizon.fr', password: 'Pecflow2026!' } });
    expect(login.body.expires_in).toBe(900);
    const payload = JSON.parse(Buffer.from(login.body.token.split('.')[1], 'base64url').toString());
    expect(payload.exp - payload.iat).toBe(900);
    await put('security.access_token_ttl', 3600);
  });

  it('security.login_max_attempts sets how many failures block sign-in', async () => {
    expect((await put('security.login_max_attempts', 3)).status).toBe(200);
    const attempt = (password: string) => server.request('POST', '/api/login_check', { body: { email: 'lecture@audition-horizon.fr', password } });
    for (let i = 0; i < 3; i++) expect((await attempt('mauvais')).status).toBe(401);
    expect((await attempt('Pecflow2026!')).status).toBe(429);
  });

  it('api.max_items_per_page caps what a client may ask for', async () => {
    expect((await server.request('GET', '/api/mutuals?itemsPerPage=100', { token: t.admin })).body.member.length).toBe(30);
    expect((await put('api.max_items_per_page', 25)).status).toBe(200);
    const capped = await server.request('GET', '/api/mutuals?itemsPerPage=100', { token: t.admin });
    expect(capped.body.member.length).toBe(25);
    expect(capped.body.view.last).toContain('page=2');
    expectViolation(await put('api.max_items_per_page', 5), 'value', 'Valeur trop petite : au moins 20.');
  });

  it('a page far past the end of a list is empty, whatever its offset (beyond 2^31 rows)', async () => {
    // More than the API accepts, set in SQL as an operator could: the offset (999,999 × 5,000) no longer fits an integer.
    await sqlRows(server, `update configs set value = '5000' where key = 'api.max_items_per_page'`);
    server.app.ctx.settings.invalidate('api.max_items_per_page'); // rather than waiting for the 5 s the server keeps it
    const far = await server.request('GET', '/api/mutuals?page=1000000&itemsPerPage=5000', { token: t.admin });
    expect(far.status, far.text).toBe(200);
    expect(far.body.member).toEqual([]);
    expect(far.body.totalItems).toBe((await listAll(server, t.admin, 'mutuals')).length);
  });
});
