// Organisations (holdings): the list shows the full address (spec section 2).
import { holdingSchema } from '../../domain/schemas';
import { ADDRESS_FIELDS, ENTITY_STATUS_CHOICES, statusColumn, statusFilter } from '../shared';
import type { ResourceConfig } from '../types';

export const holdings: ResourceConfig = {
  name: 'holdings',
  section: 'holdings',
  feminine: true,
  columns: [{ source: 'name' }, { source: 'registrationNumber' }, { source: 'fullAddress' }, statusColumn],
  listExclude: ['vatNumber', 'email', 'phone', ...ADDRESS_FIELDS],
  filters: [statusFilter()],
  searchable: ['name', 'registrationNumber', 'city'],
  form: { fields: ['name', 'registrationNumber', 'vatNumber', 'status', 'email', 'phone', ...ADDRESS_FIELDS], fullWidth: ['street'] },
  choices: { status: ENTITY_STATUS_CHOICES },
  schema: { create: holdingSchema, update: holdingSchema },
  defaults: () => ({ status: 'Active', country: 'France' }),
};
