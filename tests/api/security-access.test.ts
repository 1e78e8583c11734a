// Issue 12, items 4, 5 and 10: no email oracle across organisations, role counts within the reader's organisation,
// bounded live-event streams and unpaginated PEC lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_USER, TOO_MANY_STREAMS } from '../../server/events/routes';
import { startTestServer, type ApiResponse, type TestServer } from './helpers/server';
import { expectViolation, holdingIds, idWhere, loginAll, mergePatch, seededRoleId, sqlRows, type Tokens } from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };
let superRole: number;
let assistantRole: number;
let niceShop: number;
beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'rivieraAdmin', 'lecture', 'audio']);
  org = await holdingIds(server);
  superRole = await seededRoleId(server, 'superAdmin');
  assistantRole = await seededRoleId(server, 'assistant');
  niceShop = (await sqlRows<{ id: number }>(server, 'select id from shops where holding_id = $1 order by id limit 1', [org.riviera]))[0]!.id;
});
afterAll(() => server?.close());

describe('creating or changing a user as an organisation administrator (item 4)', () => {
  const rivieraUser = (email: string, extra: Record<string, unknown> = {}) => ({
    firstName: 'Inès',
    lastName: 'Garnier',
    email,
    password: 'Horizon-Lyon-42!',
    holding: `/api/holdings/${org.riviera}`,
    status: 'Active',
    shops: [`/api/shops/${niceShop}`],
    roles: [`/api/roles/${assistantRole}`],
    ...extra,
  });
  const create = (body: unknown) => server.request('POST', '/api/users', { token: t.rivieraAdmin, body });
  const same = (a: ApiResponse, b: ApiResponse) => {
    expect(a.status).toBe(b.status);
    expect(a.body).toEqual(b.body);
  };
  // Taken in another organisation, taken by the platform's super administrator, and free.
  const elsewhere = 'audio@audition-horizon.fr';
  const platform = 'admin@pecflow.fr';
  const free = 'jamais-vu@optique-riviera.fr';

  it('answers a request that is wrong anyway the same, whether the email exists elsewhere or not', async () => {
    // A right the caller does not hold: refused for that, never for the email.
    const beyond = { roles: [`/api/roles/${superRole}`] };
    const answers = [await create(rivieraUser(elsewhere, beyond)), await create(rivieraUser(platform, beyond)), await create(rivieraUser(free, beyond))];
    expect(answers[2]!.status).toBe(422);
    expect(answers[2]!.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['roles']);
    same(answers[0]!, answers[2]!);
    same(answers[1]!, answers[2]!);
    // A centre of another organisation, the same.
    const foreignShop = { shops: [`/api/shops/${await idWhere(server, 'shops', 'holding_id', org.horizon)}`] };
    same(await create(rivieraUser(elsewhere, foreignShop)), await create(rivieraUser(free, foreignShop)));
    expect((await sqlRows(server, 'select 1 from users where email = $1', [free])).length).toBe(0);
  });

  it('refuses a taken email exactly as one taken in the caller’s own organisation, after every other check', async () => {
    const inside = await create(rivieraUser('direction@optique-riviera.fr'));
    expectViolation(inside, 'email', 'Cet email est déjà utilisé');
    same(await create(rivieraUser(elsewhere)), inside);
    same(await create(rivieraUser(platform)), inside);
    const created = await create(rivieraUser(free));
    expect(created.status).toBe(201);

    // Changing a user's email: the same rules.
    const patch = (body: unknown) => server.request('PATCH', `/api/users/${created.body.id}`, { token: t.rivieraAdmin, body, headers: mergePatch });
    const beyond = { roles: [`/api/roles/${superRole}`] };
    same(await patch({ email: elsewhere, ...beyond }), await patch({ email: 'autre-libre@optique-riviera.fr', ...beyond }));
    const insidePatch = await patch({ email: 'direction@optique-riviera.fr' });
    expectViolation(insidePatch, 'email', 'Cet email est déjà utilisé');
    same(await patch({ email: elsewhere }), insidePatch);
    same(await patch({ email: platform }), insidePatch);
    const [row] = await sqlRows<{ email: string }>(server, 'select email from users where id = $1', [created.body.id]);
    expect(row!.email).toBe(free);
  });
});

describe('GET /api/roles (item 5)', () => {
  it('counts only the holders the reader may see', async () => {
    const countIn = async (holdingId: number | null) =>
      Number(
        (
          await sqlRows<{ n: number }>(
            server,
            'select count(*)::int as n from user_roles ur join users u on u.id = ur.user_id where ur.role_id = $1 and ($2::int is null or u.holding_id = $2)',
            [assistantRole, holdingId],
          )
        )[0]!.n,
      );
    const countFor = async (token: string) => {
      const res = await server.get(`/api/roles/${assistantRole}`, token);
      expect(res.status).toBe(200);
      const list = await server.get('/api/roles?itemsPerPage=100', token);
      expect(list.body.member.find((r: { id: number }) => r.id === assistantRole).usersCount).toBe(res.body.usersCount);
      return res.body.usersCount as number;
    };
    const all = await countIn(null);
    const horizon = await countIn(org.horizon);
    expect(horizon).toBeGreaterThan(0);
    expect(all).toBeGreaterThan(horizon);
    expect(await countFor(t.horizonAdmin)).toBe(horizon);
    expect(await countFor(t.rivieraAdmin)).toBe(await countIn(org.riviera));
    expect(await countFor(t.admin)).toBe(all);
  });
});

describe('bounded work per user (item 10)', () => {
  it('refuses more than the allowed live-event streams per user with a French 429, and accepts one again once closed', async () => {
    const open = async (token: string) => {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
      return { res, controller };
    };
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await open(t.lecture));
    expect(streams.map((s) => s.res.status)).toEqual(Array(MAX_STREAMS_PER_USER).fill(200));
    const refused = await open(t.lecture);
    expect(refused.res.status).toBe(429);
    expect(refused.res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect((await refused.res.json()).detail).toBe(TOO_MANY_STREAMS);
    // Another user is not affected.
    const other = await open(t.audio);
    expect(other.res.status).toBe(200);
    other.controller.abort();
    // Closing one frees its place.
    streams.pop()!.controller.abort();
    let again: Awaited<ReturnType<typeof open>> | undefined;
    for (let i = 0; i < 20 && again?.res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      again = await open(t.lecture);
      if (again.res.status !== 200) await again.res.text();
    }
    expect(again!.res.status).toBe(200);
    again!.controller.abort();
    for (const stream of streams) stream.controller.abort();
  });

  it('refuses pagination=false on PEC files with a French error, and keeps it for reference lists', async () => {
    const res = await server.get('/api/pec_dossiers?pagination=false', t.lecture);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.body.detail).toBe('Cette liste se lit page par page (100 éléments au plus par page) : pagination=false n’est pas accepté.');
    expect((await server.get('/api/pec_dossiers?pagination=0', t.lecture)).status).toBe(400);
    expect((await server.get('/api/pec_dossiers?itemsPerPage=100', t.lecture)).status).toBe(200);

    // The spec's reference list, and the credentials list that is never paginated.
    const network = await idWhere(server, 'networks', 'is_default', true);
    const mutuals = await server.get(`/api/mutuals?network.id=${network}&pagination=false`, t.lecture);
    expect(mutuals.status).toBe(200);
    expect(mutuals.body.member.length).toBe(mutuals.body.totalItems);
    expect(mutuals.body.view).toBeUndefined();
    const credentials = await server.get('/api/credential_software', t.horizonAdmin);
    expect(credentials.status).toBe(200);
    expect(credentials.body.member.length).toBe(credentials.body.totalItems);
  });
});
