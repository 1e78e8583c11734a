// Logiciels: the form offers the types general, mutual and network; medical and billing come from the API only.
import { SOFTWARE_FORM_TYPES, SOFTWARE_TYPES, softwareSchema } from '../../domain/schemas';
import { ENTITY_STATUS_CHOICES, labelled, ownHolding, statusColumn, statusFilter } from '../shared';
import { ChoiceLabel } from '../../settings/fields';
import type { ResourceConfig } from '../types';

export const software: ResourceConfig = {
  name: 'software',
  section: 'software',
  columns: [{ source: 'label' }, { source: 'type', render: (record) => <ChoiceLabel prefix="softwareType" value={record.type} /> }, { source: 'vendor' }, { source: 'version' }, statusColumn],
  listExclude: ['description', 'apiUrl', 'documentationUrl', 'holding'],
  filters: [{ kind: 'choice', source: 'type', choices: labelled('softwareType', SOFTWARE_TYPES) }, statusFilter()],
  searchable: ['label', 'vendor', 'description'],
  scopeToHolding: true,
  form: {
    fields: ['label', 'type', 'vendor', 'version', 'status', 'holding', 'apiUrl', 'documentationUrl', 'description'],
    fullWidth: ['apiUrl', 'documentationUrl', 'description'],
    multiline: ['description'],
  },
  choices: {
    status: ENTITY_STATUS_CHOICES,
    // A medical or billing software keeps its type when edited.
    type: (record) => labelled('softwareType', [...new Set([...SOFTWARE_FORM_TYPES, ...(typeof record?.type === 'string' && SOFTWARE_TYPES.includes(record.type as never) ? [record.type] : [])])]),
  },
  schema: { create: softwareSchema, update: softwareSchema },
  defaults: () => ({ status: 'Active', type: 'general', ...ownHolding() }),
};
