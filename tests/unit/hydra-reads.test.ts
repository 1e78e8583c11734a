// The Hydra provider reads the API description once before mapping any answer. A page's data must not wait behind it:
// a read's request goes out at once and its answer is mapped once the description is read; a write, whose body is built
// from the description, is sent only after it.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { holdingsResource } from '../../server/resources/holdings';
import { API_DESCRIPTION_ERROR_MESSAGE } from '#domain/errors';
import { hydraServer } from './settings/harness';

const HOLDING = { '@id': '/api/holdings/1', '@type': 'Holding', id: 1, name: 'Audition Horizon' };

let sent: string[];
let releaseDocs: () => void;
/** How many reads of the description fail as an unreachable network would. */
let failingDocs: number;

beforeEach(() => {
  vi.resetModules(); // a fresh data provider: its description not read yet
  sent = [];
  failingDocs = 0;
  const docsRead = new Promise<void>((resolve) => (releaseDocs = resolve));
  const serve = hydraServer([holdingsResource]);
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    sent.push(`${init.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname === '/api/docs.jsonld' && failingDocs > 0) {
      failingDocs--;
      throw new TypeError('Failed to fetch');
    }
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

it('fails a list whose description cannot be read with a French message, and reads the description again at the next call', async () => {
  const { dataProvider } = await import('../../src/dataProvider');
  failingDocs = 1;
  const params = { pagination: { page: 1, perPage: 20 }, sort: { field: 'name', order: 'ASC' as const }, filter: {} };
  await expect(dataProvider.getList('holdings', params)).rejects.toThrow(API_DESCRIPTION_ERROR_MESSAGE);

  releaseDocs();
  await expect(dataProvider.getList('holdings', params)).resolves.toMatchObject({ total: 1, data: [{ id: '/api/holdings/1' }] });
  expect(sent.filter((s) => s === 'GET /api/docs.jsonld')).toHaveLength(2);
});
