// An account disabled or locked while signed in: its session ends at once, and its holder alone learns why (a code in
// the 401, `reason`, whose French message is the login form's); anyone else gets the plain refusal.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { mergePatch } from './helpers/backoffice';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());
// Each test starts with the account active, whatever the one before left.
afterEach(() => server.database.db.update(users).set({ status: 'Active' }).where(eq(users.email, EMAIL)));

const EMAIL = 'assistant@audition-horizon.fr';
const MISSING_TOKEN = 'Authentification requise : jeton absent ou invalide.';
const INVALID_REFRESH = 'Session expirée ou révoquée. Veuillez vous reconnecter.';

async function signIn(email = EMAIL) {
  const res = await server.request<{ token: string; refresh_token: string }>('POST', '/api/login_check', { body: { email, password: 'Pecflow2026!' } });
  expect(res.status).toBe(200);
  return res.body;
}
const refresh = (refresh_token: string) => server.request('POST', '/api/token/refresh', { body: { refresh_token } });

async function setStatus(status: string) {
  const admin = await server.login('direction@audition-horizon.fr');
  const [user] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.email, EMAIL));
  const res = await server.request('PATCH', `/api/users/${user!.id}`, { token: admin, body: { status }, headers: mergePatch });
  expect(res.status).toBe(200);
}

describe('a session ended because its account was disabled or locked', () => {
  it('tells its holder why, on the next request and on the refresh, with a code and the login form’s message', async () => {
    const session = await signIn();
    expect((await server.get('/api/user/profile', session.token)).status).toBe(200);
    await setStatus('Inactive');

    const request = await server.get('/api/user/profile', session.token);
    expect(request.status).toBe(401);
    expect(request.headers.get('content-type')).toContain('application/problem+json');
    expect(request.body).toMatchObject({ reason: 'account_inactive', detail: 'Compte désactivé' });

    const refreshed = await refresh(session.refresh_token);
    expect(refreshed.status).toBe(401);
    expect(refreshed.body).toMatchObject({ reason: 'account_inactive', detail: 'Compte désactivé' });
    // Still so when asked again: the refused refresh did not spend the token into a replay.
    expect((await refresh(session.refresh_token)).body.reason).toBe('account_inactive');
  });

  it('says « Compte bloqué » for a locked account', async () => {
    const session = await signIn();
    await setStatus('Locked');
    expect((await server.get('/api/notifications', session.token)).body).toMatchObject({ reason: 'account_locked', detail: 'Compte bloqué' });
    expect((await refresh(session.refresh_token)).body).toMatchObject({ reason: 'account_locked', detail: 'Compte bloqué' });
  });

  it('tells nobody else: a forged, unknown, spent or expired token gets the plain refusal', async () => {
    const session = await signIn();
    const spent = session.refresh_token;
    const current = (await refresh(spent)).body as { token: string; refresh_token: string };
    const payload = JSON.parse(Buffer.from(current.token.split('.')[1]!, 'base64url').toString());
    const [header, body] = current.token.split('.');
    const forged = `${header}.${body}.${Buffer.from('signature-inventee').toString('base64url')}`;
    const expired = server.app.jwt.sign({ sub: payload.sub, email: payload.email, holdingId: payload.holdingId, sid: payload.sid } as never, {
      expiresIn: -10,
    });
    await setStatus('Inactive');

    for (const token of [forged, expired, 'pas.un.jeton', undefined]) {
      const res = await server.get('/api/user/profile', token);
      expect(res.status).toBe(401);
      expect(res.body.detail).toBe(MISSING_TOKEN);
      expect(res.body).not.toHaveProperty('reason');
    }
    // The refresh token already exchanged (a copy: whoever shows it is not the session's holder), and an unknown one.
    for (const token of [spent, 'inconnu-0123456789']) {
      const res = await refresh(token);
      expect(res.status).toBe(401);
      expect(res.body.detail).toBe(INVALID_REFRESH);
      expect(res.body).not.toHaveProperty('reason');
    }
    // The holder's own current tokens do learn it.
    expect((await server.get('/api/user/profile', current.token)).body.reason).toBe('account_inactive');
  });

  it('gives no reason once the account is active again: the old session stays ended, plainly', async () => {
    const session = await signIn();
    await setStatus('Inactive');
    await setStatus('Active');
    const request = await server.get('/api/user/profile', session.token);
    expect(request.status).toBe(401);
    expect(request.body.detail).toBe(MISSING_TOKEN);
    expect(request.body).not.toHaveProperty('reason');
    const refreshed = await refresh(session.refresh_token);
    expect(refreshed.body.detail).toBe(INVALID_REFRESH);
    expect(refreshed.body).not.toHaveProperty('reason');
    // And the account signs in again.
    expect((await server.get('/api/user/profile', (await signIn()).token)).status).toBe(200);
  });
});
