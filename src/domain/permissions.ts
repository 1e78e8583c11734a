// The permission catalogue and the one matcher used by the browser and the server alike.

export type PermissionModule = 'system' | 'user' | 'patient' | 'billing' | 'mutual' | 'workflow' | 'audit' | 'report';
export type PermissionLevel = 'view' | 'create' | 'edit' | 'delete' | 'admin';

export interface PermissionDefinition {
  key: string;
  label: string;
  module: PermissionModule;
  level: PermissionLevel;
  description: string;
}

export const PERMISSION_MODULE_LABELS: Record<PermissionModule, string> = {
  system: 'Système',
  user: 'Utilisateurs et organisation',
  patient: 'Dossiers patients (PEC)',
  billing: 'Facturation',
  mutual: 'Mutuelles et réseaux',
  workflow: 'Automatisation (robot)',
  audit: 'Audit',
  report: 'Rapports et échanges',
};

/** Entity permissions of the settings screens: settings.<section>.<action> (spec section 6). */
function entityPermissions(
  section: string,
  module: PermissionModule,
  plural: string,
  actions: { view: string; create: string; update: string; delete: string; export?: string },
): PermissionDefinition[] {
  const defs: PermissionDefinition[] = [
    { key: `settings.${section}.${actions.view}`, label: `Voir les ${plural}`, module, level: 'view', description: `Afficher l'onglet et la liste des ${plural}.` },
    { key: `settings.${section}.${actions.create}`, label: `Créer des ${plural}`, module, level: 'create', description: `Ajouter de nouveaux éléments dans les ${plural}.` },
    { key: `settings.${section}.${actions.update}`, label: `Modifier les ${plural}`, module, level: 'edit', description: `Changer les informations des ${plural}.` },
    { key: `settings.${section}.${actions.delete}`, label: `Supprimer des ${plural}`, module, level: 'delete', description: `Supprimer ou archiver des ${plural}.` },
  ];
  if (actions.export) {
    defs.push({ key: `settings.${section}.${actions.export}`, label: `Exporter les ${plural}`, module, level: 'view', description: `Télécharger la liste des ${plural}.` });
  }
  return defs;
}

const crud = { view: 'view', create: 'create', update: 'update', delete: 'delete', export: 'export' };
// Software and credentials say "edit" where the other sections say "update" (spec section 6).
const crudEdit = { view: 'view', create: 'create', update: 'edit', delete: 'delete' };

export const PERMISSIONS: PermissionDefinition[] = [
  { key: 'admin.*', label: 'Administration complète', module: 'system', level: 'admin', description: 'Tous les droits sur toute la plateforme, toutes organisations confondues.' },
  ...entityPermissions('holdings', 'user', 'organisations', crud),
  ...entityPermissions('companies', 'user', 'entreprises', crud),
  ...entityPermissions('shops', 'user', 'centres', crud),
  ...entityPermissions('users', 'user', 'utilisateurs et rôles', crud),
  ...entityPermissions('mutuelles', 'mutual', 'mutuelles et réseaux', crud),
  ...entityPermissions('software', 'system', 'logiciels', crudEdit),
  ...entityPermissions('credentials', 'system', 'identifiants', crudEdit),
  { key: 'settings.system.view', label: 'Voir les paramètres système', module: 'system', level: 'view', description: 'Afficher les paramètres de la plateforme.' },
  { key: 'settings.system.edit', label: 'Modifier les paramètres système', module: 'system', level: 'edit', description: 'Changer les paramètres modifiables de la plateforme.' },
  { key: 'pec.view', label: 'Voir les demandes de PEC', module: 'patient', level: 'view', description: 'Consulter les demandes de prise en charge des centres accessibles.' },
  { key: 'settings.pec.create', label: 'Créer des demandes de PEC', module: 'patient', level: 'create', description: 'Bouton « Nouvelle Demande de PEC ».' },
  { key: 'pec.edit', label: 'Modifier les demandes de PEC', module: 'patient', level: 'edit', description: 'Modifier une demande, changer son état à la main.' },
  { key: 'delete.pec', label: 'Supprimer des demandes de PEC', module: 'patient', level: 'delete', description: 'Supprimer définitivement une demande de PEC.' },
  { key: 'pec.create', label: 'Lancer le DPEC et la facturation', module: 'workflow', level: 'create', description: 'Déclencher le robot (DPEC, facturation) et saisir ses résultats à la main.' },
  { key: 'pec.billing', label: 'Enregistrer les paiements', module: 'billing', level: 'edit', description: 'Marquer une demande facturée comme payée.' },
  { key: 'export.pec', label: 'Exporter les demandes de PEC', module: 'report', level: 'view', description: 'Télécharger la liste filtrée au format CSV.' },
  { key: 'import.pec', label: 'Importer des demandes de PEC', module: 'report', level: 'create', description: 'Créer des brouillons à partir d’un fichier CSV.' },
  { key: 'audit.view', label: "Voir le journal d'audit", module: 'audit', level: 'view', description: 'Consulter qui a lu et modifié quoi, et quand.' },
];

export const PERMISSIONS_BY_KEY = new Map(PERMISSIONS.map((p) => [p.key, p]));

/** True when `granted` (a key or a wildcard such as `settings.*`) covers `required`. */
export function grants(granted: string, required: string): boolean {
  if (granted === 'admin.*' || granted === required) return true;
  if (granted.endsWith('.*')) return required.startsWith(granted.slice(0, -1));
  return false;
}

/** The single permission check: any of the held keys covers the required one. */
export function hasPermission(held: readonly string[], required: string): boolean {
  return held.some((granted) => grants(granted, required));
}

export const hasAnyPermission = (held: readonly string[], required: readonly string[]) =>
  required.some((r) => hasPermission(held, r));

export const hasAllPermissions = (held: readonly string[], required: readonly string[]) =>
  required.every((r) => hasPermission(held, r));

/** The catalogue entries a set of held keys grants (what "Mes permissions" lists). */
export function grantedDefinitions(held: readonly string[]): PermissionDefinition[] {
  return PERMISSIONS.filter((p) => hasPermission(held, p.key));
}

/** A key is valid when it is in the catalogue or is a wildcard that covers at least one catalogue key. */
export function isKnownPermission(key: string): boolean {
  if (PERMISSIONS_BY_KEY.has(key)) return true;
  return key.endsWith('.*') && PERMISSIONS.some((p) => grants(key, p.key));
}

/** The keys of `wanted` that `held` does not cover: a user may never hand out more than they hold. */
export function permissionsBeyond(held: readonly string[], wanted: readonly string[]): string[] {
  return wanted.filter((key) => {
    if (!key.endsWith('.*')) return !hasPermission(held, key);
    // A wildcard is covered only by itself, a broader wildcard, or admin.*.
    const prefix = key.slice(0, -1);
    return !held.some((h) => h === 'admin.*' || (h.endsWith('.*') && prefix.startsWith(h.slice(0, -1))));
  });
}

/** Settings tabs: which permission shows each (spec section 2, plus Rôles and Journal d'audit). */
export const SETTINGS_SECTIONS = [
  { section: 'holdings', label: 'Organisations', permission: 'settings.holdings.view' },
  { section: 'companies', label: 'Entreprises', permission: 'settings.companies.view' },
  { section: 'shops', label: 'Centres', permission: 'settings.shops.view' },
  { section: 'users', label: 'Utilisateurs', permission: 'settings.users.view' },
  { section: 'roles', label: 'Rôles', permission: 'settings.users.view' },
  { section: 'mutuelles', label: 'Mutuelles', permission: 'settings.mutuelles.view' },
  { section: 'networks', label: 'Réseaux', permission: 'settings.mutuelles.view' },
  { section: 'software', label: 'Logiciels', permission: 'settings.software.view' },
  { section: 'credentials', label: 'Identifiants', permission: 'settings.credentials.view' },
  { section: 'system', label: 'Système', permission: 'settings.system.view' },
  { section: 'audit', label: "Journal d'audit", permission: 'audit.view' },
] as const;

/** The sidebar's "Paramètres" entry (spec section 2, Sidebar). */
export const SETTINGS_ENTRY_PERMISSIONS = [
  'settings.holdings.view',
  'settings.users.view',
  'settings.mutuelles.view',
  'settings.system.view',
];
