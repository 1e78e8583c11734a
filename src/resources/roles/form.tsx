// Rôles: named sets of permissions, edited module by module with the catalogue's French labels and levels.
import { roleRules } from '#domain/rules';
import { PermissionsInput } from './PermissionsInput';
import type { FormParticular } from '../types';

export const form: FormParticular = { rules: (constrained) => roleRules(constrained), inputs: { permissions: PermissionsInput } };
