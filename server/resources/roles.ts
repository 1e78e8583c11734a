import { sql } from 'drizzle-orm';
import { roles, userRoles } from '../db/schema';
import { assertRoleWithinCallersRights } from '../auth/callersRights';
import { isPlatformAdmin } from '../auth/principal';
import { invalidField } from '../http/errors';
import { column, computed, reference, text, timestamps } from '../hydra/fields';
import { holdingOrPlatform } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { roleRules } from '#domain/rules';
import { LONG_TEXT_MAX } from '#domain/validation';
import { optionalText, requiredText } from './constraints';
import { permissionsBeyond, refusedPermissionsMessage } from '#domain/permissions';
import { settingsPermissions } from '#domain/resources';
import { stillAttached } from './messages';

export const rolesResource: ResourceDeclaration = {
  name: 'roles',
  className: 'Role',
  label: { singular: 'Rôle', plural: 'Rôles' },
  auditName: 'role',
  table: roles,
  idColumn: roles.id,
  fields: {
    name: text(roles.name, { required: true, iri: 'name', label: 'Nom', constraints: requiredText(2, 'Le nom du rôle est requis (min. 2 caractères)', 100) }),
    description: text(roles.description, { label: 'Description', constraints: optionalText(LONG_TEXT_MAX) }),
    permissions: column('array', roles.permissions, { description: 'Clés de permission (catalogue : GET /api/permissions)', label: 'Permissions' }),
    holding: reference('holdings', roles.holdingId, {
      embed: ['name'],
      description: 'Vide : rôle de la plateforme, commun à toutes les organisations',
      label: 'Organisation',
      constraints: { message: 'Organisation requise' },
    }),
    // The holders the reader may see: a platform role is shared by every organisation, whose users the others must not
    // count. Outer column qualified (see networks.activeMutualsCount).
    usersCount: computed(
      'integer',
      (principal) => {
        const role = sql`${sql.identifier('roles')}.${sql.identifier('id')}`;
        // Every user is visible to the platform: the role's index entries are counted without reading the users (a
        // join read all 20,000 users once per role of the page: 25 ms for 20 roles instead of 2).
        if (isPlatformAdmin(principal)) return sql`(select count(*)::int from user_roles ur where ur.role_id = ${role})`;
        if (!principal.holdingId) return sql`0`;
        // An organisation's users, each looked up by its (user, role) key: work in proportion to the organisation, not
        // to the role's holders across the platform (a shared role holds the users of every organisation: 10 ms for a
        // page of 7 roles at 20,000 users, 1.3 ms so). OFFSET 0 keeps PostgreSQL from making it a hash join again.
        return sql`(select count(*)::int from users u cross join lateral (select 1 from user_roles ur where ur.user_id = u.id and ur.role_id = ${role} offset 0) as held where u.holding_id = ${principal.holdingId})`;
      },
      { label: 'Utilisateurs' },
    ),
    ...timestamps(roles),
  },
  // The keys a role grants must be in the catalogue, which the declarations make.
  rules: (constrained, { permissionCatalogue }) => roleRules(constrained, permissionCatalogue),
  // Managing users includes their roles (spec section 6): the same keys.
  permissions: settingsPermissions('settings.users', { export: true }),
  permissionModule: 'user',
  settingsTab: { position: 5 },
  list: {
    columns: ['name', 'description', 'holding', 'permissions', 'usersCount'],
    searchPlaceholder: 'Rechercher (nom, description)…',
    empty: 'Aucun rôle trouvé',
  },
  form: {
    fields: ['name', 'holding', 'description', 'permissions'],
    fullWidth: ['description', 'permissions'],
    multiline: ['description'],
    defaults: { permissions: [] },
  },
  tenancy: holdingOrPlatform(roles.holdingId),
  search: [roles.name, roles.description],
  filters: { holding: roles.holdingId, name: roles.name },
  order: { name: roles.name, createdAt: roles.createdAt, id: roles.id },
  defaultOrder: ['id', 'asc'],
  deletion: {
    mode: 'hard',
    refuseWhileReferenced: [{ table: userRoles, column: userRoles.roleId, message: stillAttached({ one: 'utilisateur', many: 'utilisateurs' }, 'à ce rôle') }],
  },
  hooks: {
    // A role never grants more than its author holds, and is changed only by who holds all it grants.
    beforeWrite({ app, principal }, input, _values, existing) {
      if (existing) assertRoleWithinCallersRights(principal, existing);
      const wanted = input.permissions as string[] | undefined;
      const beyond = wanted ? permissionsBeyond(principal.permissions, wanted) : [];
      if (beyond.length) {
        throw invalidField('permissions', refusedPermissionsMessage(beyond, principal.permissions, app.resources.permissionCatalogue));
      }
    },
    beforeDelete({ principal }, existing) {
      assertRoleWithinCallersRights(principal, existing);
    },
  },
};
