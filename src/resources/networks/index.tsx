// Réseaux: active mutuelles per network; marking one as default says that the others were unmarked (spec section 4).
import { networkSchema } from '../../domain/schemas';
import { ENTITY_STATUS_CHOICES, statusColumn, statusFilter } from '../shared';
import { DefaultBadge } from './DefaultBadge';
import type { ResourceConfig } from '../types';

export const networks: ResourceConfig = {
  name: 'networks',
  section: 'networks',
  columns: [
    { source: 'name' },
    { source: 'code' },
    { source: 'activeMutualsCount' },
    { source: 'isDefault', sortBy: false, render: (record) => <DefaultBadge value={record.isDefault} /> },
    statusColumn,
  ],
  listExclude: ['description'],
  filters: [statusFilter()],
  searchable: ['name', 'code'],
  form: { fields: ['name', 'code', 'status', 'isDefault', 'description'], fullWidth: ['description'], multiline: ['description'] },
  choices: { status: ENTITY_STATUS_CHOICES },
  schema: { create: networkSchema, update: networkSchema },
  defaults: () => ({ status: 'Active', isDefault: false }),
  savedToast: ({ mode, saved, record }) =>
    saved.isDefault && !record?.isDefault
      ? {
          title: mode === 'create' ? 'pecflow.settings.networks.defaultSet' : 'pecflow.settings.networks.defaultUpdated',
          message: 'pecflow.settings.networks.defaultText',
          args: { name: saved.name },
        }
      : undefined,
};
