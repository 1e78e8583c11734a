// The API docs are read once per page load, by one request shared by the admin schema, the access checks and the
// Hydra provider's introspection, and parsed once per version of them: the browser keeps the parse with the docs'
// ETag, asks with If-None-Match at the next load and uses its parse on a 304. The read public/boot.js starts for a
// signed-in visitor is taken over, not made twice.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { apiDocumentation } from '../../server/hydra/docs';
import { RESOURCES } from '../../server/resources';

const request = { server: { ctx: { config: { publicUrl: 'http://localhost' } } } } as never;
const KEPT = 'pecflow.apiDocs';
const KEPT_TAG = 'pecflow.apiDocs.etag';

let docs: Record<string, unknown>;
let tag: string;
/** The docs requests: the If-None-Match each carried, and the status it got. */
let sent: { ifNoneMatch: string | null; status: number }[];

beforeEach(() => {
  vi.resetModules(); // a new page load: nothing read yet in memory
  localStorage.clear();
  docs = apiDocumentation(request, RESOURCES) as Record<string, unknown>;
  tag = 'W/"v1"';
  sent = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const { pathname } = new URL(String(input), 'http://localhost');
    if (pathname !== '/api/docs.jsonld') return new Response('', { status: 404 });
    const ifNoneMatch = new Headers(init.headers).get('If-None-Match');
    const status = ifNoneMatch === tag ? 304 : 200;
    sent.push({ ifNoneMatch, status });
    return status === 304
      ? new Response(null, { status, headers: { ETag: tag } })
      : new Response(JSON.stringify(docs), { headers: { 'Content-Type': 'application/ld+json', ETag: tag } });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (window as { pecflowDocs?: unknown }).pecflowDocs;
});

const load = async () => (await import('../../src/dataProvider/adminSchema')).readApiDocs();
/** What boot.js does for a signed-in visitor: the same request, with the kept tag, before the application runs. */
const bootRead = () => {
  const kept = localStorage.getItem(KEPT_TAG);
  (window as { pecflowDocs?: Promise<Response> }).pecflowDocs = fetch('/api/docs.jsonld', {
    headers: kept ? { Accept: 'application/ld+json', 'If-None-Match': kept } : { Accept: 'application/ld+json' },
  });
};

it('keeps the parse with its ETag; the next load asks with If-None-Match and uses the kept parse on a 304', async () => {
  const first = await load();
  expect(sent).toEqual([{ ifNoneMatch: null, status: 200 }]);
  expect(localStorage.getItem(KEPT_TAG)).toBe(tag);
  expect(first.admin.entities.find((e) => e.name === 'holdings')?.label.plural).toBe('Organisations');

  vi.resetModules();
  const second = await load();
  expect(sent[1]).toEqual({ ifNoneMatch: tag, status: 304 });
  expect(second).toEqual(first);
});

it('a new version of the docs (another ETag) replaces the kept parse', async () => {
  await load();
  const holding = (docs['hydra:supportedClass'] as { '@id': string; 'pecflow:admin': { label: { plural: string } } }[]).find((c) => c['@id'] === '#Holding')!;
  holding['pecflow:admin'].label.plural = 'Groupes';
  tag = 'W/"v2"';

  vi.resetModules();
  const fresh = await load();
  expect(sent[1]).toEqual({ ifNoneMatch: 'W/"v1"', status: 200 });
  expect(fresh.admin.entities.find((e) => e.name === 'holdings')?.label.plural).toBe('Groupes');
  expect(fresh.etag).toBe('W/"v2"');
  expect(localStorage.getItem(KEPT_TAG)).toBe('W/"v2"');
});

it("takes over boot.js's read, and shares one request between the admin schema, the access checks and the introspection", async () => {
  await load();
  vi.resetModules();
  bootRead();
  const { dataProvider } = await import('../../src/dataProvider');
  const { readAdminSchema } = await import('../../src/dataProvider/adminSchema');
  const [schema, introspected] = await Promise.all([dataProvider.adminSchema(), dataProvider.introspect(), readAdminSchema()]);
  expect(sent).toEqual([
    { ifNoneMatch: null, status: 200 },
    { ifNoneMatch: tag, status: 304 },
  ]);
  expect(schema.entities.map((e) => e.name)).toContain('shops');
  expect(introspected.data.resources?.find((r) => r.name === 'shops')?.fields?.find((f) => f.name === 'company')?.reference).toMatchObject({
    name: 'companies',
  });
});

it('does not use a parse another build made: a 304 to its tag is followed by a full read', async () => {
  await load();
  localStorage.setItem(KEPT, JSON.stringify({ ...JSON.parse(localStorage.getItem(KEPT)!), parser: 'http://localhost/assets/index-ancien.js' }));
  vi.resetModules();
  bootRead();
  const read = await load();
  expect(sent.slice(1)).toEqual([
    { ifNoneMatch: tag, status: 304 },
    { ifNoneMatch: null, status: 200 },
  ]);
  expect(read.admin.entities.length).toBeGreaterThan(0);
  expect(JSON.parse(localStorage.getItem(KEPT)!).parser).not.toBe('http://localhost/assets/index-ancien.js');
});
