// Rôles: named sets of permissions, edited module by module with the catalogue's French labels and levels.
import { roleSchema } from '#domain/schemas';
import { PermissionsInput } from './PermissionsInput';
import type { FormParticular } from '../types';

export const form: FormParticular = { schema: { create: roleSchema, update: roleSchema }, inputs: { permissions: PermissionsInput } };
