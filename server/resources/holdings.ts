import { sql } from 'drizzle-orm';
import { isNull } from 'drizzle-orm';
import { companies, holdings, roles, software, users } from '../db/schema';
import { computed, text, timestamps } from '../hydra/fields';
import { sameHolding } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { settingsPermissions } from '#domain/resources';
import { ADDRESS_FIELDS, addressFields } from './address';
import { entityStatus, optionalEmail, optionalText, requiredText } from './constraints';
import { stillAttached } from './messages';

export const holdingsResource: ResourceDeclaration = {
  name: 'holdings',
  className: 'Holding',
  label: { singular: 'Organisation', plural: 'Organisations', feminine: true },
  auditName: 'holding',
  table: holdings,
  idColumn: holdings.id,
  fields: {
    name: text(holdings.name, { required: true, iri: 'name', label: 'Nom', constraints: requiredText(2, 'Nom requis') }),
    registrationNumber: text(holdings.registrationNumber, {
      required: true,
      description: 'SIREN',
      label: 'SIREN',
      constraints: requiredText(3, 'SIREN requis', 50),
    }),
    vatNumber: text(holdings.vatNumber, { description: 'Numéro de TVA intracommunautaire', label: 'N° TVA', constraints: optionalText(50) }),
    email: text(holdings.email, { iri: 'email', label: 'Email', constraints: optionalEmail }),
    phone: text(holdings.phone, { label: 'Téléphone', constraints: optionalText(50) }),
    ...addressFields(holdings),
    status: text(holdings.status, { label: 'Statut', ...entityStatus }),
    fullAddress: computed(
      'string',
      sql`concat_ws(', ', nullif(${holdings.street}, ''), nullif(concat_ws(' ', ${holdings.postalCode}, ${holdings.city}), ''), ${holdings.country})`,
      { label: 'Adresse complète' },
    ),
    ...timestamps(holdings, true),
  },
  permissions: settingsPermissions('settings.holdings', { export: true }),
  permissionModule: 'user',
  settingsTab: { position: 1 },
  list: {
    columns: ['name', 'registrationNumber', 'fullAddress', 'status'],
    filters: [{ field: 'status', kind: 'choice' }],
    searchPlaceholder: 'Rechercher (nom, SIREN, ville)…',
    empty: 'Aucun holding trouvé',
  },
  form: {
    fields: ['name', 'registrationNumber', 'vatNumber', 'status', 'email', 'phone', ...ADDRESS_FIELDS],
    fullWidth: ['street'],
    defaults: { status: 'Active', country: 'France' },
  },
  // An organisation is its own tenant: its members see it, and only it.
  tenancy: { readScope: (principal) => sameHolding(holdings.id, principal) },
  search: [holdings.name, holdings.registrationNumber, holdings.city],
  filters: { status: holdings.status, name: holdings.name },
  rangeFilters: { createdAt: holdings.createdAt },
  order: { name: holdings.name, city: holdings.city, status: holdings.status, createdAt: holdings.createdAt, id: holdings.id },
  defaultOrder: ['name', 'asc'],
  deletion: {
    mode: 'hard',
    refuseWhileReferenced: [
      {
        table: companies,
        column: companies.holdingId,
        message: stillAttached({ one: 'entreprise', many: 'entreprises', feminine: true }, 'à cette organisation'),
      },
      { table: users, column: users.holdingId, message: stillAttached({ one: 'utilisateur', many: 'utilisateurs' }, 'à cette organisation') },
      {
        table: software,
        column: software.holdingId,
        where: isNull(software.deletedAt),
        message: stillAttached({ one: 'logiciel', many: 'logiciels' }, 'à cette organisation'),
      },
      { table: roles, column: roles.holdingId, message: stillAttached({ one: 'rôle', many: 'rôles' }, 'à cette organisation', 'propre') },
    ],
  },
};
