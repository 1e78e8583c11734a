// Utilisateurs: centres counted in the list, the password behind "Modifier le mot de passe" when editing, centres
// chosen among the user's organisation; a new user needs a password (userCreateSchema).
import { userCreateSchema, userSchema } from '#domain/schemas';
import { ownHolding } from '../shared';
import { OrganisationShopsInput, PasswordField, ShopCount } from './inputs';
import type { Particular } from '../types';

export const particular: Particular = {
  schema: { create: userCreateSchema, update: userSchema },
  cells: {
    fullName: { sortBy: 'lastName', render: (record) => <>{String(record.fullName ?? '')}</> },
    shops: { sortBy: false, render: (record) => <ShopCount shops={record.shops} /> },
  },
  inputs: { password: PasswordField, shops: OrganisationShopsInput },
  defaults: ownHolding,
};
