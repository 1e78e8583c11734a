// Rôles: named sets of permissions, edited module by module with the catalogue's French labels and levels.
import { roleSchema } from '../../domain/schemas';
import { NameOr } from '../../settings/fields';
import { PermissionCount, PermissionsInput } from './PermissionsInput';
import type { ResourceConfig } from '../types';

export const roles: ResourceConfig = {
  name: 'roles',
  section: 'roles',
  columns: [
    { source: 'name' },
    { source: 'description' },
    { source: 'holding', sortBy: false, render: (record) => <NameOr value={record.holding} fallback="pecflow.settings.platformRole" /> },
    { source: 'permissions', sortBy: false, render: (record) => <PermissionCount permissions={record.permissions} /> },
    { source: 'usersCount' },
  ],
  searchable: ['name', 'description'],
  form: { fields: ['name', 'holding', 'description', 'permissions'], fullWidth: ['description', 'permissions'], multiline: ['description'] },
  inputs: { permissions: PermissionsInput },
  schema: { create: roleSchema, update: roleSchema },
  defaults: () => ({ permissions: [] }),
};
