// Issue 12, items 8 and 9: a stranger's guesses do not lock the owner out; ended sessions refuse their access tokens at once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app';
import { openPostgres, type Database } from '../../server/db/connect';
import { loginAttempts } from '../../server/db/schema';
import { DISTRIBUTED_FACTOR } from '../../server/auth/routes';
import { usePostgres } from './helpers/databases';
import { startTestServer, type TestServer } from './helpers/server';

const PASSWORD = 'Pecflow2026!';
let server: TestServer;
beforeAll(async () => {
  // Behind a proxy, so that each test client can have its own address.
  server = await startTestServer({ trustProxy: true });
});
afterAll(() => server?.close());

const login = (email: string, password: string, from: string) =>
  server.request('POST', '/api/login_check', { body: { email, password }, headers: { 'x-forwarded-for': from } });

describe('failed sign-ins (item 8)', () => {
  const owner = '198.51.100.10';
  const stranger = '203.0.113.66';

  it('does not lock the owner out after a stranger’s five wrong guesses', async () => {
    const email = 'admin@pecflow.fr';
    for (let i = 0; i < 5; i++) expect((await login(email, `devine-${i}`, stranger)).status).toBe(401);
    // The stranger is blocked, even with the right password.
    const blocked = await login(email, PASSWORD, stranger);
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toBe('Trop de tentatives de connexion. Réessayez dans 15 minutes.');
    // The owner, from an address with no failure, gets in.
    expect((await login(email, PASSWORD, owner)).status).toBe(200);
  });

  it('keeps an email under attack bounded: one try per new address, and never more than five from one', async () => {
    const email = 'lecture@audition-horizon.fr';
    for (let i = 0; i < 5; i++) expect((await login(email, `devine-${i}`, stranger)).status).toBe(401);
    // A second address of the attacker: one guess, then blocked too.
    expect((await login(email, 'encore', '203.0.113.67')).status).toBe(401);
    expect((await login(email, 'encore-2', '203.0.113.67')).status).toBe(429);
    // Guesses in parallel from a third new address: exactly one password is checked.
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => login(email, `rafale-${i}`, '203.0.113.68')));
    expect(burst.filter((r) => r.status === 401)).toHaveLength(1);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(9);
    const failures = await server.database.db.select().from(loginAttempts).where(eq(loginAttempts.email, email));
    expect(failures.filter((f) => !f.succeeded)).toHaveLength(7);
    expect(new Set(failures.map((f) => f.ip))).toEqual(new Set([stranger, '203.0.113.67', '203.0.113.68']));
    // The owner still gets in, and a success from any address clears the count for everyone.
    expect((await login(email, PASSWORD, owner)).status).toBe(200);
    expect((await login(email, PASSWORD, stranger)).status).toBe(200);
  });

  it('blocks the email for every address once the failures come from many addresses', async () => {
    const email = 'assistant@audition-horizon.fr';
    const distributed = 5 * DISTRIBUTED_FACTOR;
    // The failures of an attack from many addresses (recorded directly: the sign-in rate limit would slow it down).
    await server.database.db
      .insert(loginAttempts)
      .values(Array.from({ length: distributed - 1 }, (_, i) => ({ email, ip: `192.0.2.${i + 1}`, succeeded: false })));
    expect((await login(email, PASSWORD, owner)).status).toBe(200);
    await server.database.db.insert(loginAttempts).values(Array.from({ length: distributed }, (_, i) => ({ email, ip: `192.0.2.${i + 1}`, succeeded: false })));
    const blocked = await login(email, PASSWORD, owner);
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toBe('Trop de tentatives de connexion. Réessayez dans 15 minutes.');
  });
});

describe('sessions (item 9)', () => {
  const signIn = async (email = 'audio@audition-horizon.fr') =>
    (await server.request('POST', '/api/login_check', { body: { email, password: PASSWORD } })).body;
  const profile = (token: string) => server.get('/api/user/profile', token);

  it('carries its session in every access token, refreshed ones included', async () => {
    const pair = await signIn();
    const sid = JSON.parse(Buffer.from(pair.token.split('.')[1], 'base64url').toString()).sid;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    const next = (await server.request('POST', '/api/token/refresh', { body: { refresh_token: pair.refresh_token } })).body;
    expect(JSON.parse(Buffer.from(next.token.split('.')[1], 'base64url').toString()).sid).toBe(sid);
  });

  it('refuses the access token at once after logout, and only that session’s', async () => {
    const pair = await signIn();
    const otherSession = await signIn();
    expect((await profile(pair.token)).status).toBe(200);
    expect((await server.request('POST', '/api/token/invalidate', { body: { refresh_token: pair.refresh_token } })).status).toBe(204);
    const refused = await profile(pair.token);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe('Authentification requise : jeton absent ou invalide.');
    expect((await profile(otherSession.token)).status).toBe(200);
    // Its event-stream tickets end with it too.
    const ticket = (await server.request('POST', '/api/events/ticket', { token: otherSession.token })).body.ticket;
    await server.request('POST', '/api/token/invalidate', { body: { refresh_token: otherSession.refresh_token } });
    const stream = await fetch(`${server.url}/api/events?ticket=${ticket}`);
    expect(stream.status).toBe(401);
  });

  it('refuses every access token of a chain revoked for a replayed refresh token', async () => {
    const first = await signIn();
    const second = (await server.request('POST', '/api/token/refresh', { body: { refresh_token: first.refresh_token } })).body;
    expect((await profile(second.token)).status).toBe(200);
    // The spent token comes back: it leaked, the whole chain ends.
    expect((await server.request('POST', '/api/token/refresh', { body: { refresh_token: first.refresh_token } })).status).toBe(401);
    expect((await profile(second.token)).status).toBe(401);
    expect((await profile(first.token)).status).toBe(401);
  });

  it('refuses an access token without a session', async () => {
    const pair = await signIn();
    const payload = JSON.parse(Buffer.from(pair.token.split('.')[1], 'base64url').toString());
    const withoutSid = server.app.jwt.sign({ sub: payload.sub, email: payload.email, holdingId: payload.holdingId } as never, { expiresIn: 3600 });
    expect((await profile(withoutSid)).status).toBe(401);
    expect((await profile(pair.token)).status).toBe(200);
  });

  describe('with a second instance', () => {
    let second: App;
    let secondUrl: string;
    let secondDatabase: Database;
    beforeAll(async () => {
      // On PostgreSQL its own connections (as another process would have); PGlite has one.
      secondDatabase = usePostgres() ? await openPostgres(server.database.connectionString!, 2) : server.database;
      second = await buildApp({ config: { ...server.config, startWorkers: false }, database: secondDatabase });
      await second.listen({ port: 0, host: '127.0.0.1' });
      const address = second.server.address();
      secondUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(async () => {
      await second?.close();
      if (secondDatabase !== server.database) await secondDatabase?.close();
    });

    it('ends the session there as soon as it ends here, though that instance had it open in its cache', async () => {
      const pair = await signIn();
      const onSecond = () => fetch(`${secondUrl}/api/user/profile`, { headers: { authorization: `Bearer ${pair.token}` } });
      expect((await onSecond()).status).toBe(200);
      expect((await server.request('POST', '/api/token/invalidate', { body: { refresh_token: pair.refresh_token } })).status).toBe(204);
      // NOTIFY is delivered at commit, a few milliseconds later: well within a second, far from the cache's minute.
      let status = 200;
      for (let i = 0; i < 20 && status === 200; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await onSecond()).status;
      }
      expect(status).toBe(401);
    });

    it('closes a live events stream open there as soon as its session ends here, not at its next heartbeat', async () => {
      const pair = await signIn();
      const ticket = (await server.request('POST', '/api/events/ticket', { token: pair.token })).body.ticket;
      const stream = await fetch(`${secondUrl}/api/events?ticket=${ticket}`);
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: ready');
      expect((await server.request('POST', '/api/token/invalidate', { body: { refresh_token: pair.refresh_token } })).status).toBe(204);
      const ended = (async () => {
        while (!(await reader.read()).done);
        return 'closed';
      })();
      // The heartbeat, which also reads the session again, comes every 25 s.
      const waited = new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000));
      expect(await Promise.race([ended, waited])).toBe('closed');
      await reader.cancel().catch(() => undefined);
    });
  });
});
