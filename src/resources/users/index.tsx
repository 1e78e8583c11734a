// Utilisateurs: centres counted in the list, the invitation's state with 'Renvoyer l'invitation', the password behind
// "Modifier le mot de passe" when editing and checked live against the password policy, centres chosen among the
// user's organisation; a new user gets an invitation by email or a password (userCreateSchema).
import { userCreateSchema, userSchema } from '#domain/schemas';
import { ownHolding } from '../shared';
import { OrganisationShopsInput, PasswordField, ShopCount } from './inputs';
import { InvitationInput, UserStatusCell, withPasswordPolicy } from './account';
import type { Particular } from '../types';

export const particular: Particular = {
  schema: { create: withPasswordPolicy(userCreateSchema), update: withPasswordPolicy(userSchema) },
  cells: {
    fullName: { sortBy: 'lastName', render: (record) => <>{String(record.fullName ?? '')}</> },
    shops: { sortBy: false, render: (record) => <ShopCount shops={record.shops} /> },
    status: { render: (record) => <UserStatusCell record={record} /> },
  },
  inputs: { sendInvitation: InvitationInput, password: PasswordField, shops: OrganisationShopsInput },
  defaults: ownHolding,
};
