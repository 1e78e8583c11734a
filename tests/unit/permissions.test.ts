import { describe, expect, it } from 'vitest';
import { grantedDefinitions, hasAllPermissions, hasAnyPermission, hasPermission, isKnownPermission, permissionsBeyond } from '#domain/permissions';
import { PERMISSION_CATALOGUE as PERMISSIONS, RESOURCES } from '../../server/resources';
import { permissionFor } from '#domain/resources';
import { SEEDED_ROLES } from '#domain/roles';

describe('hasPermission', () => {
  it('grants an exact key and nothing else', () => {
    expect(hasPermission(['pec.create'], 'pec.create')).toBe(true);
    expect(hasPermission(['pec.create'], 'pec.view')).toBe(false);
    expect(hasPermission([], 'pec.view')).toBe(false);
  });

  it('lets a trailing wildcard grant every key with its prefix, and only those', () => {
    expect(hasPermission(['settings.users.*'], 'settings.users.delete')).toBe(true);
    expect(hasPermission(['settings.*'], 'settings.system.edit')).toBe(true);
    expect(hasPermission(['settings.users.*'], 'settings.shops.view')).toBe(false);
    // The prefix stops at a dot: settings.user.* does not cover settings.users.view.
    expect(hasPermission(['settings.user.*'], 'settings.users.view')).toBe(false);
    expect(hasPermission(['pec.*'], 'delete.pec')).toBe(false);
  });

  it('makes admin.* a full wildcard', () => {
    for (const { key } of PERMISSIONS) expect(hasPermission(['admin.*'], key)).toBe(true);
    expect(hasPermission(['admin.*'], 'anything.at.all')).toBe(true);
  });

  it('does not treat a wildcard in the middle or a bare star as a wildcard', () => {
    expect(hasPermission(['settings.*.view'], 'settings.users.view')).toBe(false);
    expect(hasPermission(['*'], 'pec.view')).toBe(false);
  });

  it('offers any / all helpers', () => {
    expect(hasAnyPermission(['pec.view'], ['settings.users.view', 'pec.view'])).toBe(true);
    expect(hasAnyPermission(['pec.view'], ['settings.users.view'])).toBe(false);
    expect(hasAllPermissions(['pec.*'], ['pec.view', 'pec.create'])).toBe(true);
    expect(hasAllPermissions(['pec.view'], ['pec.view', 'pec.create'])).toBe(false);
  });
});

describe('permissionsBeyond (no one grants more than they hold)', () => {
  it('lists the keys the holder does not cover', () => {
    expect(permissionsBeyond(['settings.users.*', 'pec.view'], ['settings.users.view', 'pec.view'])).toEqual([]);
    expect(permissionsBeyond(['settings.users.*'], ['settings.system.edit'])).toEqual(['settings.system.edit']);
  });

  it('covers a wildcard only with an equal or broader wildcard', () => {
    expect(permissionsBeyond(['settings.*'], ['settings.users.*'])).toEqual([]);
    expect(permissionsBeyond(['settings.users.view', 'settings.users.create'], ['settings.users.*'])).toEqual(['settings.users.*']);
    expect(permissionsBeyond(['settings.users.*'], ['admin.*'])).toEqual(['admin.*']);
    expect(permissionsBeyond(['admin.*'], ['admin.*', 'settings.*'])).toEqual([]);
  });
});

describe('the catalogue', () => {
  it('knows its keys and the wildcards that cover some of them', () => {
    expect(isKnownPermission('pec.create', PERMISSIONS)).toBe(true);
    expect(isKnownPermission('settings.users.*', PERMISSIONS)).toBe(true);
    expect(isKnownPermission('nimporte.quoi', PERMISSIONS)).toBe(false);
    expect(isKnownPermission('nimporte.*', PERMISSIONS)).toBe(false);
  });

  it('has unique keys, each with a French label, a module and a level', () => {
    expect(new Set(PERMISSIONS.map((p) => p.key)).size).toBe(PERMISSIONS.length);
    for (const p of PERMISSIONS) {
      expect(p.label.length).toBeGreaterThan(3);
      expect(['system', 'user', 'patient', 'billing', 'mutual', 'workflow', 'audit', 'report']).toContain(p.module);
      expect(['view', 'create', 'edit', 'delete', 'admin']).toContain(p.level);
    }
    // Only the whole platform's administration is of the "admin" level (not shown as a mere deletion right).
    expect(PERMISSIONS.filter((p) => p.level === 'admin').map((p) => p.key)).toEqual(['admin.*']);
  });

  it("names each settings entity's keys after its declaration, entities sharing keys together (spec section 6)", () => {
    const entity = PERMISSIONS.filter((p) => p.key.startsWith('settings.') && !p.key.startsWith('settings.system.') && p.key !== 'settings.pec.create');
    const verbs = (noun: string, edit = 'update', exportable = true) => [
      [`view`, `Voir les ${noun}`],
      [`create`, `Créer des ${noun}`],
      [edit, `Modifier les ${noun}`],
      [`delete`, `Supprimer des ${noun}`],
      ...(exportable ? [[`export`, `Exporter les ${noun}`]] : []),
    ];
    const expected = [
      ['holdings', 'user', verbs('organisations')],
      ['companies', 'user', verbs('entreprises')],
      ['shops', 'user', verbs('centres')],
      ['users', 'user', verbs('utilisateurs et rôles')],
      ['mutuelles', 'mutual', verbs('mutuelles et réseaux')],
      ['software', 'system', verbs('logiciels', 'edit', false)],
      ['credentials', 'system', verbs('identifiants', 'edit', false)],
    ] as const;
    const reference = expected.flatMap(([section, module, entries]) =>
      entries.map(([action, label]) => ({ key: `settings.${section}.${action}`, module, label })),
    );
    // Entities added later (Prescripteurs) come on top of the spec's own.
    expect(entity.map(({ key, module, label }) => ({ key, module, label })).filter((p) => reference.some((r) => r.key === p.key))).toEqual(reference);
    expect(PERMISSIONS[0]!.key).toBe('admin.*');
    expect(PERMISSIONS.find((p) => p.key === 'settings.holdings.view')!.description).toBe('Afficher l’onglet et la liste des organisations.');
  });

  it('seeds roles made only of known keys', () => {
    for (const role of Object.values(SEEDED_ROLES)) for (const key of role.permissions) expect(isKnownPermission(key, PERMISSIONS), key).toBe(true);
  });

  it('expands held wildcards into the entries they grant', () => {
    const keys = grantedDefinitions(['settings.users.*'], PERMISSIONS).map((p) => p.key);
    expect(keys).toEqual(['settings.users.view', 'settings.users.create', 'settings.users.update', 'settings.users.delete', 'settings.users.export']);
  });
});

describe('permissionFor', () => {
  it("maps react-admin actions to a resource's declared keys, with view/edit for software and credentials", () => {
    const declared = (name: string) => RESOURCES.find((d) => d.name === name)!.permissions;
    expect(permissionFor(declared('holdings'), 'list')).toBe('settings.holdings.view');
    expect(permissionFor(declared('holdings'), 'edit')).toBe('settings.holdings.update');
    expect(permissionFor(declared('networks'), 'create')).toBe('settings.mutuelles.create');
    expect(permissionFor(declared('software'), 'edit')).toBe('settings.software.edit');
    expect(permissionFor(declared('credential_software'), 'delete')).toBe('settings.credentials.delete');
    expect(permissionFor(declared('pec_dossiers'), 'create')).toBe('settings.pec.create');
    expect(permissionFor(declared('prescribers'), 'export')).toBeUndefined();
    expect(permissionFor(undefined, 'list')).toBeUndefined();
  });
});
