// Issue 26, item 7: CORS closed. The front end is served from the API's own origin: another origin gets no
// Access-Control-Allow-Origin and its pre-flights are not granted, unless CORS_ORIGINS names it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startTestServer, type TestServer } from './helpers/server';

const FOREIGN = 'https://sonde.exemple.com';
const ALLOWED = 'https://front.pecflow.example';

const preflight = (server: TestServer, origin: string) =>
  fetch(`${server.url}/api/pec_dossiers`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });

describe('CORS by default (same origin only)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('gives a foreign Origin no Access-Control-Allow-Origin, on answers and errors alike', async () => {
    const token = await server.login('admin@pecflow.fr');
    for (const res of [
      await server.request('GET', '/api/pec_dossiers', { token, headers: { origin: FOREIGN } }),
      await server.request('GET', '/api/pec_dossiers', { headers: { origin: FOREIGN } }),
      await server.request('POST', '/api/login_check', { body: { email: 'admin@pecflow.fr', password: 'Pecflow2026!' }, headers: { origin: FOREIGN } }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('does not grant a foreign pre-flight (no allowed origin, methods or headers)', async () => {
    const res = await preflight(server, FOREIGN);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.ok).toBe(false);
  });
});

describe('CORS_ORIGINS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      corsOrigins: loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp', CORS_ORIGINS: `${ALLOWED}/, https://autre.exemple.fr` }).corsOrigins,
    });
  });
  afterAll(() => server.close());

  it('reads a comma-separated list of origins and refuses anything else than an origin', () => {
    expect(server.config.corsOrigins).toEqual([ALLOWED, 'https://autre.exemple.fr']);
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp', CORS_ORIGINS: 'https://exemple.fr/app' })).toThrow(/CORS_ORIGINS/);
  });

  it('answers a configured origin with its own Access-Control-Allow-Origin and grants its pre-flight', async () => {
    const token = await server.login('admin@pecflow.fr');
    const res = await server.request('GET', '/api/pec_dossiers', { token, headers: { origin: ALLOWED } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-expose-headers')).toContain('Link');
    const granted = await preflight(server, ALLOWED);
    expect(granted.status).toBe(204);
    expect(granted.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(granted.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it('still refuses an origin the list does not name', async () => {
    const res = await preflight(server, FOREIGN);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await server.request('GET', '/api/health', { headers: { origin: FOREIGN } })).headers.get('access-control-allow-origin')).toBeNull();
  });
});
