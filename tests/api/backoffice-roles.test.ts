// Rôles (/api/roles) and the permission catalogue (/api/permissions): platform roles read-only to organisations,
// organisation roles confined to theirs, no role granting more than its author holds, deletion refused while assigned.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import {
  auditRows,
  checkFilter,
  checkManyByIri,
  checkPaginationAndSort,
  expectForbidden,
  expectHiddenForEveryVerb,
  expectProblem,
  expectViolation,
  firstSignIn,
  holdingIds,
  ids,
  listAll,
  loginAll,
  mergePatch,
  seededRoleId,
  sqlRows,
  type Tokens,
} from './helpers/backoffice';
import { PERMISSION_CATALOGUE } from '../../server/resources';

let server: TestServer;
let t: Tokens;
let org: { horizon: number; riviera: number };
let platformRoles: number[];

async function createRole(token: string, body: Record<string, unknown>) {
  const res = await server.request('POST', '/api/roles', { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin', 'audio', 'rivieraAdmin']);
  org = await holdingIds(server);
  platformRoles = ids(await listAll(server, t.admin, 'roles', 'order[id]=asc'));
});
afterAll(() => server?.close());

describe('GET /api/permissions', () => {
  it('lists the catalogue with French labels, modules and levels', async () => {
    const res = await server.request('GET', '/api/permissions', { token: t.horizonAdmin });
    expect(res.status).toBe(200);
    expect(res.body.totalItems).toBe(PERMISSION_CATALOGUE.length);
    expect(res.body.member).toEqual(PERMISSION_CATALOGUE);
    expect(res.body.member).toContainEqual(expect.objectContaining({ key: 'settings.shops.view', module: 'user', level: 'view', label: 'Voir les centres' }));
    expect(Object.keys(res.body.modules).sort()).toEqual(['audit', 'billing', 'mutual', 'patient', 'report', 'system', 'user', 'workflow']);
  });
});

describe('GET /api/roles', () => {
  it('pages, sorts, filters and searches', async () => {
    await createRole(t.horizonAdmin, { name: 'Accueil Horizon', description: 'Secrétariat des centres', permissions: ['pec.view', 'settings.pec.create'] });
    await checkPaginationAndSort(server, t.admin, 'roles', 'name');
    await checkFilter(server, t.admin, 'roles', 'holding', (r) => r.holding?.['@id']);
    await checkFilter(server, t.admin, 'roles', 'name', (r) => r.name);
    await checkManyByIri(server, t.admin, 'roles');
    expect((await listAll(server, t.admin, 'roles', 'search=secretariat')).map((r) => r.name)).toEqual(['Accueil Horizon']);
  });

  it('shows the seeded roles with their permissions and how many users hold them', async () => {
    const [organisationAdmin] = await listAll(server, t.admin, 'roles', `name=${encodeURIComponent('Administrateur d’organisation')}`);
    expect(organisationAdmin).toMatchObject({ '@type': 'Role', id: await seededRoleId(server, 'organisationAdmin'), holding: null, usersCount: 2 });
    expect(organisationAdmin.permissions).toContain('settings.companies.*');
  });

  it('shows an organisation the platform roles and its own, not the other organisation', async () => {
    const riviera = await createRole(t.rivieraAdmin, { name: 'Vendeur Riviera', permissions: ['pec.view'] });
    const horizonSees = await listAll(server, t.horizonAdmin, 'roles');
    expect(ids(horizonSees)).toEqual(expect.arrayContaining(platformRoles));
    expect(ids(horizonSees)).not.toContain(riviera.id);
    expect(horizonSees.every((r) => r.holding === null || r.holding.id === org.horizon)).toBe(true);
  });

  it('is refused without settings.users.view', async () => {
    await expectForbidden(server, t.audio, 'GET', '/api/roles');
  });
});

describe('writing roles', () => {
  it("creates a role in the author's organisation, whatever holding the body names", async () => {
    const role = await createRole(t.horizonAdmin, { name: 'Audio junior', permissions: ['pec.view', 'pec.create'], holding: `/api/holdings/${org.horizon}` });
    expect(role.holding.id).toBe(org.horizon);
    expectViolation(
      await server.request('POST', '/api/roles', {
        token: t.horizonAdmin,
        body: { name: 'Ailleurs', permissions: [], holding: `/api/holdings/${org.riviera}` },
      }),
      'holding',
      'Organisation introuvable ou hors de votre périmètre.',
    );
    const [audit] = await auditRows(server, 'roles', role.id);
    expect(audit).toMatchObject({ action: 'role.create', actor_email: 'direction@audition-horizon.fr', holding_id: org.horizon });
    expect(audit!.changes.permissions).toEqual({ before: null, after: ['pec.view', 'pec.create'] });
  });

  it('never grants a permission its author lacks', async () => {
    expectViolation(
      await server.request('POST', '/api/roles', {
        token: t.horizonAdmin,
        body: { name: 'Escalade', permissions: ['pec.view', 'admin.*', 'settings.mutuelles.create'] },
      }),
      'permissions',
      'Vous ne pouvez pas accorder des droits que vous n’avez pas : « Administration complète », « Créer des mutuelles et réseaux ».',
    );
    // A wildcard the author holds only in part is refused too (settings.mutuelles.view does not cover settings.mutuelles.*).
    expectViolation(
      await server.request('POST', '/api/roles', { token: t.horizonAdmin, body: { name: 'Joker', permissions: ['settings.mutuelles.*'] } }),
      'permissions',
      'Vous ne pouvez pas accorder des droits que vous n’avez pas : « Créer des mutuelles et réseaux », « Modifier les mutuelles et réseaux », « Supprimer des mutuelles et réseaux », « Exporter les mutuelles et réseaux ».',
    );
    // A wildcard whose keys the author all holds still gives the keys added later, which the author lacks: said so.
    expectViolation(
      await server.request('POST', '/api/roles', { token: t.horizonAdmin, body: { name: 'Joker entier', permissions: ['billing.*'] } }),
      'permissions',
      'Vous ne pouvez pas accorder un groupe de droits entier que vous n’avez pas (il donnerait aussi ceux ajoutés plus tard) : accordez un par un « Enregistrer les paiements ».',
    );
    const role = await createRole(t.horizonAdmin, { name: 'Modeste', permissions: ['pec.view'] });
    expectViolation(
      await server.request('PATCH', `/api/roles/${role.id}`, {
        token: t.horizonAdmin,
        body: { permissions: ['pec.view', 'settings.system.edit'] },
        headers: mergePatch,
      }),
      'permissions',
      'Vous ne pouvez pas accorder des droits que vous n’avez pas : « Modifier les paramètres système ».',
    );
    // The platform administrator holds everything.
    expect(
      (await server.request('POST', '/api/roles', { token: t.admin, body: { name: 'Auditeur plateforme', permissions: ['audit.view', 'settings.*'] } })).status,
    ).toBe(201);
  });

  it('validates name and permission keys in French', async () => {
    const res = await server.request('POST', '/api/roles', { token: t.horizonAdmin, body: { name: 'R', permissions: ['pec.view', 'pec.inventee'] } });
    expectViolation(res, 'name', 'Le nom du rôle est requis (min. 2 caractères)');
    expectViolation(res, 'permissions', 'Permission inconnue');
    expectViolation(
      await server.request('POST', '/api/roles', { token: t.horizonAdmin, body: { name: 'Liste', permissions: 'pec.view' } }),
      'permissions',
      'Liste de permissions attendue',
    );
  });

  it('keeps platform roles out of reach of organisations (403), and the other organisation roles hidden (404)', async () => {
    const platform = platformRoles[1]!;
    expectProblem(
      await server.request('PATCH', `/api/roles/${platform}`, { token: t.horizonAdmin, body: { name: 'Renommé' }, headers: mergePatch }),
      403,
      'Vous ne pouvez pas modifier cet élément (rôle).',
    );
    expectProblem(await server.request('DELETE', `/api/roles/${platform}`, { token: t.horizonAdmin }), 403);
    const horizonRole = await createRole(t.horizonAdmin, { name: 'Privé Horizon', permissions: ['pec.view'] });
    await expectHiddenForEveryVerb(server, t.rivieraAdmin, 'roles', horizonRole.id, { name: 'Capture', permissions: [] }, { table: 'roles' });
  });

  it('refuses to delete a role while users hold it, then deletes it', async () => {
    const audioRole = await seededRoleId(server, 'audioprothesiste');
    expectProblem(
      await server.request('DELETE', `/api/roles/${audioRole}`, { token: t.admin }),
      409,
      'Impossible de supprimer : 1 utilisateur est rattaché à ce rôle.',
    );
    const organisationAdmin = await seededRoleId(server, 'organisationAdmin');
    expectProblem(
      await server.request('DELETE', `/api/roles/${organisationAdmin}`, { token: t.admin }),
      409,
      'Impossible de supprimer : 2 utilisateurs sont rattachés à ce rôle.',
    );
    const role = await createRole(t.horizonAdmin, { name: 'Éphémère', permissions: [] });
    expect((await server.request('DELETE', `/api/roles/${role.id}`, { token: t.horizonAdmin })).status).toBe(204);
    expect((await auditRows(server, 'roles', role.id)).at(-1)).toMatchObject({ action: 'role.delete' });
  });

  it('is changed or deleted only by who holds every right it grants (a user manager cannot strip a role above theirs)', async () => {
    const chef = await createRole(t.horizonAdmin, { name: 'Chef de centre', permissions: ['pec.*', 'settings.users.*', 'billing.payment'] });
    const gestion = await createRole(t.horizonAdmin, { name: 'Gestion des comptes', permissions: ['settings.users.*', 'pec.view'] });
    const email = 'gestion.comptes@audition-horizon.fr';
    const created = await server.request('POST', '/api/users', {
      token: t.horizonAdmin,
      body: {
        firstName: 'Gaëlle',
        lastName: 'Comptes',
        email,
        password: 'Tape-Par-Admin-2026!',
        holding: `/api/holdings/${org.horizon}`,
        roles: [gestion['@id']],
      },
    });
    expect(created.status, created.text).toBe(201);
    const { token: manager } = await firstSignIn(server, email, 'Tape-Par-Admin-2026!');
    const before = await sqlRows(server, 'select * from roles where id = $1', [chef.id]);

    const refused = 'Accès refusé : ce rôle donne des droits que vous n’avez pas.';
    const path = `/api/roles/${chef.id}`;
    expectProblem(await server.request('PATCH', path, { token: manager, body: { permissions: ['pec.view'] }, headers: mergePatch }), 403, refused);
    expectProblem(await server.request('PATCH', path, { token: manager, body: { name: 'Chef rétrogradé' }, headers: mergePatch }), 403, refused);
    expectProblem(await server.request('PUT', path, { token: manager, body: { name: 'Chef de centre', permissions: [] } }), 403, refused);
    expectProblem(await server.request('DELETE', path, { token: manager }), 403, refused);
    expect((await server.request('POST', '/api/roles/bulk-update', { token: manager, body: { ids: [chef.id], data: { permissions: [] } } })).status).toBe(403);
    expect((await server.request('POST', '/api/roles/bulk-delete', { token: manager, body: { ids: [chef.id] } })).status).toBe(403);
    expect(await sqlRows(server, 'select * from roles where id = $1', [chef.id])).toEqual(before);

    // A role within the manager's rights is theirs to change and delete; the organisation administrator still changes the other.
    const accueil = await createRole(manager, { name: 'Accueil', permissions: ['pec.view'] });
    expect(
      (await server.request('PATCH', `/api/roles/${accueil.id}`, { token: manager, body: { name: 'Accueil du centre' }, headers: mergePatch })).status,
    ).toBe(200);
    expect((await server.request('DELETE', `/api/roles/${accueil.id}`, { token: manager })).status).toBe(204);
    expect((await server.request('PATCH', path, { token: t.horizonAdmin, body: { name: 'Chef de centre adjoint' }, headers: mergePatch })).status).toBe(200);
  });

  it('is refused without settings.users.create / update / delete', async () => {
    await expectForbidden(server, t.audio, 'POST', '/api/roles', { name: 'Interdit', permissions: [] });
    await expectForbidden(server, t.audio, 'PATCH', `/api/roles/${platformRoles[0]}`, { name: 'Interdit' });
    await expectForbidden(server, t.audio, 'DELETE', `/api/roles/${platformRoles[0]}`);
  });
});

describe('existing databases', () => {
  it('migration 0040 keys the seeded roles by the names they were seeded with and gives the organisation administrator its typographic apostrophe', async () => {
    const keyed = () => sqlRows<{ id: number; seed_key: string }>(server, 'select id, seed_key from roles where seed_key is not null order by id');
    const before = await keyed();
    expect(before.map((r) => r.seed_key).sort()).toEqual(['assistant', 'audioprothesiste', 'organisationAdmin', 'readOnly', 'superAdmin']);
    const organisationAdmin = await seededRoleId(server, 'organisationAdmin');
    // The roles as an installation made before the keys holds them: none keyed, the straight apostrophe; and an
    // organisation's own role named like a seeded one, which stays its own.
    const [own] = await sqlRows<{ id: number }>(
      server,
      `insert into roles (holding_id, name, permissions) values ($1, 'Lecture seule', '{pec.view}') returning id`,
      [org.horizon],
    );
    await sqlRows(server, 'update roles set seed_key = null');
    await sqlRows(server, `update roles set name = 'Administrateur d''organisation' where id = $1`, [organisationAdmin]);

    const migration = readFileSync(new URL('../../server/db/migrations/0040_role_seed_keys.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint').filter((s) => s.includes('UPDATE "roles"'))) await sqlRows(server, statement);

    expect(await keyed()).toEqual(before);
    const [renamed] = await sqlRows<{ name: string }>(server, 'select name from roles where id = $1', [organisationAdmin]);
    expect(renamed!.name).toBe('Administrateur d’organisation');
    const [kept] = await sqlRows<{ seed_key: string | null }>(server, 'select seed_key from roles where id = $1', [own!.id]);
    expect(kept!.seed_key).toBeNull();
    await sqlRows(server, 'delete from roles where id = $1', [own!.id]);
  });
});
