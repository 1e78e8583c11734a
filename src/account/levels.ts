import type { PermissionLevel } from '#domain/permissions';

/** Badge colour of each permission level. */
export const LEVEL_COLORS: Record<PermissionLevel, 'info' | 'success' | 'warning' | 'error'> = {
  view: 'info',
  create: 'success',
  edit: 'warning',
  delete: 'error',
  admin: 'error',
};
