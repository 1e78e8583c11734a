// The five roles every installation starts with (domain.md, "Permissions and roles"), each under its key, which its
// row keeps (roles.seed_key): code finds a seeded role by that key, never by its French name.

export interface RoleDefinition {
  name: string;
  description: string;
  permissions: string[];
}

export const SEEDED_ROLES = {
  superAdmin: {
    name: 'Super administrateur',
    description: 'Tous les droits sur toute la plateforme.',
    permissions: ['admin.*'],
  },
  organisationAdmin: {
    name: 'Administrateur d’organisation',
    description:
      'Gère son organisation : entreprises, centres, utilisateurs, logiciels et identifiants ; consulte mutuelles, réseaux et paramètres ; tous les droits sur les PEC.',
    permissions: [
      'settings.holdings.view',
      'settings.holdings.update',
      'settings.companies.*',
      'settings.shops.*',
      'settings.users.*',
      'settings.software.*',
      'settings.credentials.*',
      'settings.mutuelles.view',
      'settings.system.view',
      'settings.pec.create',
      'pec.*',
      'delete.pec',
      'export.pec',
      'import.pec',
      'billing.payment',
      'audit.view',
    ],
  },
  audioprothesiste: {
    name: 'Audioprothésiste',
    description: 'Crée et suit les demandes de PEC de ses centres, lance le DPEC et la facturation, enregistre les paiements, exporte.',
    permissions: [
      'pec.view',
      'pec.create',
      'pec.edit',
      'pec.documents.view',
      'pec.documents.create',
      'pec.documents.delete',
      'billing.payment',
      'settings.pec.create',
      'export.pec',
    ],
  },
  assistant: {
    name: 'Assistant(e)',
    description: 'Crée et complète les demandes de PEC de ses centres (DPEC, facturation) ; ne supprime rien.',
    // pec.edit: the billing dialog saves the invoice number and date before the billing run.
    permissions: ['pec.view', 'pec.create', 'pec.edit', 'pec.documents.view', 'pec.documents.create', 'settings.pec.create'],
  },
  readOnly: {
    name: 'Lecture seule',
    description: 'Consulte les demandes de PEC et leurs documents, ne modifie rien, pas de paramètres.',
    permissions: ['pec.view', 'pec.documents.view'],
  },
} satisfies Record<string, RoleDefinition>;

/** A seeded role's key, kept in its row's seed_key. */
export type SeededRoleKey = keyof typeof SEEDED_ROLES;
