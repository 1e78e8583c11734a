// The Hydra provider reads the API description once before mapping any answer. A page's data must not wait behind it:
// a read's request goes out at once and its answer is mapped once the description is read; a write, whose body is built
// from the description, is sent only after it.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { holdingsResource } from '../../server/resources/holdings';
import { hydraServer } from './settings/harness';

const HOLDING = { '@id': '/api/holdings/1', '@type': 'Holding', id: 1, name: 'Audition Horizon' };

let sent: string[];
let releaseDocs: () => void;

beforeEach(() => {
  vi.resetModules(); // a fresh data provider: its description not read yet
  sent = [];
  const docsRead = new Promise<void>((resolve) => (releaseDocs = resolve));
  const serve = hydraServer([holdingsResource]);
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    sent.push(`${init.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname === '/api/docs.jsonld') await docsRead;
    const headers = { 'Content-Type': 'application/ld+json' };
    if (url.pathname === '/api/holdings' && !init.method?.match(/POST/)) {
      return new Response(JSON.stringify({ '@id': '/api/holdings', '@type': 'Collection', totalItems: 1, member: [HOLDING] }), { headers });
    }
    if (url.pathname === '/api/holdings') return new Response(JSON.stringify(HOLDING), { status: 201, headers });
    return serve(input);
  });
});
afterEach(() => vi.unstubAllGlobals());

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

it('sends a list request while the API description is still being read, and maps its answer once it is read', async () => {
  const { dataProvider } = await import('../../src/dataProvider');
  let answered = false;
  const list = dataProvider.getList('holdings', { pagination: { page: 1, perPage: 20 }, sort: { field: 'name', order: 'ASC' }, filter: {} }).then((page) => {
    answered = true;
    return page;
  });
  await vi.waitFor(() => expect(sent).toContain('GET /api/holdings'));
  expect(sent).toContain('GET /api/docs.jsonld');
  await settle();
  expect(answered).toBe(false);

  releaseDocs();
  const page = await list;
  expect(page.total).toBe(1);
  expect(page.data[0]).toMatchObject({ id: '/api/holdings/1', name: 'Audition Horizon' });
});

it('sends a write only once the API description is read', async () => {
  const { dataProvider } = await import('../../src/dataProvider');
  const created = dataProvider.create('holdings', { data: { name: 'Audition Horizon' } });
  await vi.waitFor(() => expect(sent).toContain('GET /api/docs.jsonld'));
  await settle();
  expect(sent).not.toContain('POST /api/holdings');

  releaseDocs();
  await expect(created).resolves.toMatchObject({ data: { id: '/api/holdings/1' } });
  expect(sent).toContain('POST /api/holdings');
});
