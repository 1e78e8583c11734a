import { count, eq } from 'drizzle-orm';
import { companies, shops } from '../db/schema';
import { invalidField } from '../http/errors';
import { reference, text, timestamps } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { settingsPermissions } from '#domain/resources';
import { ADDRESS_FIELDS, addressFields } from './address';
import { entityStatus, optionalText, requiredText } from './constraints';
import { stillAttached } from './messages';

export const companiesResource: ResourceDeclaration = {
  name: 'companies',
  className: 'Company',
  label: { singular: 'Entreprise', plural: 'Entreprises', feminine: true },
  auditName: 'company',
  table: companies,
  idColumn: companies.id,
  fields: {
    name: text(companies.name, { required: true, iri: 'name', label: 'Nom', constraints: requiredText(2, 'Nom requis') }),
    registrationNumber: text(companies.registrationNumber, {
      required: true,
      description: 'SIREN',
      label: 'SIREN',
      constraints: requiredText(3, 'SIREN requis', 50),
    }),
    vatNumber: text(companies.vatNumber, { description: 'Numéro de TVA intracommunautaire', label: 'N° TVA', constraints: optionalText(50) }),
    holding: reference('holdings', companies.holdingId, {
      required: true,
      embed: ['name'],
      label: 'Organisation',
      constraints: { message: 'Organisation requise' },
    }),
    ...addressFields(companies),
    status: text(companies.status, { label: 'Statut', ...entityStatus }),
    ...timestamps(companies, true),
  },
  permissions: settingsPermissions('settings.companies', { export: true }),
  permissionModule: 'user',
  settingsTab: { position: 2 },
  list: {
    columns: ['name', 'registrationNumber', 'holding', 'city', 'status'],
    filters: [{ field: 'status', kind: 'choice' }],
    searchPlaceholder: 'Rechercher (nom, SIREN, ville)…',
    empty: 'Aucune entreprise trouvée',
    scopeToHolding: true,
  },
  form: {
    fields: ['name', 'registrationNumber', 'vatNumber', 'holding', 'status', ...ADDRESS_FIELDS],
    fullWidth: ['street'],
    defaults: { status: 'Active', country: 'France' },
  },
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
      const [row] = await tx
        .select({ n: count() })
        .from(shops)
        .where(eq(shops.companyId, existing.id as number));
      const n = Number(row?.n ?? 0);
      if (n > 0)
        throw invalidField('holding', `Impossible de changer l’organisation : ${n} centre${n > 1 ? 's sont rattachés' : ' est rattaché'} à cette entreprise.`);
    },
  },
};
