// API answers travel compressed to clients that accept it (brotli first, else gzip): the same bytes once decoded, and
// plain for a client that does not ask. Read through node:http, which (unlike fetch) leaves the body as sent.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, mergePatch } from './helpers/backoffice';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
let token: string;
let platformToken: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await server.login(ACCOUNTS.horizonAdmin);
  platformToken = await server.login(ACCOUNTS.admin);
});
afterAll(() => server.close());

function get(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('compressed answers', () => {
  it('sends the API docs in brotli to a client that accepts it: a tenth of the size, the same document', async () => {
    const plain = await get('/api/docs.jsonld', { accept: 'application/ld+json' });
    const compressed = await get('/api/docs.jsonld', { accept: 'application/ld+json', 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(String(compressed.headers.vary)).toMatch(/accept-encoding/i);
    expect(compressed.body.length).toBeLessThan(plain.body.length / 5);
    expect(brotliDecompressSync(compressed.body).toString('utf8')).toBe(plain.body.toString('utf8'));
  });

  it('sends a list in gzip to a client that accepts only gzip, with its headers unchanged', async () => {
    // A list the demo's robot does not change between the two reads (the PEC list may).
    const headers = { accept: 'application/ld+json', authorization: `Bearer ${token}` };
    const plain = await get('/api/mutuals?itemsPerPage=30', headers);
    const compressed = await get('/api/mutuals?itemsPerPage=30', { ...headers, 'accept-encoding': 'gzip' });
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers['content-type']).toBe(plain.headers['content-type']);
    expect(compressed.headers['cache-control']).toBe('no-store');
    expect(compressed.headers.link).toBe(plain.headers.link);
    const members = JSON.parse(gunzipSync(compressed.body).toString('utf8')) as { member: unknown[] };
    expect(members).toEqual(JSON.parse(plain.body.toString('utf8')));
    expect(members.member.length).toBeGreaterThan(0);
  });

  it('leaves an error answer readable: a refused call is the same French problem, compressed or not', async () => {
    const compressed = await get('/api/pec_dossiers', { accept: 'application/ld+json', 'accept-encoding': 'br' });
    expect(compressed.status).toBe(401);
    const body = compressed.headers['content-encoding'] === 'br' ? brotliDecompressSync(compressed.body) : compressed.body;
    expect(JSON.parse(body.toString('utf8'))).toMatchObject({ status: 401 });
  });
});

// A kept list (server/hydra/listCache.ts) is compressed once and that copy sent while the list is kept
// (server/http/compression.ts): it must never be older than the list, nor another address's answer.
describe('compressed kept lists', () => {
  const BROWSER = 'gzip, deflate, br, zstd';
  const headers = () => ({ accept: 'application/ld+json', authorization: `Bearer ${platformToken}` });
  const decoded = (answer: Awaited<ReturnType<typeof get>>) =>
    (answer.headers['content-encoding'] === 'br'
      ? brotliDecompressSync(answer.body)
      : answer.headers['content-encoding'] === 'gzip'
        ? gunzipSync(answer.body)
        : answer.body
    ).toString('utf8');

  it('sends the same document as plain, again and again, and the next change at once', async () => {
    const path = '/api/mutuals?itemsPerPage=30';
    await get(path, headers());
    const plain = await get(path, headers());
    const first = await get(path, { ...headers(), 'accept-encoding': BROWSER });
    const again = await get(path, { ...headers(), 'accept-encoding': BROWSER });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['content-type']).toBe(plain.headers['content-type']);
    expect(Number(first.headers['content-length'])).toBe(first.body.length);
    expect(String(first.headers.vary)).toMatch(/accept-encoding/i);
    expect(first.body.length).toBeLessThan(plain.body.length / 3);
    expect(decoded(first)).toBe(plain.body.toString('utf8'));
    expect(decoded(again)).toBe(plain.body.toString('utf8'));

    const { member } = JSON.parse(plain.body.toString('utf8')) as { member: { id: number; name: string }[] };
    const renamed = `Mutuelle compressée ${Date.now()}`;
    const patched = await server.request('PATCH', `/api/mutuals/${member[0]!.id}`, {
      token: platformToken,
      body: { name: renamed },
      headers: mergePatch,
    });
    expect(patched.status).toBe(200);
    const changed = decoded(await get(path, { ...headers(), 'accept-encoding': BROWSER }));
    expect(changed).toContain(renamed);
    expect(changed).toBe((await get(path, headers())).body.toString('utf8'));
  });

  it('answers each address with its own page links, however many addresses read the same page', async () => {
    for (const extra of ['', '&page=1', '&a=1', '&b=2', '&c=3', '&a=1']) {
      const path = `/api/mutuals?itemsPerPage=30${extra}`;
      const plain = await get(path, headers());
      const compressed = await get(path, { ...headers(), 'accept-encoding': 'gzip' });
      expect(compressed.headers['content-encoding'], path).toBe('gzip');
      expect(decoded(compressed), path).toBe(plain.body.toString('utf8'));
    }
  });

  it('follows what the client accepts: gzip when brotli is refused or for any, plain when nothing is accepted or compression is refused', async () => {
    const path = '/api/mutuals?itemsPerPage=30';
    const plain = (await get(path, headers())).body.toString('utf8');
    const gzip = await get(path, { ...headers(), 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(plain);
    const any = await get(path, { ...headers(), 'accept-encoding': '*' });
    expect(any.headers['content-encoding']).toBe('gzip');
    expect(decoded(any)).toBe(plain);
    const refused = await get(path, { ...headers(), 'accept-encoding': 'br', 'x-no-compression': '1' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString('utf8')).toBe(plain);
    for (const accepted of ['identity', 'deflate']) {
      const answer = await get(path, { ...headers(), 'accept-encoding': accepted });
      expect(answer.headers['content-encoding'], accepted).toBeUndefined();
      expect(answer.body.toString('utf8'), accepted).toBe(plain);
    }
  });
});
