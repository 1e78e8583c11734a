// Utilisateurs: the password behind "Modifier le mot de passe" when editing, centres chosen among the user's
// organisation; a new user needs a password (userCreateSchema).
import { userCreateSchema, userSchema } from '#domain/schemas';
import { ownHolding } from '../shared';
import { OrganisationShopsInput, PasswordField } from './inputs';
import type { FormParticular } from '../types';

export const form: FormParticular = {
  schema: { create: userCreateSchema, update: userSchema },
  inputs: { password: PasswordField, shops: OrganisationShopsInput },
  defaults: ownHolding,
};
