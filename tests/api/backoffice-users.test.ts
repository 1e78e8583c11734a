// Utilisateurs (/api/users): write-only password (argon2id, required on create, kept when empty), unique email,
// centres and roles as to-many IRIs within the user's organisation, no right handed out beyond the editor's own,
// tenancy, permissions, audit with the password masked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import type { SeededRoleKey } from '#domain/roles';
import {
  auditRows,
  checkDateRange,
  checkFilter,
  checkManyByIri,
  checkPaginationAndSort,
  expectForbidden,
  expectHiddenForEveryVerb,
  expectProblem,
  expectViolation,
  holdingIds,
  idWhere,
  ids,
  listAll,
  loginAll,
  mergePatch,
  sqlRows,
  userId,
  type Tokens,
  firstSignIn,
} from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };
let shopsOf: { bastille: number; boulogne: number; nice: number };
let roleIds: Record<SeededRoleKey, number>;

const user = (email: string, extra: Record<string, unknown> = {}) => ({
  firstName: 'Élodie',
  lastName: 'Marchand',
  email,
  password: 'Horizon-Lyon-42!',
  holding: `/api/holdings/${org.horizon}`,
  status: 'Active',
  shops: [`/api/shops/${shopsOf.bastille}`],
  roles: [`/api/roles/${roleIds.assistant}`],
  ...extra,
});

async function createUser(email: string, extra: Record<string, unknown> = {}, token = t.horizonAdmin) {
  const res = await server.request('POST', '/api/users', { token, body: user(email, extra) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'lecture', 'rivieraAdmin']);
  org = await holdingIds(server);
  shopsOf = {
    bastille: await idWhere(server, 'shops', 'name', 'Horizon Paris Bastille'),
    boulogne: await idWhere(server, 'shops', 'name', 'Horizon Boulogne'),
    nice: await idWhere(server, 'shops', 'name', 'Riviera Nice Médecin'),
  };
  roleIds = Object.fromEntries(
    (await sqlRows<{ id: number; seed_key: SeededRoleKey }>(server, 'select id, seed_key from roles where seed_key is not null')).map((r) => [
      r.seed_key,
      Number(r.id),
    ]),
  ) as Record<SeededRoleKey, number>;
});
afterAll(() => server?.close());

describe('GET /api/users', () => {
  it('pages, sorts, filters and searches in both conventions', async () => {
    await checkPaginationAndSort(server, t.admin, 'users', 'lastName');
    await checkPaginationAndSort(server, t.admin, 'users', 'email');
    await createUser('inactif@audition-horizon.fr', { status: 'Inactive' });
    await checkFilter(server, t.admin, 'users', 'status', (u) => u.status);
    await checkFilter(server, t.admin, 'users', 'holding', (u) => u.holding?.['@id']);
    await checkFilter(server, t.admin, 'users', 'email', (u) => u.email);
    await checkManyByIri(server, t.admin, 'users');
    const audio = await userId(server, 'audio');
    await checkDateRange(server, t.admin, 'users', 'users', audio);
    await checkDateRange(server, t.admin, 'users', 'users', audio, 'lastLoginAt', 'last_login_at');
  });

  it('searches first name, last name and email without accents', async () => {
    expect((await listAll(server, t.admin, 'users', 'search=lefevre')).map((u) => u.email)).toEqual(['direction@audition-horizon.fr']);
    expect((await listAll(server, t.admin, 'users', 'search=optique-riviera')).map((u) => u.email)).toEqual(['direction@optique-riviera.fr']);
  });

  it('shows fullName, initials, the embedded organisation, centres and roles as IRIs, never a password', async () => {
    const [audio] = await listAll(server, t.admin, 'users', 'email=audio@audition-horizon.fr');
    expect(audio).toMatchObject({
      '@type': 'User',
      firstName: 'Sophie',
      lastName: 'Bernard',
      fullName: 'Sophie Bernard',
      initials: 'SB',
      holding: { '@id': `/api/holdings/${org.horizon}`, name: 'Audition Horizon' },
      roles: [`/api/roles/${roleIds.audioprothesiste}`],
      status: 'Active',
    });
    expect(audio.shops.sort()).toEqual([`/api/shops/${shopsOf.bastille}`, `/api/shops/${shopsOf.boulogne}`].sort());
    expect(audio).not.toHaveProperty('password');
    expect(audio).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(await listAll(server, t.admin, 'users'))).not.toContain('argon2');
  });

  it('confines each organisation to its users (the platform administrator is in none)', async () => {
    const horizon = await listAll(server, t.horizonAdmin, 'users');
    expect(horizon.every((u) => u.holding?.id === org.horizon)).toBe(true);
    expect(horizon.map((u) => u.email)).not.toContain('admin@pecflow.fr');
    expect((await listAll(server, t.rivieraAdmin, 'users')).map((u) => u.email)).toEqual(['direction@optique-riviera.fr']);
  });

  it('refuses users and roles to a user without settings.users.view', async () => {
    await expectForbidden(server, t.audio, 'GET', '/api/users');
    await expectForbidden(server, t.lecture, 'GET', `/api/users/${await userId(server, 'audio')}`);
  });
});

describe('POST /api/users', () => {
  it('creates a user whose password is stored as argon2id and works at sign-in', async () => {
    const created = await createUser('nouvelle@audition-horizon.fr', { email: '  Nouvelle@Audition-Horizon.FR ' });
    expect(created).toMatchObject({
      email: 'nouvelle@audition-horizon.fr',
      fullName: 'Élodie Marchand',
      initials: 'ÉM',
      shops: [`/api/shops/${shopsOf.bastille}`],
    });
    expect(created).not.toHaveProperty('password');
    const [row] = await sqlRows(server, 'select password_hash from users where id = $1', [created.id]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    // The password the administrator typed opens no session: its owner chooses another first.
    expect((await firstSignIn(server, 'nouvelle@audition-horizon.fr', 'Horizon-Lyon-42!')).token).toBeTruthy();
    // The audit says a password was set, never which.
    const [audit] = await auditRows(server, 'users', created.id);
    expect(audit).toMatchObject({ action: 'user.create', actor_email: 'direction@audition-horizon.fr', holding_id: org.horizon });
    expect(audit!.changes.password).toEqual({ before: null, after: '••••••' });
    expect(JSON.stringify(audit!.changes)).not.toContain('Horizon-Lyon-42!');
    expect(JSON.stringify(audit!.changes)).not.toContain('argon2');
    expect(audit!.changes.roles).toEqual({ before: null, after: [roleIds.assistant] });
  });

  it('answers each invalid field with its French message (spec section 5)', async () => {
    const res = await server.request('POST', '/api/users', {
      token: t.horizonAdmin,
      body: { firstName: 'É', lastName: 'M', email: 'pas-un-email', password: '12345', holding: 'x', status: 'Supprimé', shops: 'tous' },
    });
    expectViolation(res, 'firstName', 'Prénom requis');
    expectViolation(res, 'lastName', 'Nom requis');
    expectViolation(res, 'email', 'Email invalide');
    expectViolation(res, 'holding', 'Organisation requise');
    expectViolation(res, 'status', 'Statut invalide');
    expectViolation(res, 'shops', 'Centre invalide');
    // The password policy is checked once the other fields are right (issue 26: CNIL, délibération 2022-100).
    expectViolation(
      await server.request('POST', '/api/users', { token: t.horizonAdmin, body: user('faible@audition-horizon.fr', { password: '12345' }) }),
      'password',
      'Le mot de passe doit contenir au moins 12 caractères (ou 14 pour une phrase de passe)',
    );
    expectViolation(
      await server.request('POST', '/api/users', { token: t.horizonAdmin, body: user('sans-mdp@audition-horizon.fr', { password: '' }) }),
      'password',
      'Le mot de passe est requis lors de la création d’un utilisateur',
    );
    expectViolation(
      await server.request('POST', '/api/users', { token: t.horizonAdmin, body: user('sans-mdp@audition-horizon.fr', { password: undefined }) }),
      'password',
      'Le mot de passe est requis lors de la création d’un utilisateur',
    );
  });

  it('refuses an email already used, whatever its case', async () => {
    expectViolation(
      await server.request('POST', '/api/users', { token: t.horizonAdmin, body: user('AUDIO@audition-horizon.fr') }),
      'email',
      'Cet email est déjà utilisé',
    );
    // Also across organisations, and on update.
    expectViolation(
      await server.request('POST', '/api/users', {
        token: t.rivieraAdmin,
        body: user('audio@audition-horizon.fr', { holding: `/api/holdings/${org.riviera}`, shops: [], roles: [] }),
      }),
      'email',
      'Cet email est déjà utilisé',
    );
    const created = await createUser('doublon@audition-horizon.fr');
    expectViolation(
      await server.request('PATCH', `/api/users/${created.id}`, { token: t.horizonAdmin, body: { email: 'lecture@audition-horizon.fr' }, headers: mergePatch }),
      'email',
      'Cet email est déjà utilisé',
    );
    // Its own email is not "already used" by itself.
    expect(
      (
        await server.request('PATCH', `/api/users/${created.id}`, {
          token: t.horizonAdmin,
          body: { email: 'doublon@audition-horizon.fr' },
          headers: mergePatch,
        })
      ).status,
    ).toBe(200);
  });

  it('creates exactly one user when the same new email is posted several times at once, and never answers 500', async () => {
    // On PostgreSQL the requests run concurrently: the check can pass twice and the unique index decides (409).
    const results = await Promise.all(
      Array.from({ length: 6 }, () => server.request('POST', '/api/users', { token: t.horizonAdmin, body: user('simultane@audition-horizon.fr') })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const status of statuses) expect([201, 409, 422]).toContain(status);
  });

  it("refuses another organisation, another organisation's centres and roles", async () => {
    expectViolation(
      await server.request('POST', '/api/users', { token: t.horizonAdmin, body: user('x1@exemple.fr', { holding: `/api/holdings/${org.riviera}` }) }),
      'holding',
      'Organisation introuvable ou hors de votre périmètre.',
    );
    expectViolation(
      await server.request('POST', '/api/users', { token: t.horizonAdmin, body: user('x2@exemple.fr', { shops: [`/api/shops/${shopsOf.nice}`] }) }),
      'shops',
      'Centre introuvable ou hors de votre périmètre.',
    );
    // A platform administrator sees every centre, but a user's centres are still those of the user's organisation.
    expectViolation(
      await server.request('POST', '/api/users', { token: t.admin, body: user('x3@exemple.fr', { shops: [`/api/shops/${shopsOf.nice}`] }) }),
      'shops',
      'Les centres doivent appartenir à l’organisation de l’utilisateur.',
    );
    const rivieraRole = await server.request('POST', '/api/roles', { token: t.rivieraAdmin, body: { name: 'Opticien Riviera', permissions: ['pec.view'] } });
    expect(rivieraRole.status, rivieraRole.text).toBe(201);
    expectViolation(
      await server.request('POST', '/api/users', { token: t.horizonAdmin, body: user('x4@exemple.fr', { roles: [rivieraRole.body['@id']] }) }),
      'roles',
      'Rôle introuvable ou hors de votre périmètre.',
    );
    expectViolation(
      await server.request('POST', '/api/users', { token: t.admin, body: user('x5@exemple.fr', { roles: [rivieraRole.body['@id']] }) }),
      'roles',
      'Les rôles doivent être ceux de la plateforme ou de l’organisation de l’utilisateur.',
    );
  });

  it('never lets an editor hand out a right they do not hold', async () => {
    const res = await server.request('POST', '/api/users', {
      token: t.horizonAdmin,
      body: user('escalade@audition-horizon.fr', { roles: [`/api/roles/${roleIds.superAdmin}`] }),
    });
    expectViolation(res, 'roles', 'Vous ne pouvez pas attribuer le rôle « Super administrateur » : il donne des droits que vous n’avez pas.');
    const created = await createUser('promue@audition-horizon.fr');
    expectViolation(
      await server.request('PATCH', `/api/users/${created.id}`, {
        token: t.horizonAdmin,
        body: { roles: [`/api/roles/${roleIds.superAdmin}`] },
        headers: mergePatch,
      }),
      'roles',
      'Vous ne pouvez pas attribuer le rôle « Super administrateur » : il donne des droits que vous n’avez pas.',
    );
    // The platform administrator may; from then on the organisation administrator can no longer change that account
    // (its email, password or roles: that would be taking over rights they do not hold) nor delete it.
    expect(
      (
        await server.request('PATCH', `/api/users/${created.id}`, {
          token: t.admin,
          body: { roles: [`/api/roles/${roleIds.superAdmin}`] },
          headers: mergePatch,
        })
      ).status,
    ).toBe(200);
    const beyondRights = 'Accès refusé : cet utilisateur a des droits que vous n’avez pas.';
    for (const body of [
      { password: 'Reprise-Bleue-2026' },
      { email: 'reprise@audition-horizon.fr' },
      { lastName: 'Martin' },
      { roles: [`/api/roles/${roleIds.audioprothesiste}`] },
    ]) {
      expectProblem(await server.request('PATCH', `/api/users/${created.id}`, { token: t.horizonAdmin, body, headers: mergePatch }), 403, beyondRights);
    }
    expectProblem(
      await server.request('PUT', `/api/users/${created.id}`, {
        token: t.horizonAdmin,
        body: user('promue@audition-horizon.fr', { password: 'Reprise-Bleue-2026' }),
      }),
      403,
      beyondRights,
    );
    expectProblem(await server.request('DELETE', `/api/users/${created.id}`, { token: t.horizonAdmin }), 403, beyondRights);
    expectProblem(
      await server.request('POST', '/api/users/bulk-update', { token: t.horizonAdmin, body: { ids: [created.id], data: { status: 'Locked' } } }),
      403,
      `Élément ${created.id} : ${beyondRights}`,
    );
    const [unchanged] = await sqlRows(server, 'select email, last_name, status from users where id = $1', [created.id]);
    expect(unchanged).toMatchObject({ email: 'promue@audition-horizon.fr', last_name: 'Marchand', status: 'Active' });
    expect((await firstSignIn(server, 'promue@audition-horizon.fr', 'Horizon-Lyon-42!')).token).toBeTruthy();
    // Once the platform administrator takes the right back, the organisation administrator manages the account again.
    expect(
      (
        await server.request('PATCH', `/api/users/${created.id}`, {
          token: t.admin,
          body: { roles: [`/api/roles/${roleIds.assistant}`] },
          headers: mergePatch,
        })
      ).status,
    ).toBe(200);
    const granted = await server.request('PATCH', `/api/users/${created.id}`, {
      token: t.horizonAdmin,
      body: { roles: [`/api/roles/${roleIds.audioprothesiste}`] },
      headers: mergePatch,
    });
    expect(granted.body.roles).toEqual([`/api/roles/${roleIds.audioprothesiste}`]);
  });

  it('keeps a user from changing their own roles', async () => {
    const self = await userId(server, 'horizonAdmin');
    expectViolation(
      await server.request('PATCH', `/api/users/${self}`, {
        token: t.horizonAdmin,
        body: { roles: [`/api/roles/${roleIds.readOnly}`] },
        headers: mergePatch,
      }),
      'roles',
      'Vous ne pouvez pas modifier vos propres rôles.',
    );
    // Naming the roles they already have (a whole form sent back) is no change.
    const [me] = await sqlRows<{ roles: number[] }>(server, 'select array_agg(role_id) as roles from user_roles where user_id = $1', [self]);
    const same = await server.request('PATCH', `/api/users/${self}`, {
      token: t.horizonAdmin,
      body: { roles: me!.roles.map((id) => `/api/roles/${id}`) },
      headers: mergePatch,
    });
    expect(same.status, same.text).toBe(200);
  });

  it('is refused without settings.users.create', async () => {
    await expectForbidden(server, t.audio, 'POST', '/api/users', user('refus@audition-horizon.fr'));
  });
});

describe('PUT, PATCH, DELETE /api/users/{id}', () => {
  it('keeps the password when it is empty or absent, changes it otherwise and ends the sessions', async () => {
    const created = await createUser('motdepasse@audition-horizon.fr');
    const hash = async () => (await sqlRows(server, 'select password_hash from users where id = $1', [created.id]))[0]!.password_hash;
    const original = await hash();
    const put = await server.request('PUT', `/api/users/${created.id}`, {
      token: t.horizonAdmin,
      body: user('motdepasse@audition-horizon.fr', { password: '', lastName: 'Renard' }),
    });
    expect(put.status, put.text).toBe(200);
    expect(await hash()).toBe(original);
    await server.request('PATCH', `/api/users/${created.id}`, { token: t.horizonAdmin, body: { password: null }, headers: mergePatch });
    expect(await hash()).toBe(original);

    const login = { body: await firstSignIn(server, 'motdepasse@audition-horizon.fr', 'Horizon-Lyon-42!') };
    const changed = await server.request('PATCH', `/api/users/${created.id}`, {
      token: t.horizonAdmin,
      body: { password: 'Nouveau-Depart-2026!' },
      headers: mergePatch,
    });
    expect(changed.status).toBe(200);
    expect(await hash()).not.toBe(original);
    expect((await server.request('POST', '/api/token/refresh', { body: { refresh_token: login.body.refresh_token } })).status).toBe(401);
    const last = (await auditRows(server, 'users', created.id)).at(-1)!;
    expect(last.changes).toEqual({ password: { before: '••••••', after: '••••••' } });
    expect((await firstSignIn(server, 'motdepasse@audition-horizon.fr', 'Nouveau-Depart-2026!', 'Encore-Autre-2026!')).token).toBeTruthy();
    expectViolation(
      await server.request('PATCH', `/api/users/${created.id}`, { token: t.horizonAdmin, body: { password: 'court' }, headers: mergePatch }),
      'password',
      'Le mot de passe doit contenir au moins 12 caractères (ou 14 pour une phrase de passe)',
    );
  });

  it('PUT keeps the centres and roles it does not name; PATCH replaces the list it names', async () => {
    const created = await createUser('listes@audition-horizon.fr', { shops: [`/api/shops/${shopsOf.bastille}`, `/api/shops/${shopsOf.boulogne}`] });
    const { shops: _s, roles: _r, ...withoutLists } = user('listes@audition-horizon.fr', { firstName: 'Inès' });
    const put = await server.request('PUT', `/api/users/${created.id}`, { token: t.horizonAdmin, body: withoutLists });
    expect(put.body.shops).toHaveLength(2);
    expect(put.body.roles).toEqual([`/api/roles/${roleIds.assistant}`]);
    const patched = await server.request('PATCH', `/api/users/${created.id}`, {
      token: t.horizonAdmin,
      body: { shops: [shopsOf.boulogne] },
      headers: mergePatch,
    });
    expect(patched.body.shops).toEqual([`/api/shops/${shopsOf.boulogne}`]);
    expect(patched.body.firstName).toBe('Inès');
  });

  it('keeps a user from disabling or deleting their own account', async () => {
    const self = await userId(server, 'horizonAdmin');
    expectViolation(
      await server.request('PATCH', `/api/users/${self}`, { token: t.horizonAdmin, body: { status: 'Locked' }, headers: mergePatch }),
      'status',
      'Vous ne pouvez pas désactiver ou bloquer votre propre compte.',
    );
    expectProblem(await server.request('DELETE', `/api/users/${self}`, { token: t.horizonAdmin }), 409, 'Vous ne pouvez pas supprimer votre propre compte.');
  });

  it('hides Audition Horizon users from Optique Riviera for every verb', async () => {
    await expectHiddenForEveryVerb(
      server,
      t.rivieraAdmin,
      'users',
      await userId(server, 'audio'),
      user('capture@optique-riviera.fr', { holding: `/api/holdings/${org.riviera}`, shops: [], roles: [] }),
      { table: 'users' },
    );
  });

  it('locks users in bulk, all or nothing, ending their sessions', async () => {
    const a = await createUser('lot.a@audition-horizon.fr');
    const b = await createUser('lot.b@audition-horizon.fr');
    const session = { body: await firstSignIn(server, 'lot.a@audition-horizon.fr', 'Horizon-Lyon-42!') };
    // The editor's own account in the batch refuses the whole batch.
    const self = await userId(server, 'horizonAdmin');
    expectViolation(
      await server.request('POST', '/api/users/bulk-update', { token: t.horizonAdmin, body: { ids: [a.id, self], data: { status: 'Locked' } } }),
      'status',
      `Élément ${self} : Vous ne pouvez pas désactiver ou bloquer votre propre compte.`,
    );
    expect((await listAll(server, t.horizonAdmin, 'users', `id=${a.id}`))[0].status).toBe('Active');
    const done = await server.request('POST', '/api/users/bulk-update', { token: t.horizonAdmin, body: { ids: [a.id, b.id], data: { status: 'Locked' } } });
    expect(done.body.count).toBe(2);
    expect((await server.request('GET', '/api/user/profile', { token: session.body.token })).status).toBe(401);
  });

  it('deletes a user, and is refused without settings.users.delete', async () => {
    const created = await createUser('depart@audition-horizon.fr');
    await expectForbidden(server, t.audio, 'DELETE', `/api/users/${created.id}`);
    expect((await server.request('DELETE', `/api/users/${created.id}`, { token: t.horizonAdmin })).status).toBe(204);
    expect(ids(await listAll(server, t.horizonAdmin, 'users'))).not.toContain(created.id);
    expect((await auditRows(server, 'users', created.id)).at(-1)).toMatchObject({ action: 'user.delete', actor_email: 'direction@audition-horizon.fr' });
  });

  it('lets a platform administrator move a user, only with centres of the new organisation', async () => {
    const created = await createUser('mutation@audition-horizon.fr');
    expectViolation(
      await server.request('PATCH', `/api/users/${created.id}`, { token: t.admin, body: { holding: `/api/holdings/${org.riviera}` }, headers: mergePatch }),
      'shops',
      'Les centres doivent appartenir à l’organisation de l’utilisateur.',
    );
    const moved = await server.request('PATCH', `/api/users/${created.id}`, {
      token: t.admin,
      body: { holding: `/api/holdings/${org.riviera}`, shops: [`/api/shops/${shopsOf.nice}`] },
      headers: mergePatch,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.holding.name).toBe('Optique Riviera');
  });
});
