// /api/pec_views: the PEC list's saved views (issue 28). A view is its author's; shared, the organisation's users who
// see the PEC list read it and only the author changes or deletes it; another organisation never sees it (404).
// And the names' French order (Allianz before AXA, accents ignored) of the lists sorted by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonBody, TestServer } from './helpers/server';
import { startPecServer } from './helpers/pec';
import { expectProblem, expectViolation } from './helpers/backoffice';
import { SAVED_VIEW_MESSAGES, SAVED_VIEWS_PER_USER } from '#domain/savedViews';

let server: TestServer;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ server, tokens } = await startPecServer({ startWorkers: false }));
});
afterAll(() => server?.close());

const VIEWS = '/api/pec_views';
const view = (name: string, extra: JsonBody = {}) => ({
  name,
  query: { filter: { status: ['pending', 'approved'], mutual: '3' }, sort: 'datePeremption', order: 'ASC' },
  columns: ['status', 'numeroDossier', 'amountDue'],
  ...extra,
});
const create = (token: string, body: JsonBody) => server.request('POST', VIEWS, { token, body });
const names = async (token: string) => (await server.get(`${VIEWS}?itemsPerPage=100`, token)).body.member.map((m: JsonBody) => m.name);

describe('saved views', () => {
  it('keeps the name, the query and the columns of its author, private unless shared', async () => {
    const res = await create(tokens.audio, view('Santéclair à relancer'));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Santéclair à relancer',
      query: { filter: { status: ['pending', 'approved'], mutual: '3' }, sort: 'datePeremption', order: 'ASC' },
      columns: ['status', 'numeroDossier', 'amountDue'],
      shared: false,
      mine: true,
    });
    expect(await names(tokens.audio)).toContain('Santéclair à relancer');
    // A colleague of the same organisation does not see a private view, and cannot open it.
    expect(await names(tokens.assistant)).not.toContain('Santéclair à relancer');
    expect((await server.get(res.body['@id'], tokens.assistant)).status).toBe(404);
  });

  it('shared, is read by the organisation, changed and deleted by its author only', async () => {
    const res = await create(tokens.audio, view('Mes dossiers', { shared: true }));
    expect(res.status, res.text).toBe(201);
    const iri = res.body['@id'];
    const colleague = await server.get(iri, tokens.assistant);
    expect(colleague.status).toBe(200);
    expect(colleague.body).toMatchObject({ name: 'Mes dossiers', shared: true, mine: false, authorName: expect.any(String) });
    expect(await names(tokens.readOnly)).toContain('Mes dossiers');
    // Read-only staff keep views for themselves: sharing one is refused, in French, and nothing is written.
    const readOnlyShare = await create(tokens.readOnly, view('Publiée par la lecture', { shared: true }));
    expectViolation(readOnlyShare, 'shared', SAVED_VIEW_MESSAGES.shareNotAllowed);
    expect(await names(tokens.readOnly)).not.toContain('Publiée par la lecture');
    expect((await create(tokens.readOnly, view('Ma vue de lecture'))).status).toBe(201);

    // Another organisation never sees it: not listed, 404, and no write reaches it.
    expect(await names(tokens.rivieraAdmin)).not.toContain('Mes dossiers');
    expectProblem(await server.get(iri, tokens.rivieraAdmin), 404);
    expectProblem(
      await server.request('PATCH', iri, { token: tokens.rivieraAdmin, body: { name: 'Volée' }, headers: { 'content-type': 'application/merge-patch+json' } }),
      404,
    );
    expectProblem(await server.request('DELETE', iri, { token: tokens.rivieraAdmin }), 404);

    // A colleague reads it but may not rename, unshare or delete it.
    expectProblem(await server.request('PUT', iri, { token: tokens.assistant, body: view('Renommée') }), 403);
    expectProblem(await server.request('DELETE', iri, { token: tokens.assistant }), 403);

    // The author renames it and stops sharing it: the colleague no longer sees it.
    const renamed = await server.request('PUT', iri, { token: tokens.audio, body: view('Mes dossiers en attente', { shared: false }) });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Mes dossiers en attente', shared: false });
    expect((await server.get(iri, tokens.assistant)).status).toBe(404);
    expect((await server.request('DELETE', iri, { token: tokens.audio })).status).toBe(204);
    expect((await server.get(iri, tokens.audio)).status).toBe(404);
  });

  it('refuses an empty or too long name, a name the author already uses (in any letter case), and more views than the limit, in French', async () => {
    expectViolation(await create(tokens.horizonAdmin, view('   ')), 'name', SAVED_VIEW_MESSAGES.nameRequired);
    expectViolation(await create(tokens.horizonAdmin, view('x'.repeat(61))), 'name', SAVED_VIEW_MESSAGES.nameTooLong);
    expect((await create(tokens.horizonAdmin, view('Doublon'))).status).toBe(201);
    expectViolation(await create(tokens.horizonAdmin, view('Doublon')), 'name', SAVED_VIEW_MESSAGES.nameTaken);
    // Whatever its letter case and spaces around it.
    expectViolation(await create(tokens.horizonAdmin, view(' DOUBLON ')), 'name', SAVED_VIEW_MESSAGES.nameTaken);
    // Another user may use the same name.
    expect((await create(tokens.assistant, view('Doublon'))).status).toBe(201);
    for (let i = 1; i < SAVED_VIEWS_PER_USER; i++) expect((await create(tokens.horizonAdmin, view(`Vue ${i}`))).status).toBe(201);
    expectViolation(await create(tokens.horizonAdmin, view('Une de trop')), 'name', SAVED_VIEW_MESSAGES.tooMany);
    const badColumns = await create(tokens.assistant, view('Colonnes', { columns: ['status; drop table'] }));
    expect(badColumns.status).toBe(422);
    // A NUL character, which PostgreSQL's jsonb cannot hold, in a filter's key or deeper: a 422, never a 500.
    for (const filter of [{ 'a\u0000': 'b' }, { k: { '\u0000': 1 } }])
      expectViolation(await create(tokens.assistant, view('Octet nul', { query: { filter } })), 'query.filter', SAVED_VIEW_MESSAGES.filterInvalid);
    expectViolation(await create(tokens.assistant, view('Tri', { query: { filter: {}, sort: '1; drop' } })), 'query.sort', SAVED_VIEW_MESSAGES.sort);
  });

  it('asks for a token', async () => {
    expect((await server.get(VIEWS, '')).status).toBe(401);
  });
});

describe('names in French order', () => {
  it('sorts mutuals case- and accent-insensitively: Allianz before AXA, Émeraude among the E', async () => {
    const mutuals = await server.get('/api/mutuals?pagination=false&order[name]=asc', tokens.admin);
    expect(mutuals.status).toBe(200);
    const seen: string[] = mutuals.body.member.map((m: JsonBody) => m.name);
    const key = (name: string) =>
      name
        .normalize('NFD')
        .replace(/\p{Diacritic}/gu, '')
        .toLowerCase();
    const french = [...seen].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    expect(seen.map(key)).toEqual(french.map(key));
    const allianz = seen.findIndex((n) => /^allianz/i.test(n));
    const axa = seen.findIndex((n) => /^axa/i.test(n));
    expect(allianz).toBeGreaterThanOrEqual(0);
    expect(allianz).toBeLessThan(axa);
  });

  it('sorts the views the same way', async () => {
    for (const name of ['zèbre', 'Étoile', 'AXA relances', 'Allianz relances', 'avance'])
      expect((await create(tokens.rivieraAdmin, view(name))).status).toBe(201);
    expect(await names(tokens.rivieraAdmin)).toEqual(['Allianz relances', 'avance', 'AXA relances', 'Étoile', 'zèbre']);
    const desc = await server.get(`${VIEWS}?order[name]=desc`, tokens.rivieraAdmin);
    expect(desc.body.member.map((m: JsonBody) => m.name)).toEqual(['zèbre', 'Étoile', 'AXA relances', 'avance', 'Allianz relances']);
  });
});
