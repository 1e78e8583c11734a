// Which permission each action on an API resource needs. Each declaration gives its keys (server/resources/<x>.ts);
// the server enforces them, the browser reads them in /api/docs.jsonld (pecflow:admin.permissions) to hide what the
// user may not do.
import type { ResourcePermissions } from './permissions';

export type { ResourcePermissions };

/**
 * The keys of a settings entity (spec section 6): `{prefix}.view`, `.create`, `.update` (`.edit` for software and
 * credentials), `.delete`; `.export` only with `export: true` (the spec's entities hold it in their catalogue; no
 * settings screen exports, so a new entity has no use for it).
 */
export function settingsPermissions(prefix: string, options: { update?: 'update' | 'edit'; export?: boolean } = {}): ResourcePermissions {
  return {
    view: `${prefix}.view`,
    create: `${prefix}.create`,
    update: `${prefix}.${options.update ?? 'update'}`,
    delete: `${prefix}.delete`,
    ...(options.export ? { export: `${prefix}.export` } : {}),
  };
}

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

/** The permission a react-admin action needs among a resource's keys; undefined when nothing restricts it. */
export function permissionFor(permissions: ResourcePermissions | undefined, action: string): string | undefined {
  const key = ACTION_TO_KEY[action];
  return key && permissions ? permissions[key] : undefined;
}
