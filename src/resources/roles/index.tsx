// Rôles: named sets of permissions, edited module by module with the catalogue's French labels and levels.
import { roleSchema } from '#domain/schemas';
import { NameOr } from '../shared';
import { PermissionCount, PermissionsInput } from './PermissionsInput';
import type { Particular } from '../types';

export const particular: Particular = {
  schema: { create: roleSchema, update: roleSchema },
  cells: {
    holding: { sortBy: false, render: (record) => <NameOr value={record.holding} fallback="pecflow.settings.platformRole" /> },
    permissions: { sortBy: false, render: (record) => <PermissionCount permissions={record.permissions} /> },
  },
  inputs: { permissions: PermissionsInput },
};
