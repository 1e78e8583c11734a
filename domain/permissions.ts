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

/** The keys of one resource's actions (server/resources/<x>.ts declares them; the server enforces them). */
export interface ResourcePermissions {
  view: string;
  create: string;
  update: string;
  delete: string;
  export?: string;
}

/**
 * The catalogue entries of a settings entity's keys (spec section 6): "Voir les {noun}", "Créer des {noun}"...
 * `noun` is the entity's plural, or the plurals of the entities sharing the prefix ("mutuelles et réseaux").
 */
export function entityPermissionDefinitions(keys: ResourcePermissions, module: PermissionModule, noun: string): PermissionDefinition[] {
  const defs: PermissionDefinition[] = [
    { key: keys.view, label: `Voir les ${noun}`, module, level: 'view', description: `Afficher l’onglet et la liste des ${noun}.` },
    { key: keys.create, label: `Créer des ${noun}`, module, level: 'create', description: `Ajouter de nouveaux éléments dans les ${noun}.` },
    { key: keys.update, label: `Modifier les ${noun}`, module, level: 'edit', description: `Changer les informations des ${noun}.` },
    { key: keys.delete, label: `Supprimer des ${noun}`, module, level: 'delete', description: `Supprimer ou archiver des ${noun}.` },
  ];
  if (keys.export) defs.push({ key: keys.export, label: `Exporter les ${noun}`, module, level: 'view', description: `Télécharger la liste des ${noun}.` });
  return defs;
}

/** The whole platform's administration: first entry of the catalogue. */
export const ADMIN_PERMISSION: PermissionDefinition = {
  key: 'admin.*',
  label: 'Administration complète',
  module: 'system',
  level: 'admin',
  description: 'Tous les droits sur toute la plateforme, toutes organisations confondues.',
};

/**
 * The keys that are no entity's settings keys: system settings, PEC files, audit. The catalogue served by
 * GET /api/permissions is ADMIN_PERMISSION, the entity entries derived from the declarations, then these.
 */
export const OTHER_PERMISSIONS: PermissionDefinition[] = [
  {
    key: 'settings.system.view',
    label: 'Voir les paramètres système',
    module: 'system',
    level: 'view',
    description: 'Afficher les paramètres de la plateforme.',
  },
  {
    key: 'settings.system.edit',
    label: 'Modifier les paramètres système',
    module: 'system',
    level: 'edit',
    description: 'Changer les paramètres modifiables de la plateforme.',
  },
  {
    key: 'pec.view',
    label: 'Voir les demandes de PEC',
    module: 'patient',
    level: 'view',
    description: 'Consulter les demandes de prise en charge des centres accessibles.',
  },
  { key: 'settings.pec.create', label: 'Créer des demandes de PEC', module: 'patient', level: 'create', description: 'Bouton « Nouvelle Demande de PEC ».' },
  {
    key: 'pec.edit',
    label: 'Modifier les demandes de PEC',
    module: 'patient',
    level: 'edit',
    description: 'Modifier une demande, changer son état à la main.',
  },
  {
    key: 'delete.pec',
    label: 'Supprimer des demandes de PEC',
    module: 'patient',
    level: 'delete',
    description: 'Supprimer un brouillon jamais transmis, archiver toute demande et restaurer une demande archivée.',
  },
  {
    key: 'pec.documents.view',
    label: 'Voir les documents des demandes',
    module: 'patient',
    level: 'view',
    description: 'Lister, prévisualiser et télécharger les documents joints aux demandes de PEC (chaque lecture est journalisée).',
  },
  {
    key: 'pec.documents.create',
    label: 'Joindre des documents aux demandes',
    module: 'patient',
    level: 'create',
    description: 'Ajouter une ordonnance, un devis normalisé, un accord… à une demande de PEC.',
  },
  {
    key: 'pec.documents.delete',
    label: 'Supprimer des documents des demandes',
    module: 'patient',
    level: 'delete',
    description: 'Supprimer un document joint (jamais l’accord de prise en charge sur lequel une demande a été facturée).',
  },
  {
    key: 'pec.create',
    label: 'Lancer le DPEC et la facturation',
    module: 'workflow',
    level: 'create',
    description: 'Déclencher le robot (DPEC, facturation) et saisir ses résultats à la main.',
  },
  {
    key: 'billing.payment',
    label: 'Enregistrer les paiements',
    module: 'billing',
    level: 'edit',
    description: 'Importer les relevés de paiement des assureurs, les annuler, et enregistrer un paiement sur une demande facturée.',
  },
  { key: 'export.pec', label: 'Exporter les demandes de PEC', module: 'report', level: 'view', description: 'Télécharger la liste filtrée au format CSV.' },
  {
    key: 'import.pec',
    label: 'Importer des demandes de PEC',
    module: 'report',
    level: 'create',
    description: 'Créer des brouillons à partir d’un fichier CSV.',
  },
  { key: 'audit.view', label: 'Voir le journal d’audit', module: 'audit', level: 'view', description: 'Consulter qui a lu et modifié quoi, et quand.' },
];

/**
 * Acting on a PEC file: starting the robot (DPEC, billing, one file or many) and entering its results by hand. Who holds
 * it is told of a file's outcomes and may be the colleague who follows it ("Suivi par").
 */
export const ACT_ON_FILE_PERMISSION = 'pec.create';

/**
 * Recording a payment (billed -> paid, a statement, a manual payment) needs this permission. Here rather than with the
 * files' rules (./pec re-exports it): the shell's menu reads it, and every page loads the shell.
 */
export const PAYMENT_PERMISSION = 'billing.payment';

/** The keys of the resources that are no settings entity (PEC files, system settings, audit trail). */
export const PEC_PERMISSIONS: ResourcePermissions = {
  view: 'pec.view',
  create: 'settings.pec.create',
  update: 'pec.edit',
  delete: 'delete.pec',
  export: 'export.pec',
};
export const SYSTEM_SETTINGS_PERMISSIONS: ResourcePermissions = {
  view: 'settings.system.view',
  create: 'settings.system.edit',
  update: 'settings.system.edit',
  delete: 'settings.system.edit',
};
export const AUDIT_PERMISSIONS: ResourcePermissions = { view: 'audit.view', create: 'admin.*', update: 'admin.*', delete: 'admin.*' };

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

export const hasAnyPermission = (held: readonly string[], required: readonly string[]) => required.some((r) => hasPermission(held, r));

export const hasAllPermissions = (held: readonly string[], required: readonly string[]) => required.every((r) => hasPermission(held, r));

/** The catalogue entries a set of held keys grants (what "Mes permissions" lists). */
export function grantedDefinitions(held: readonly string[], catalogue: readonly PermissionDefinition[]): PermissionDefinition[] {
  return catalogue.filter((p) => hasPermission(held, p.key));
}

/** A key is valid when it is in the catalogue or is a wildcard that covers at least one catalogue key. */
export function isKnownPermission(key: string, catalogue: readonly PermissionDefinition[]): boolean {
  return catalogue.some((p) => p.key === key) || (key.endsWith('.*') && catalogue.some((p) => grants(key, p.key)));
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

/**
 * The refused keys as a person reads them: each catalogue label in « », a wildcard as the labels it covers that the
 * author lacks (never an internal key such as `admin.*`).
 */
function refusedPermissionLabels(refused: readonly string[], held: readonly string[], catalogue: readonly PermissionDefinition[]): string {
  const labels = refused.flatMap((key) => {
    const exact = catalogue.find((p) => p.key === key);
    if (exact) return [exact.label];
    return catalogue.filter((p) => grants(key, p.key) && !hasPermission(held, p.key)).map((p) => p.label);
  });
  return [...new Set(labels)].map((label) => `« ${label} »`).join(', ');
}

/**
 * Why a role may not grant `refused` (permissionsBeyond's answer): the rights the author lacks by name or, when every key
 * a refused wildcard covers is the author's, what the wildcard would add (the keys the catalogue gains later).
 */
export function refusedPermissionsMessage(refused: readonly string[], held: readonly string[], catalogue: readonly PermissionDefinition[]): string {
  const named = refusedPermissionLabels(refused, held, catalogue);
  if (named) return `Vous ne pouvez pas accorder des droits que vous n’avez pas : ${named}.`;
  const covered = catalogue.filter((p) => refused.some((key) => grants(key, p.key))).map((p) => `« ${p.label} »`);
  return `Vous ne pouvez pas accorder un groupe de droits entier que vous n’avez pas (il donnerait aussi ceux ajoutés plus tard) : accordez un par un ${[...new Set(covered)].join(', ')}.`;
}

/** The sidebar's "Paramètres" entry (spec section 2, Sidebar). */
export const SETTINGS_ENTRY_PERMISSIONS = ['settings.holdings.view', 'settings.users.view', 'settings.mutuelles.view', 'settings.system.view'];
