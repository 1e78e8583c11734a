import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  authFetch,
  clearSession,
  freshAccessToken,
  getAccessToken,
  getRefreshToken,
  SessionExpiredError,
  storeTokens,
  writeAuthStore,
} from '../../src/session';

/** An unsigned JWT whose payload says when it expires: the browser only reads `exp`. */
function tokenExpiringIn(seconds: number, tag = 'a') {
  const encode = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: '1', tag, exp: Math.floor(Date.now() / 1000) + seconds })}.sig`;
}

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let refreshCalls = 0;
let validToken = '';

beforeEach(() => {
  localStorage.clear();
  refreshCalls = 0;
  validToken = tokenExpiringIn(3600, 'renewed');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL, init: RequestInit = {}) => {
      const url = String(input);
      if (url === '/api/token/refresh') {
        refreshCalls += 1;
        const { refresh_token } = JSON.parse(String(init.body));
        // Let the concurrent callers pile up before answering.
        await new Promise((r) => setTimeout(r, 20));
        if (refresh_token !== 'refresh-1') return jsonResponse(401, { message: 'Session expirée' });
        return jsonResponse(200, { access_token: validToken, refresh_token: 'refresh-2', expires_in: 3600 });
      }
      const auth = new Headers(init.headers).get('Authorization');
      // A slow answer: its 401 arrives after the refresh another call started has ended.
      if (url === '/api/slow' && auth !== `Bearer ${validToken}`) await new Promise((r) => setTimeout(r, 400));
      return auth === `Bearer ${validToken}` ? jsonResponse(200, { ok: true }) : jsonResponse(401, { message: 'Jeton expiré' });
    }),
  );
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

describe('storeTokens', () => {
  it('accepts token or access_token and refuses a response with neither', () => {
    storeTokens({ token: 'abc', refresh_token: 'r' });
    expect(getAccessToken()).toBe('abc');
    storeTokens({ access_token: 'def' });
    expect(getAccessToken()).toBe('def');
    expect(getRefreshToken()).toBe('r');
    expect(() => storeTokens({ refresh_token: 'x' })).toThrow('Access token manquant dans la réponse de login');
  });
});

describe('single-flight refresh', () => {
  it('10 concurrent calls answered 401 cause exactly one refresh, then all retry and succeed', async () => {
    storeTokens({ token: tokenExpiringIn(3600, 'stale'), refresh_token: 'refresh-1' });
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => authFetch(`/api/things/${i}`)));
    expect(refreshCalls).toBe(1);
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(getAccessToken()).toBe(validToken);
    expect(getRefreshToken()).toBe('refresh-2');
  });

  it('a 401 arriving after the refresh ended retries with the new token instead of refreshing again', async () => {
    storeTokens({ token: tokenExpiringIn(3600, 'stale'), refresh_token: 'refresh-1' });
    // Both calls leave with the stale token; the fast one's 401 starts the refresh, the slow one's arrives 400 ms later.
    const [fast, slow] = await Promise.all([authFetch('/api/fast'), authFetch('/api/slow')]);
    expect(refreshCalls).toBe(1);
    expect([fast.status, slow.status]).toEqual([200, 200]);
    // The refresh token the server rotated to is kept: a second refresh (with refresh-2) would have been refused.
    expect(getRefreshToken()).toBe('refresh-2');
    expect(getAccessToken()).toBe(validToken);
  });

  it('refreshes proactively when the token expires within 180 s, before calling', async () => {
    storeTokens({ token: tokenExpiringIn(120), refresh_token: 'refresh-1' });
    expect(await freshAccessToken()).toBe(validToken);
    expect(refreshCalls).toBe(1);
  });

  it('keeps a token that is valid for longer than 180 s', async () => {
    const token = tokenExpiringIn(600);
    storeTokens({ token, refresh_token: 'refresh-1' });
    expect(await freshAccessToken()).toBe(token);
    expect(refreshCalls).toBe(0);
  });

  it('clears the session when the refresh is refused, and every waiting call fails with a session error', async () => {
    storeTokens({ token: tokenExpiringIn(3600, 'stale'), refresh_token: 'revoked' });
    writeAuthStore({ permissions: ['pec.view'] } as never);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => authFetch('/api/things')));
    expect(refreshCalls).toBe(1);
    for (const r of results) expect(r.status === 'rejected' && r.reason instanceof SessionExpiredError).toBe(true);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(localStorage.getItem('auth-storage')).toBeNull();
  });

  it('keeps the theme when the session is cleared', () => {
    localStorage.setItem('theme', 'light');
    storeTokens({ token: 'abc', refresh_token: 'r' });
    clearSession();
    expect(localStorage.getItem('theme')).toBe('light');
  });
});

describe('apiFetch', () => {
  it('lets a session the server ended through as a 401, and tells a network that failed as such', async () => {
    const { apiFetch } = await import('../../src/dataProvider/http');
    storeTokens({ access_token: tokenExpiringIn(3600, 'stale'), refresh_token: 'revoked' });
    const ended = await apiFetch('/api/user/profile').catch((error: unknown) => error);
    expect(ended).toBeInstanceOf(SessionExpiredError);
    expect(ended).toMatchObject({ status: 401 });
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    storeTokens({ access_token: tokenExpiringIn(3600), refresh_token: 'refresh-1' });
    await expect(apiFetch('/api/user/profile')).rejects.toMatchObject({ status: 0, message: 'Connexion au serveur impossible. Vérifiez votre réseau.' });
  });
});
