import { and, eq, ne, sql } from 'drizzle-orm';
import { mutuals, networks, pecDossiers } from '../db/schema';
import { conflict, invalidField } from '../http/errors';
import { bool, computed, text, timestamps } from '../hydra/fields';
import { platformWide } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { LONG_TEXT_MAX } from '#domain/validation';
import { entityStatus, optionalText, requiredText } from './constraints';
import { settingsPermissions } from '#domain/resources';
import { stillAttached } from './messages';

export const networksResource: ResourceDeclaration = {
  name: 'networks',
  className: 'Network',
  label: { singular: 'Réseau', plural: 'Réseaux' },
  auditName: 'network',
  table: networks,
  idColumn: networks.id,
  fields: {
    name: text(networks.name, { required: true, iri: 'name', label: 'Nom', constraints: requiredText(2, 'Le nom du réseau est requis (min. 2 caractères)') }),
    code: text(networks.code, {
      description: 'Code unique, 20 caractères au plus',
      label: 'Code',
      constraints: optionalText(20, 'Le code ne peut pas dépasser 20 caractères'),
    }),
    description: text(networks.description, { label: 'Description', constraints: optionalText(LONG_TEXT_MAX) }),
    isDefault: bool(networks.isDefault, { description: 'Réseau proposé par défaut (un seul à la fois)', label: 'Réseau par défaut', default: false }),
    status: text(networks.status, { label: 'Statut', ...entityStatus }),
    // The outer column is written qualified: Drizzle renders columns unqualified in a single-table select, and a bare
    // "id" inside the subquery would be the mutual's own.
    activeMutualsCount: computed(
      'integer',
      sql`(select count(*)::int from ${mutuals} where ${mutuals.networkId} = ${sql.identifier('networks')}.${sql.identifier('id')} and ${mutuals.status} = 'Active')`,
      { label: 'Mutuelles actives' },
    ),
    ...timestamps(networks),
  },
  // settings.mutuelles governs mutuals and networks (spec section 6).
  permissions: settingsPermissions('settings.mutuelles', { export: true }),
  permissionModule: 'mutual',
  settingsTab: { position: 7 },
  list: {
    columns: ['name', 'code', 'activeMutualsCount', 'isDefault', 'status'],
    filters: [{ field: 'status', kind: 'choice' }],
    searchPlaceholder: 'Rechercher (nom, code)…',
    empty: 'Aucun réseau de mutuelles configuré',
  },
  form: {
    fields: ['name', 'code', 'status', 'isDefault', 'description'],
    fullWidth: ['description'],
    multiline: ['description'],
    defaults: { status: 'Active', isDefault: false },
  },
  // Platform reference data: every signed-in user reads it (the PEC form chooses a network); writing needs settings.mutuelles.*.
  readAccess: 'everyone',
  tenancy: platformWide,
  search: [networks.name, networks.code],
  filters: { status: networks.status, isDefault: networks.isDefault, code: networks.code },
  rangeFilters: { createdAt: networks.createdAt },
  order: { name: networks.name, code: networks.code, status: networks.status, createdAt: networks.createdAt, id: networks.id },
  defaultOrder: ['name', 'asc'],
  frenchOrder: ['name'],
  deletion: {
    mode: 'hard',
    refuseWhileReferenced: [
      { table: mutuals, column: mutuals.networkId, message: stillAttached({ one: 'mutuelle', many: 'mutuelles', feminine: true }, 'à ce réseau') },
      {
        table: pecDossiers,
        column: pecDossiers.networkId,
        message: stillAttached({ one: 'demande de PEC', many: 'demandes de PEC', feminine: true }, 'à ce réseau'),
      },
    ],
  },
  hooks: {
    async beforeWrite({ tx }, input, _values, existing) {
      if (typeof input.code === 'string') {
        const [taken] = await tx
          .select({ id: networks.id })
          .from(networks)
          .where(and(sql`lower(${networks.code}) = lower(${input.code})`, existing ? ne(networks.id, existing.id as number) : undefined));
        if (taken) throw invalidField('code', 'Ce code est déjà utilisé par un autre réseau');
      }
    },
    // Marking one network as default unmarks the others, in the same transaction.
    async afterWrite({ tx }, id, input) {
      if (input.isDefault === true)
        await tx
          .update(networks)
          .set({ isDefault: false })
          .where(and(ne(networks.id, id), eq(networks.isDefault, true)));
    },
    // Deleting the default network would leave the PEC form without one: another is named first.
    beforeDelete(_context, existing) {
      if (existing.isDefault) throw conflict('Impossible de supprimer le réseau par défaut : désignez d’abord un autre réseau par défaut.');
    },
  },
};
