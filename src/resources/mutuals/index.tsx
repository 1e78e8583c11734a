// Mutuelles: the network's name or "Non défini"; filtered by status and by network (spec section 2).
import { mutualSchema } from '../../domain/schemas';
import { ENTITY_STATUS_CHOICES, statusColumn, statusFilter } from '../shared';
import { NameOr } from '../../settings/fields';
import type { ResourceConfig } from '../types';

export const mutuals: ResourceConfig = {
  name: 'mutuals',
  section: 'mutuelles',
  feminine: true,
  columns: [{ source: 'name' }, { source: 'code' }, { source: 'network', sortBy: false, render: (record) => <NameOr value={record.network} fallback="pecflow.settings.list.undefined" /> }, statusColumn],
  filters: [statusFilter(), { kind: 'reference', source: 'network', reference: 'networks', optionText: 'name' }],
  searchable: ['name', 'code'],
  form: { fields: ['name', 'code', 'network', 'status'] },
  choices: { status: ENTITY_STATUS_CHOICES },
  schema: { create: mutualSchema, update: mutualSchema },
  defaults: () => ({ status: 'Active' }),
};
