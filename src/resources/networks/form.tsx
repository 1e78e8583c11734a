// Réseaux: marking one as default says that the others were unmarked (spec section 4).
import type { FormParticular } from '../types';

export const form: FormParticular = {
  savedToast: ({ mode, saved, record }) =>
    saved.isDefault && !record?.isDefault
      ? {
          title: mode === 'create' ? 'pecflow.settings.networks.defaultSet' : 'pecflow.settings.networks.defaultUpdated',
          message: 'pecflow.settings.networks.defaultText',
          args: { name: saved.name },
        }
      : undefined,
};
