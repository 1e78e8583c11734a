import { count, eq } from 'drizzle-orm';
import { companies, shops } from '../db/schema';
import { invalidField } from '../http/errors';
import { reference, text, timestamp } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { companySchema } from '../../src/domain/schemas';
import { RESOURCE_PERMISSIONS } from '../../src/domain/resources';
import { stillAttached } from './messages';

export const companiesResource: ResourceDeclaration = {
  name: 'companies',
  className: 'Company',
  title: 'Entreprise',
  auditName: 'company',
  table: companies,
  idColumn: companies.id,
  fields: {
    name: text(companies.name, { required: true, iri: 'name' }),
    registrationNumber: text(companies.registrationNumber, { required: true, description: 'SIREN' }),
    vatNumber: text(companies.vatNumber, { description: 'Numéro de TVA intracommunautaire' }),
    holding: reference('holdings', companies.holdingId, { required: true, embed: ['name'] }),
    street: text(companies.street),
    postalCode: text(companies.postalCode),
    city: text(companies.city),
    country: text(companies.country, { required: true }),
    status: text(companies.status),
    createdAt: timestamp(companies.createdAt),
    updatedAt: timestamp(companies.updatedAt),
  },
  schema: { create: companySchema, update: companySchema },
  permissions: RESOURCE_PERMISSIONS.companies,
  tenancy: holdingOwned(companies.holdingId),
  search: [companies.name, companies.registrationNumber, companies.city],
  filters: { status: companies.status, holding: companies.holdingId, name: companies.name },
  rangeFilters: { createdAt: companies.createdAt },
  order: { name: companies.name, city: companies.city, status: companies.status, createdAt: companies.createdAt, id: companies.id },
  defaultOrder: ['name', 'asc'],
  deletion: {
    mode: 'hard',
    refuseWhileReferenced: [{ table: shops, column: shops.companyId, message: stillAttached({ one: 'centre', many: 'centres' }, 'à cette entreprise') }],
  },
  hooks: {
    // Its centres (and their users and files) stay in their organisation: a company with centres keeps its own.
    async beforeWrite({ tx }, _input, values, existing) {
      if (!existing || values.holdingId === undefined || values.holdingId === existing.holdingId) return;
      const [row] = await tx.select({ n: count() }).from(shops).where(eq(shops.companyId, existing.id as number));
      const n = Number(row?.n ?? 0);
      if (n > 0) throw invalidField('holding', `Impossible de changer l'organisation : ${n} centre${n > 1 ? 's sont rattachés' : ' est rattaché'} à cette entreprise.`);
    },
  },
};
