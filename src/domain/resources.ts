// Which permission each action on each API resource needs. The server enforces the keys its declarations give
// (server/resources/<x>.ts); the browser uses them to hide buttons.
import { AUDIT_PERMISSIONS, PEC_PERMISSIONS, SYSTEM_SETTINGS_PERMISSIONS, type ResourcePermissions } from './permissions';

export type { ResourcePermissions };

/**
 * The keys of a settings entity (spec section 6): `{prefix}.view`, `.create`, `.update`, `.delete`, `.export`.
 * Software and credentials say `edit` where the others say `update`, and have no export.
 */
export function settingsPermissions(prefix: string, options: { update?: 'update' | 'edit'; export?: boolean } = {}): ResourcePermissions {
  const update = options.update ?? 'update';
  return {
    view: `${prefix}.view`,
    create: `${prefix}.create`,
    update: `${prefix}.${update}`,
    delete: `${prefix}.delete`,
    ...((options.export ?? update === 'update') ? { export: `${prefix}.export` } : {}),
  };
}

/**
 * The browser's copy until the screens read each class's `pecflow:admin.permissions` from /api/docs.jsonld;
 * the server reads the declarations' own keys, never this.
 */
export const RESOURCE_PERMISSIONS: Record<string, ResourcePermissions> = {
  holdings: settingsPermissions('settings.holdings'),
  companies: settingsPermissions('settings.companies'),
  shops: settingsPermissions('settings.shops'),
  users: settingsPermissions('settings.users'),
  roles: settingsPermissions('settings.users'),
  mutuals: settingsPermissions('settings.mutuelles'),
  networks: settingsPermissions('settings.mutuelles'),
  software: settingsPermissions('settings.software', { update: 'edit' }),
  credential_software: settingsPermissions('settings.credentials', { update: 'edit' }),
  configs: SYSTEM_SETTINGS_PERMISSIONS,
  audit_logs: AUDIT_PERMISSIONS,
  pec_dossiers: PEC_PERMISSIONS,
};

const ACTION_TO_KEY: Record<string, keyof ResourcePermissions> = {
  list: 'view',
  show: 'view',
  read: 'view',
  view: 'view',
  create: 'create',
  clone: 'create',
  edit: 'update',
  update: 'update',
  delete: 'delete',
  export: 'export',
};

/** The permission a react-admin action on a resource needs; undefined when nothing restricts it. */
export function permissionFor(resource: string | undefined, action: string): string | undefined {
  if (!resource) return undefined;
  const key = ACTION_TO_KEY[action];
  return key ? RESOURCE_PERMISSIONS[resource]?.[key] : undefined;
}
