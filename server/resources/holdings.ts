import { sql } from 'drizzle-orm';
import { isNull } from 'drizzle-orm';
import { companies, holdings, roles, software, users } from '../db/schema';
import { computed, text, timestamp } from '../hydra/fields';
import { sameHolding } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { holdingSchema } from '../../src/domain/schemas';
import { RESOURCE_PERMISSIONS } from '../../src/domain/resources';
import { stillAttached } from './messages';

export const holdingsResource: ResourceDeclaration = {
  name: 'holdings',
  className: 'Holding',
  title: 'Organisation',
  auditName: 'holding',
  table: holdings,
  idColumn: holdings.id,
  fields: {
    name: text(holdings.name, { required: true, iri: 'name' }),
    registrationNumber: text(holdings.registrationNumber, { required: true, description: 'SIREN' }),
    vatNumber: text(holdings.vatNumber, { description: 'Numéro de TVA intracommunautaire' }),
    email: text(holdings.email, { iri: 'email' }),
    phone: text(holdings.phone),
    street: text(holdings.street),
    postalCode: text(holdings.postalCode),
    city: text(holdings.city),
    country: text(holdings.country, { required: true }),
    status: text(holdings.status),
    fullAddress: computed('string', sql`concat_ws(', ', nullif(${holdings.street}, ''), nullif(concat_ws(' ', ${holdings.postalCode}, ${holdings.city}), ''), ${holdings.country})`),
    createdAt: timestamp(holdings.createdAt),
    updatedAt: timestamp(holdings.updatedAt),
  },
  schema: { create: holdingSchema, update: holdingSchema },
  permissions: RESOURCE_PERMISSIONS.holdings,
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
      { table: companies, column: companies.holdingId, message: stillAttached({ one: 'entreprise', many: 'entreprises', feminine: true }, 'à cette organisation') },
      { table: users, column: users.holdingId, message: stillAttached({ one: 'utilisateur', many: 'utilisateurs' }, 'à cette organisation') },
      { table: software, column: software.holdingId, where: isNull(software.deletedAt), message: stillAttached({ one: 'logiciel', many: 'logiciels' }, 'à cette organisation') },
      { table: roles, column: roles.holdingId, message: stillAttached({ one: 'rôle', many: 'rôles' }, 'à cette organisation', 'propre') },
    ],
  },
};

