// What no field constraint can say: the named rules of a declaration (server/resources/<x>.ts, `rules`), given the
// schema its fields' constraints make. The browser's form applies the same to the schema the docs make
// (src/resources/<collection>/form.tsx, `rules`).
import { z } from 'zod';
import type { ConstrainedObject } from './constraints';
import { isKnownPermission, type PermissionDefinition } from './permissions';
import { PASSWORD_MAX, PASSWORD_MESSAGES } from './passwordRules';

export const USER_PASSWORD_REQUIRED = 'Le mot de passe est requis lors de la création d’un utilisateur';
export const USER_INVITATION_WITH_PASSWORD = 'Avec une invitation, l’utilisateur choisit lui-même son mot de passe : laissez ce champ vide';

// A user's password is checked against the password policy by the server (server/auth/passwordPolicy.ts, with the
// figures of the system settings) and live in the browser (src/account/password.tsx); here only its bound.
const userPassword = z.preprocess(
  (v) => (v === null ? '' : v),
  z.string({ error: PASSWORD_MESSAGES.required }).max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong).optional(),
);

const isObject = (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null;

/**
 * A user: an empty password keeps the current one. A new user is invited by email to choose a password
 * (sendInvitation), or given one: checked even when other fields are wrong (`when`), so the message shows with the
 * others at the first submit.
 */
export function userRules<T extends ConstrainedObject>(constrained: T) {
  const update = constrained.extend({
    password: userPassword,
    /** Only when creating (the invitation of an existing user is sent again by POST /api/users/{id}/invitation). */
    sendInvitation: z.boolean({ error: 'Valeur invalide : oui ou non attendu.' }).optional(),
  });
  const create = update
    .refine((user) => user.sendInvitation || !!user.password, { path: ['password'], message: USER_PASSWORD_REQUIRED, when: isObject })
    .refine((user) => !user.sendInvitation || !user.password, { path: ['password'], message: USER_INVITATION_WITH_PASSWORD, when: isObject });
  return { create, update };
}

/**
 * A role: its keys checked against the permission catalogue (the server's, GET /api/permissions). Without one (a
 * form whose picker offers catalogue keys only), any key is taken.
 */
export function roleRules<T extends ConstrainedObject>(constrained: T, catalogue?: readonly PermissionDefinition[]) {
  const role = constrained.extend({
    permissions: z
      .array(
        z.string({ error: 'Permission inconnue' }).refine((key) => !catalogue || isKnownPermission(key, catalogue), 'Permission inconnue'),
        { error: 'Liste de permissions attendue' },
      )
      .max(200, 'Trop de permissions')
      .default([]),
  });
  return { create: role, update: role };
}
