// Entreprises: the list shows the organisation's name (spec section 2).
import { companySchema } from '../../domain/schemas';
import { ADDRESS_FIELDS, ENTITY_STATUS_CHOICES, ownHolding, statusColumn, statusFilter } from '../shared';
import type { ResourceConfig } from '../types';

export const companies: ResourceConfig = {
  name: 'companies',
  section: 'companies',
  feminine: true,
  columns: [{ source: 'name' }, { source: 'registrationNumber' }, { source: 'holding' }, { source: 'city' }, statusColumn],
  listExclude: ['vatNumber', ...ADDRESS_FIELDS],
  filters: [statusFilter()],
  searchable: ['name', 'registrationNumber', 'city'],
  scopeToHolding: true,
  form: { fields: ['name', 'registrationNumber', 'vatNumber', 'holding', 'status', ...ADDRESS_FIELDS], fullWidth: ['street'] },
  choices: { status: ENTITY_STATUS_CHOICES },
  schema: { create: companySchema, update: companySchema },
  defaults: () => ({ status: 'Active', country: 'France', ...ownHolding() }),
};
