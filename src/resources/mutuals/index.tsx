// Mutuelles: the network's name or "Non défini" (spec section 2).
import { NameOr } from '../shared';
import type { Particular } from '../types';

export const particular: Particular = {
  cells: { network: { sortBy: false, render: (record) => <NameOr value={record.network} fallback="pecflow.settings.list.undefined" /> } },
};
