// Issue 12, items 6 and 12: every /api error in French problem+json with the headers of any other answer; no cache
// of data; absolute URLs from PUBLIC_URL only; slow clients do not hold sockets.
import { connect } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** Milliseconds until the server closed the socket. */
  closedAfter: number;
}

/** Sends bytes as they are (no Host added, no URL normalised) and reads the answer until the server closes. */
function raw(url: string, chunks: string[], { gapMs = 0, waitMs = 5_000 } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname, async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) break;
        socket.write(chunk);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
    let data = '';
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (d) => (data += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]));
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), closedAfter: Date.now() - started });
    });
    socket.on('timeout', reject);
  });
}

const SECURITY_HEADERS = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'strict-transport-security',
  'referrer-policy',
  'link',
  'cache-control',
];

let server: TestServer;
let staticDir: string;
beforeAll(async () => {
  // With a front end to serve, as in production: /api must never fall through to the files.
  staticDir = mkdtempSync(path.join(tmpdir(), 'pecflow-static-'));
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Pecflow</title>');
  server = await startTestServer({ staticDir, publicUrl: 'https://pecflow.example.fr/' });
});
afterAll(async () => {
  await server?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('errors the router or Node refused before (item 6)', () => {
  it('answer in French problem+json with the same security headers, Link and no-store as a route error', async () => {
    const reference = await server.get('/api/user/profile');
    expect(reference.status).toBe(401);
    const cases: [string, number, string][] = [
      [`/api/pec_dossiers/${'9'.repeat(150)}`, 414, 'L’adresse de la requête est trop longue.'],
      [`/api/pec_dossiers/${'9'.repeat(5000)}`, 414, 'L’adresse de la requête est trop longue.'],
      [`/api/users/${'9'.repeat(5000)}/history`, 414, 'L’adresse de la requête est trop longue.'],
      ['/api/%ZZ', 400, 'L’adresse de la requête est invalide.'],
      ['/api/users/%E0%A4%A', 400, 'L’adresse de la requête est invalide.'],
    ];
    for (const [url, status, detail] of cases) {
      const res = await server.get(url);
      expect(res.status, url.slice(0, 40)).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(res.body).toMatchObject({ status, detail, message: detail });
      for (const name of SECURITY_HEADERS) expect(res.headers.get(name), name).toBe(reference.headers.get(name));
    }
  });

  it('answers a request without Host in French problem+json, with the headers', async () => {
    const res = await raw(server.url, ['GET /api/user/profile HTTP/1.1\r\nConnection: close\r\n\r\n']);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(res.body)).toMatchObject({ status: 400, detail: 'L’en-tête Host est obligatoire.' });
    for (const name of ['content-security-policy', 'x-content-type-options', 'link']) expect(res.headers.get(name), name).toBeTruthy();
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps serving the front end for page routes, and its 404 for unknown API routes', async () => {
    const page = await fetch(`${server.url}/pec/123`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Pecflow</title>');
    // A HEAD (link checkers, monitoring) gets the page's headers, not a 404.
    const head = await fetch(`${server.url}/pec/123`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await head.text()).toBe('');
    const token = await server.login('audio@audition-horizon.fr');
    const missing = await server.get('/api/nimporte-quoi/123', token);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Ressource introuvable.');
    const missingHead = await fetch(`${server.url}/api/nimporte-quoi/123`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
    expect(missingHead.status).toBe(404);
  });
});

describe('caching and absolute URLs (item 12)', () => {
  it('sends Cache-Control: no-store on every API answer carrying data', async () => {
    const token = await server.login('audio@audition-horizon.fr');
    for (const url of ['/api/user/profile', '/api/pec_dossiers', '/api/shops', '/api/notifications', '/api/pec_dossiers/999999']) {
      const res = await server.get(url, token);
      expect(res.headers.get('cache-control'), url).toBe('no-store');
      expect(res.headers.get('etag'), url).toBeNull();
    }
    // The entrypoint and the docs carry no data (the API's description, the same for everyone): a browser may keep
    // them, and asks again each time (no-cache, with their ETag).
    for (const url of ['/api', '/api/docs.jsonld']) {
      const res = await server.get(url, token);
      expect(res.headers.get('cache-control'), url).toBe('no-cache');
      expect(res.headers.get('etag'), url).toMatch(/^W\/"/);
    }
  });

  it('builds the Link header and the JSON-LD context URL from PUBLIC_URL, whatever Host the request names', async () => {
    const token = await server.login('admin@pecflow.fr');
    const res = await raw(server.url, [
      `GET /api/holdings HTTP/1.1\r\nHost: intrus.example.com\r\nX-Forwarded-Host: intrus.example.com\r\nAuthorization: Bearer ${token}\r\nAccept: application/ld+json\r\nConnection: close\r\n\r\n`,
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe('<https://pecflow.example.fr/api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"');
    // Chunked transfer: the JSON document sits between the chunk sizes.
    expect(res.body).toContain('"@context":"https://pecflow.example.fr/api/contexts/Holding"');
    expect(res.body).not.toContain('intrus');
  });
});

describe('slow clients (item 12)', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ timeouts: { headersMs: 500, requestMs: 1_000, idleMs: 1_500 } });
  });
  afterAll(() => slow?.close());

  it('cannot hold a socket by sending the headers one byte at a time', async () => {
    const head = 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Lent: ' + 'a'.repeat(40);
    const res = await raw(slow.url, head.split(''), { gapMs: 100, waitMs: 10_000 });
    expect(res.closedAfter).toBeLessThan(4_000);
    expect(res.status).toBe(408);
  });

  it('cannot hold a socket by sending a body slowly', async () => {
    const chunks = [
      'POST /api/login_check HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
      ...'{"email":"a@b.fr"'.split(''),
    ];
    const res = await raw(slow.url, chunks, { gapMs: 150, waitMs: 10_000 });
    expect(res.closedAfter).toBeLessThan(4_000);
  });

  it('keeps a live-event stream open longer than the timeouts', async () => {
    const token = await slow.login('audio@audition-horizon.fr');
    const controller = new AbortController();
    const res = await fetch(`${slow.url}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // A closed stream would end the read at once.
    const next = await Promise.race([reader.read().then((r) => (r.done ? 'closed' : 'data')), new Promise((r) => setTimeout(() => r('open'), 300))]);
    expect(next).not.toBe('closed');
    controller.abort();
  });
});
