import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAttempts, users } from '../../server/db/schema';
import { startTestServer, type JsonBody, type TestServer } from './helpers/server';
import { firstSignIn } from './helpers/backoffice';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const login = (email: string, password: string) => server.request('POST', '/api/login_check', { body: { email, password } });

function decodeJwt(token: string) {
  const [header, payload] = token
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part!, 'base64url').toString()));
  return { header, payload };
}

describe('POST /api/login_check', () => {
  it('returns an HS256 access token carrying the user, and a refresh token', async () => {
    const res = await login('audio@audition-horizon.fr', 'Pecflow2026!');
    expect(res.status).toBe(200);
    expect(res.body.token).toBe(res.body.access_token);
    expect(res.body.refresh_token).toMatch(/^[\w-]{40,}$/);
    expect(res.body.expires_in).toBe(3600);
    const { header, payload } = decodeJwt(res.body.token);
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({ email: 'audio@audition-horizon.fr', holdingId: expect.any(Number), sub: expect.any(String) });
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it("carries the user's profile, as GET /api/user/profile gives it, so that the browser needs no second call", async () => {
    const res = await login('audio@audition-horizon.fr', 'Pecflow2026!');
    expect(res.status).toBe(200);
    const profile = await server.get('/api/user/profile', res.body.token);
    expect(profile.status).toBe(200);
    expect(res.body.profile).toEqual(profile.body);
    expect(res.body.profile).toMatchObject({ email: 'audio@audition-horizon.fr', isActive: true, permissions: expect.any(Array) });
    // A refresh does not (the browser keeps the profile it has, or reads it on a page load).
    const refreshed = await server.request('POST', '/api/token/refresh', { body: { refresh_token: res.body.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).not.toHaveProperty('profile');
  });

  it('accepts the email in any case and with surrounding spaces', async () => {
    const res = await login('  Audio@Audition-Horizon.FR ', 'Pecflow2026!');
    expect(res.status).toBe(200);
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await login('direction@audition-horizon.fr', 'mauvais-mot-de-passe');
    const unknown = await login('personne@nulle-part.fr', 'mauvais-mot-de-passe');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe('Identifiants invalides.');
    expect(unknown.body.detail).toBe('Identifiants invalides.');
    expect(wrong.headers.get('content-type')).toContain('application/problem+json');
  });

  it('refuses inactive and locked accounts with their own message, only once the password is right', async () => {
    const { db } = server.database;
    await db.update(users).set({ status: 'Inactive' }).where(eq(users.email, 'assistant@audition-horizon.fr'));
    expect((await login('assistant@audition-horizon.fr', 'Pecflow2026!')).body.detail).toBe('Compte désactivé');
    expect((await login('assistant@audition-horizon.fr', 'pas-le-bon')).body.detail).toBe('Identifiants invalides.');
    await db.update(users).set({ status: 'Locked' }).where(eq(users.email, 'assistant@audition-horizon.fr'));
    const locked = await login('assistant@audition-horizon.fr', 'Pecflow2026!');
    expect(locked.status).toBe(401);
    expect(locked.body.detail).toBe('Compte bloqué');
    await db.update(users).set({ status: 'Active' }).where(eq(users.email, 'assistant@audition-horizon.fr'));
  });

  it('blocks an email for the rest of the window after 5 failures, then lets it in again', async () => {
    const email = 'lecture@audition-horizon.fr';
    for (let i = 0; i < 5; i++) expect((await login(email, 'mauvais-mot-de-passe')).status).toBe(401);
    const blocked = await login(email, 'Pecflow2026!');
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toBe('Trop de tentatives de connexion. Réessayez dans 15 minutes.');
    // A client that waits by itself reads how long in the header, as for the other 429s.
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    // Other accounts are not affected.
    expect((await login('audio@audition-horizon.fr', 'Pecflow2026!')).status).toBe(200);
    // Once the failures are older than the window, the right password works again.
    await server.database.db
      .update(loginAttempts)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(loginAttempts.email, email));
    expect((await login(email, 'Pecflow2026!')).status).toBe(200);
  });

  it('checks no more than 5 passwords for an email even when the guesses arrive all at once', async () => {
    const email = 'rafale@audition-horizon.fr';
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(email, `essai-${i}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect((await login(email, 'essai-encore')).status).toBe(429);
    const recorded = await server.database.db.select().from(loginAttempts).where(eq(loginAttempts.email, email));
    expect(recorded.filter((r) => !r.succeeded)).toHaveLength(5);
  });

  it('answers malformed JSON with 400 and missing fields with 422 in French, never 500', async () => {
    const malformed = await server.request('POST', '/api/login_check', { rawBody: '{"email": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail).toBe('Le corps de la requête n’est pas un JSON valide.');

    const missing = await server.request('POST', '/api/login_check', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.violations).toEqual(
      expect.arrayContaining([
        { propertyPath: 'email', message: 'L’email est obligatoire' },
        { propertyPath: 'password', message: 'Le mot de passe doit contenir au moins 6 caractères' },
      ]),
    );
    const badEmail = await login('pas-un-email', 'Pecflow2026!');
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.violations).toEqual([{ propertyPath: 'email', message: 'Format d’email invalide' }]);

    const wrongTypes = await server.request('POST', '/api/login_check', { body: { email: 42, password: ['x'] } });
    expect(wrongTypes.status).toBe(422);
    const notAnObject = await server.request('POST', '/api/login_check', { body: 'texte' });
    expect(notAnObject.status).toBe(422);
    // Zod's own messages are French too.
    const anArray = await server.request('POST', '/api/login_check', { body: [1] });
    expect(anArray.status).toBe(422);
    expect(anArray.body.detail).toBe('Entrée invalide : objet attendu, tableau reçu');
  });

  it('answers an oversized request header with a French 431 problem', async () => {
    const res = await fetch(`${server.url}/api/user/profile`, { headers: { authorization: `Bearer ${'x'.repeat(100_000)}` } });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await res.json()).detail).toBe('Les en-têtes ou l’adresse de la requête sont trop longs.');
  });
});

describe('refresh tokens', () => {
  it('rotates at each use: the new pair works, the old refresh token is spent', async () => {
    const first = (await login('direction@audition-horizon.fr', 'Pecflow2026!')).body;
    const second = await server.request('POST', '/api/token/refresh', { body: { refresh_token: first.refresh_token } });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.expires_in).toBe(3600);
    expect((await server.get('/api/user/profile', second.body.access_token)).status).toBe(200);
    const third = await server.request('POST', '/api/token/refresh', { body: { refresh_token: second.body.refresh_token } });
    expect(third.status).toBe(200);
  });

  it('revokes the whole chain when a used token is presented again', async () => {
    const first = (await login('direction@audition-horizon.fr', 'Pecflow2026!')).body;
    const second = (await server.request('POST', '/api/token/refresh', { body: { refresh_token: first.refresh_token } })).body;
    const replay = await server.request('POST', '/api/token/refresh', { body: { refresh_token: first.refresh_token } });
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toBe('Session expirée ou révoquée. Veuillez vous reconnecter.');
    // The legitimate latest token died with its family.
    const afterReuse = await server.request('POST', '/api/token/refresh', { body: { refresh_token: second.refresh_token } });
    expect(afterReuse.status).toBe(401);
  });

  it('rejects an unknown refresh token and a missing one', async () => {
    expect((await server.request('POST', '/api/token/refresh', { body: { refresh_token: 'inconnu' } })).status).toBe(401);
    const missing = await server.request('POST', '/api/token/refresh', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.violations[0].message).toBe('Le jeton de rafraîchissement est requis');
  });

  it('logout revokes the refresh token', async () => {
    const pair = (await login('audio@audition-horizon.fr', 'Pecflow2026!')).body;
    const out = await server.request('POST', '/api/token/invalidate', { body: { refresh_token: pair.refresh_token } });
    expect(out.status).toBe(204);
    expect((await server.request('POST', '/api/token/refresh', { body: { refresh_token: pair.refresh_token } })).status).toBe(401);
  });
});

describe('GET /api/user/profile', () => {
  it('describes the signed-in user with effective permissions and their details', async () => {
    const token = await server.login('audio@audition-horizon.fr');
    const res = await server.get('/api/user/profile', token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: 'audio@audition-horizon.fr',
      firstName: 'Sophie',
      lastName: 'Bernard',
      holdingId: expect.any(Number),
      shopId: expect.any(Number),
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body.shopIds).toHaveLength(2);
    expect(res.body.permissions).toEqual(expect.arrayContaining(['pec.create', 'pec.view', 'export.pec']));
    expect(res.body.permissions).not.toContain('delete.pec');
    const detail = res.body.permissionsDetails.find((d: JsonBody) => d.key === 'pec.create');
    expect(detail).toEqual({
      key: 'pec.create',
      label: expect.any(String),
      module: 'workflow',
      level: 'create',
      description: expect.any(String),
      groups: [{ id: expect.any(Number), name: 'Audioprothésiste' }],
    });
  });

  it('expands wildcards into the catalogue entries they grant', async () => {
    const token = await server.login('admin@pecflow.fr');
    const res = await server.get('/api/user/profile', token);
    expect(res.body.holdingId).toBeNull();
    expect(res.body.permissions).toEqual(['admin.*']);
    const keys = res.body.permissionsDetails.map((d: JsonBody) => d.key);
    expect(keys).toEqual(expect.arrayContaining(['settings.system.edit', 'delete.pec', 'audit.view']));
  });

  it('names the organisation administrator’s role with the typographic apostrophe (the profile shows it)', async () => {
    const token = await server.login('direction@audition-horizon.fr');
    const res = await server.get('/api/user/profile', token);
    const roles = new Set(res.body.permissionsDetails.flatMap((d: JsonBody) => d.groups.map((g: JsonBody) => g.name)));
    expect([...roles]).toEqual(['Administrateur d’organisation']);
  });
});

describe('protected routes', () => {
  it('answer 401 problem+json with the Hydra Link header without a valid token', async () => {
    for (const token of [undefined, 'pas.un.jeton']) {
      const res = await server.get('/api/user/profile', token);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('link')).toMatch(/<http:\/\/127\.0\.0\.1:\d+\/api\/docs\.jsonld>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"/);
      expect(res.body.detail).toBe('Authentification requise : jeton absent ou invalide.');
    }
    expect((await server.get('/api/notifications')).status).toBe(401);
    expect((await server.get('/api/nimporte-quoi')).status).toBe(401);
  });

  it('refuse a token signed with another secret', async () => {
    const token = await server.login('audio@audition-horizon.fr');
    const [h, p] = token.split('.');
    const forged = `${h}.${p}.${Buffer.from('signature-inventee').toString('base64url')}`;
    expect((await server.get('/api/user/profile', forged)).status).toBe(401);
  });

  it('cut off a user deactivated after signing in, at once', async () => {
    const token = await server.login('assistant@audition-horizon.fr');
    expect((await server.get('/api/user/profile', token)).status).toBe(200);
    const admin = await server.login('direction@audition-horizon.fr');
    const [assistant] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'assistant@audition-horizon.fr'));
    const patch = (status: string) =>
      server.request('PATCH', `/api/users/${assistant!.id}`, { token: admin, body: { status }, headers: { 'content-type': 'application/merge-patch+json' } });
    expect((await patch('Inactive')).status).toBe(200);
    expect((await server.get('/api/user/profile', token)).status).toBe(401);
    expect((await patch('Active')).status).toBe(200);
  });

  it('refuse the access tokens issued before a password change', async () => {
    const before = await server.login('assistant@audition-horizon.fr');
    const admin = await server.login('direction@audition-horizon.fr');
    const [assistant] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'assistant@audition-horizon.fr'));
    // The token's iat has a precision of a second: the change comes in a later second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const headers = { 'content-type': 'application/merge-patch+json' };
    expect((await server.request('PATCH', `/api/users/${assistant!.id}`, { token: admin, body: { password: 'Nouveau-Depart-2026!' }, headers })).status).toBe(
      200,
    );
    expect((await server.get('/api/user/profile', before)).status).toBe(401);
    // A password typed by an administrator: its owner chooses another before any token.
    const after = (await firstSignIn(server, 'assistant@audition-horizon.fr', 'Nouveau-Depart-2026!')).token;
    expect((await server.get('/api/user/profile', after)).status).toBe(200);
    expect((await server.request('PATCH', `/api/users/${assistant!.id}`, { token: admin, body: { password: 'Pecflow2026!' }, headers })).status).toBe(200);
    // The seeded account as it was, for the other tests: its own password again.
    await server.database.db.update(users).set({ passwordMustChange: false }).where(eq(users.id, assistant!.id));
  });

  it('refuse an event-stream ticket used as an access token', async () => {
    const token = await server.login('audio@audition-horizon.fr');
    const { ticket } = (await server.request<{ ticket: string }>('POST', '/api/events/ticket', { token })).body;
    expect(ticket).toEqual(expect.any(String));
    expect((await server.get('/api/user/profile', ticket)).status).toBe(401);
  });

  it('leave health readable without a token', async () => {
    const res = await server.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('passwords at rest', () => {
  it('are argon2id hashes', async () => {
    const rows = await server.database.db.select({ hash: users.passwordHash }).from(users);
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) expect(row.hash).toMatch(/^\$argon2id\$/);
  });
});
