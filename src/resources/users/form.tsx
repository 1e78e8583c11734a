// Utilisateurs: a new user gets an invitation by email (the default) or a password typed now (domain/rules.ts); the
// password behind "Modifier le mot de passe" when editing, checked live against the password policy; centres chosen
// among the user's organisation; the account's access in the drawer (./account.tsx).
import { userRules } from '#domain/rules';
import { ownHolding } from '../shared';
import { InvitationInput, withPasswordPolicy } from './account';
import { OrganisationShopsInput, PasswordField } from './inputs';
import type { FormParticular } from '../types';

export const form: FormParticular = {
  rules: (constrained) => {
    const { create, update } = userRules(constrained);
    return { create: withPasswordPolicy(create), update: withPasswordPolicy(update) };
  },
  inputs: { sendInvitation: InvitationInput, password: PasswordField, shops: OrganisationShopsInput },
  defaults: ownHolding,
};
