// Issue 12, item 7: per-address limits by route family, with the shipped values, in memory and in a shared Redis.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../../server/config';
import { sign } from '../../server/http/signature';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/server';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
/** Without background jobs: none of these tests runs the robot, whose simulator would post callbacks from loopback. */
async function serverWith(overrides: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer({ startWorkers: false, ...overrides });
  servers.push(server);
  return server;
}

/** Sends `count` requests, `batch` at a time, and returns their statuses in order. */
async function burst(count: number, send: (i: number) => Promise<ApiResponse>, batch = 25): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  for (let i = 0; i < count; i += batch) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, k) => send(i + k)))));
  }
  return answers;
}

function expectFrench429(res: ApiResponse, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.body.detail).toMatch(/^Trop de requêtes depuis votre adresse : réessayez dans \d+ secondes?\.$/);
  expect(res.headers.get('link')).toContain('/api/docs.jsonld');
}

// A family's whole allowance is sent: on a loaded machine that takes longer than the default 30 s.
describe('with the shipped limits (in memory)', { timeout: 120_000 }, () => {
  const limits = DEFAULT_RATE_LIMITS;

  it('stops sign-in and refresh attempts from one address after the login limit', async () => {
    const server = await serverWith({ rateLimits: limits });
    // Password spraying: a different email each time, so the per-email block never applies.
    const logins = await burst(
      limits.login - 5,
      (i) => server.request('POST', '/api/login_check', { body: { email: `inconnu${i}@exemple.fr`, password: 'Devine2026!' } }),
      10,
    );
    expect(logins.every((r) => r.status === 401)).toBe(true);
    // Refresh counts in the same family.
    const refreshes = await burst(5, () => server.request('POST', '/api/token/refresh', { body: { refresh_token: randomBytes(32).toString('base64url') } }));
    expect(refreshes.every((r) => r.status === 401)).toBe(true);
    const refused = await server.request('POST', '/api/login_check', { body: { email: 'admin@pecflow.fr', password: 'Pecflow2026!' } });
    expectFrench429(refused, limits.windowSeconds);
    expectFrench429(await server.request('POST', '/api/token/refresh', { body: { refresh_token: 'x' } }), limits.windowSeconds);
    // Other families keep their own count.
    expect((await server.get('/api/health')).status).toBe(200);
    expect((await server.get('/api/user/profile')).status).toBe(401);
  });

  it('stops profile and data reads from one address after the API limit', async () => {
    const server = await serverWith({ rateLimits: { ...limits, login: 100 } });
    const token = await server.login('lecture@audition-horizon.fr');
    const reads = await burst(limits.api, (i) => server.get(i % 2 ? '/api/user/profile' : '/api/shops', token), 50);
    expect(reads.filter((r) => r.status !== 200)).toEqual([]);
    expectFrench429(await server.get('/api/pec_dossiers', token), limits.windowSeconds);
    // Sign-in is another family.
    expect((await server.request('POST', '/api/login_check', { body: { email: 'lecture@audition-horizon.fr', password: 'Pecflow2026!' } })).status).toBe(200);
  });

  it('stops junk callbacks from one address after the callback limit', async () => {
    const server = await serverWith({ rateLimits: limits });
    const junk = await burst(
      limits.callbacks,
      () => server.request('POST', '/api/callbacks/dpec', { body: { run_id: 1 }, headers: { 'x-robot-signature': 'sha256=00' } }),
      50,
    );
    expect(junk.filter((r) => r.status === 429)).toEqual([]);
    expectFrench429(await server.request('POST', '/api/callbacks/scraping', { body: {} }), limits.windowSeconds);
  });
});

describe('client address', () => {
  const small: RateLimits = { windowSeconds: 60, login: 3, api: 1000, callbacks: 1000 };
  const attempt = (server: TestServer, from: string) =>
    server.request('POST', '/api/login_check', { body: { email: 'personne@exemple.fr', password: 'Devine2026!' }, headers: { 'x-forwarded-for': from } });

  it('ignores X-Forwarded-For without TRUST_PROXY (a client cannot pick its own address)', async () => {
    const server = await serverWith({ rateLimits: small, trustProxy: false });
    for (let i = 0; i < small.login; i++) expect((await attempt(server, `10.0.0.${i + 1}`)).status).toBe(401);
    expect((await attempt(server, '10.0.0.99')).status).toBe(429);
  });

  it('counts each client behind the proxy apart with TRUST_PROXY', async () => {
    const server = await serverWith({ rateLimits: small, trustProxy: true });
    for (let i = 0; i < small.login; i++) expect((await attempt(server, '10.0.0.1')).status).toBe(401);
    expect((await attempt(server, '10.0.0.1')).status).toBe(429);
    expect((await attempt(server, '10.0.0.2')).status).toBe(401);
  });
});

describe("the robot's signed results", () => {
  it('are never refused by the callback limit; a wrong signature counts', async () => {
    const server = await serverWith({ rateLimits: { windowSeconds: 60, login: 1000, api: 1000, callbacks: 3 } });
    const body = JSON.stringify({ id_pecflow: 'PEC-INCONNU', success: true, messages: [] });
    const signed = () =>
      server.request('POST', '/api/callbacks/billing', { rawBody: body, headers: { 'x-robot-signature': sign(body, server.config.robotCallbackSecret) } });
    // Ten results from one address, three times the limit: each reaches the callback (unknown file: 404), none is a 429.
    for (let i = 0; i < 10; i++) expect((await signed()).status).toBe(404);
    const forged = () => server.request('POST', '/api/callbacks/billing', { rawBody: body, headers: { 'x-robot-signature': sign(body, 'pas-le-bon-secret') } });
    for (let i = 0; i < 3; i++) expect((await forged()).status).toBe(401);
    expectFrench429(await forged(), 60);
  });
});

describe('a bulk action', () => {
  it('spends one request of the allowance per file, as the single actions would: the files beyond it are refused with the French 429', async () => {
    const server = await serverWith({ trustProxy: true, rateLimits: { windowSeconds: 60, login: 1000, api: 4, callbacks: 1000 } });
    const token = await server.login('direction@audition-horizon.fr');
    const files = await server.database.query<{ id: number }>(
      `select f.id from pec_dossiers f join users u on u.holding_id = f.holding_id
        where u.email = 'direction@audition-horizon.fr' and not f.archived order by f.id limit 6`,
    );
    expect(files).toHaveLength(6);
    // From an address of its own (behind the declared proxy): its allowance is whole.
    const from = { 'x-forwarded-for': '10.9.9.9' };
    const bulk = await server.request('POST', '/api/pec_dossiers/bulk/assign', {
      token,
      headers: from,
      body: { ids: files.map((f) => `/api/pec_dossiers/${f.id}`), owner: null },
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(['done', 'done', 'done', 'done', 'refused', 'refused']);
    expect(bulk.body.results[4].reason).toMatch(/^Trop de requêtes depuis votre adresse : réessayez dans \d+ secondes?\.$/);
    const unchanged = await server.database.query<{ owner_id: number | null }>('select owner_id from pec_dossiers where id = $1', [files[5]!.id]);
    expect(unchanged[0]!.owner_id).not.toBeNull();
    // The allowance is spent: the next call from that address is refused too.
    expectFrench429(await server.request('GET', '/api/pec_dossiers', { token, headers: from }), 60);
  });
});

describe("the robot's document links", () => {
  it('count in the callback family, not in the API allowance', async () => {
    const server = await serverWith({ rateLimits: { windowSeconds: 60, login: 1000, api: 3, callbacks: 5 } });
    const forged = () => server.get('/api/robot/documents/1?expires=9999999999&signature=00');
    for (let i = 0; i < 5; i++) expect((await forged()).status).toBe(403);
    expectFrench429(await forged(), 60);
    // The office's reads from the same address still have their whole allowance.
    for (let i = 0; i < 3; i++) expect((await server.get('/api/user/profile')).status).toBe(401);
    expectFrench429(await server.get('/api/user/profile'), 60);
  });
});

describe('with REDIS_URL', () => {
  it('counts one address across instances sharing a Redis', async () => {
    const shared = {
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: `pecflow-test:${randomBytes(6).toString('hex')}:`,
      rateLimits: { windowSeconds: 60, login: 1000, api: 10, callbacks: 1000 },
    };
    const [a, b] = [await serverWith(shared), await serverWith(shared)];
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await (i % 2 ? a : b).get('/api/user/profile')).status);
    expect(statuses).toEqual(Array(10).fill(401));
    expectFrench429(await a.get('/api/user/profile'), 60);
    expectFrench429(await b.get('/api/user/profile'), 60);
    // Another prefix (another deployment) has its own count.
    const other = await serverWith({ ...shared, redisPrefix: `pecflow-test:${randomBytes(6).toString('hex')}:` });
    expect((await other.get('/api/user/profile')).status).toBe(401);
  });
});
