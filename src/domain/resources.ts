// Which permission each action on each API resource needs. The server enforces it; the browser uses it to hide buttons.

export interface ResourcePermissions {
  view: string;
  create: string;
  update: string;
  delete: string;
  export?: string;
}

const settings = (section: string, update = 'update'): ResourcePermissions => ({
  view: `settings.${section}.view`,
  create: `settings.${section}.create`,
  update: `settings.${section}.${update}`,
  delete: `settings.${section}.delete`,
  export: update === 'update' ? `settings.${section}.export` : undefined,
});

export const RESOURCE_PERMISSIONS: Record<string, ResourcePermissions> = {
  holdings: settings('holdings'),
  companies: settings('companies'),
  shops: settings('shops'),
  users: settings('users'),
  roles: settings('users'),
  mutuals: settings('mutuelles'),
  networks: settings('mutuelles'),
  software: settings('software', 'edit'),
  credential_software: settings('credentials', 'edit'),
  configs: { view: 'settings.system.view', create: 'settings.system.edit', update: 'settings.system.edit', delete: 'settings.system.edit' },
  audit_logs: { view: 'audit.view', create: 'admin.*', update: 'admin.*', delete: 'admin.*' },
  pec_dossiers: { view: 'pec.view', create: 'settings.pec.create', update: 'pec.edit', delete: 'delete.pec', export: 'export.pec' },
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
