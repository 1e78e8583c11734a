// Réseaux: "Par défaut" in the list; marking one as default says that the others were unmarked (spec section 4).
import { networkSchema } from '#domain/schemas';
import { DefaultBadge } from './DefaultBadge';
import type { Particular } from '../types';

export const particular: Particular = {
  schema: { create: networkSchema, update: networkSchema },
  cells: { isDefault: { sortBy: false, render: (record) => <DefaultBadge value={record.isDefault} /> } },
  savedToast: ({ mode, saved, record }) =>
    saved.isDefault && !record?.isDefault
      ? {
          title: mode === 'create' ? 'pecflow.settings.networks.defaultSet' : 'pecflow.settings.networks.defaultUpdated',
          message: 'pecflow.settings.networks.defaultText',
          args: { name: saved.name },
        }
      : undefined,
};
