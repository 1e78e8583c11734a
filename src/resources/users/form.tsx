// Utilisateurs: a new user gets an invitation by email (the default) or a password typed now (userCreateSchema); the
// password behind "Modifier le mot de passe" when editing, checked live against the password policy; centres chosen
// among the user's organisation; the account's access in the drawer (./account.tsx).
import { userCreateSchema, userSchema } from '#domain/schemas';
import { ownHolding } from '../shared';
import { InvitationInput, withPasswordPolicy } from './account';
import { OrganisationShopsInput, PasswordField } from './inputs';
import type { FormParticular } from '../types';

export const form: FormParticular = {
  schema: { create: withPasswordPolicy(userCreateSchema), update: withPasswordPolicy(userSchema) },
  inputs: { sendInvitation: InvitationInput, password: PasswordField, shops: OrganisationShopsInput },
  defaults: ownHolding,
};
