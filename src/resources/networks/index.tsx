// Réseaux: "Par défaut" in the list.
import { DefaultBadge } from './DefaultBadge';
import type { Particular } from '../types';

export const particular: Particular = {
  cells: { isDefault: { sortBy: false, render: (record) => <DefaultBadge value={record.isDefault} /> } },
};
