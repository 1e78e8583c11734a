import { mutuals, pecDossiers } from '../db/schema';
import { reference, text, timestamps } from '../hydra/fields';
import { platformWide } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { entityStatus, optionalText, requiredText } from './constraints';
import { settingsPermissions } from '#domain/resources';
import { stillAttached } from './messages';

export const mutualsResource: ResourceDeclaration = {
  name: 'mutuals',
  className: 'Mutual',
  label: { singular: 'Mutuelle', plural: 'Mutuelles', feminine: true },
  auditName: 'mutual',
  table: mutuals,
  idColumn: mutuals.id,
  fields: {
    name: text(mutuals.name, {
      required: true,
      iri: 'name',
      label: 'Nom',
      constraints: requiredText(2, 'Le nom de la mutuelle est requis (min. 2 caractères)'),
    }),
    code: text(mutuals.code, { label: 'Code', constraints: optionalText(50) }),
    network: reference('networks', mutuals.networkId, { embed: ['name', 'code'], label: 'Réseau', constraints: { message: 'Réseau invalide' } }),
    status: text(mutuals.status, { label: 'Statut', ...entityStatus }),
    ...timestamps(mutuals, true),
  },
  // settings.mutuelles governs mutuals and networks (spec section 6).
  permissions: settingsPermissions('settings.mutuelles', { export: true }),
  permissionModule: 'mutual',
  settingsTab: { position: 6, aliases: ['mutuelles'] },
  list: {
    columns: ['name', 'code', 'network', 'status'],
    filters: [
      { field: 'status', kind: 'choice' },
      { field: 'network', kind: 'reference' },
    ],
    searchPlaceholder: 'Rechercher (nom, code)…',
    empty: 'Aucune mutuelle configurée',
  },
  form: { fields: ['name', 'code', 'network', 'status'], defaults: { status: 'Active' } },
  // Platform reference data: every signed-in user reads it (the PEC form chooses a mutual); writing needs settings.mutuelles.*.
  readAccess: 'everyone',
  tenancy: platformWide,
  search: [mutuals.name, mutuals.code],
  // network.id is the spec's filter (GET /api/mutuals?network.id=3&pagination=false).
  filters: { status: mutuals.status, network: mutuals.networkId, 'network.id': mutuals.networkId, code: mutuals.code },
  rangeFilters: { createdAt: mutuals.createdAt },
  order: { name: mutuals.name, code: mutuals.code, status: mutuals.status, createdAt: mutuals.createdAt, id: mutuals.id },
  defaultOrder: ['name', 'asc'],
  frenchOrder: ['name'],
  deletion: {
    mode: 'hard',
    refuseWhileReferenced: [
      {
        table: pecDossiers,
        column: pecDossiers.mutualId,
        message: stillAttached({ one: 'demande de PEC', many: 'demandes de PEC', feminine: true }, 'à cette mutuelle'),
      },
    ],
  },
  versioned: true,
};
