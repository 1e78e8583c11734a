// Validation of the back-office entities, with the messages of spec section 5. The forms and the API both use them.
import { z } from 'zod';
import type { Choice } from './constraints';
import { isKnownPermission, type PermissionDefinition } from './permissions';
import { PASSWORD_MAX, PASSWORD_MESSAGES } from './passwordRules';
import {
  booleanField,
  entityStatus,
  httpUrl,
  LONG_TEXT_MAX,
  optionalEmail,
  optionalReference,
  optionalText,
  optionalUrl,
  reference,
  referenceList,
  requiredEmail,
  requiredText,
  TEXT_MAX,
  tooLong,
  USER_STATUSES,
  userStatus,
  type UserStatus,
} from './validation';

/** Enumeration values with their French labels, in the order given. */
export const choicesOf = <T extends string>(labels: Record<T, string>, ids: readonly T[] = Object.keys(labels) as T[]): Choice[] =>
  ids.map((id) => ({ id, name: labels[id] }));

export const STATUS_LABELS: Record<UserStatus, string> = { Active: '✅ Activé', Inactive: '❌ Désactivé', Locked: '🔒 Bloqué' };
export const ENTITY_STATUS_CHOICES = choicesOf(STATUS_LABELS, ['Active', 'Inactive']);
export const USER_STATUS_CHOICES = choicesOf(STATUS_LABELS, USER_STATUSES);

const address = {
  street: optionalText(),
  postalCode: optionalText(20),
  city: optionalText(),
  country: requiredText(2, 'Pays requis', 100),
};

export const holdingSchema = z.object({
  name: requiredText(2, 'Nom requis'),
  registrationNumber: requiredText(3, 'SIREN requis', 50),
  vatNumber: optionalText(50),
  email: optionalEmail(),
  phone: optionalText(50),
  ...address,
  status: entityStatus(),
});

export const companySchema = z.object({
  name: requiredText(2, 'Nom requis'),
  registrationNumber: requiredText(3, 'SIREN requis', 50),
  vatNumber: optionalText(50),
  holding: reference('holdings', 'Organisation requise'),
  ...address,
  status: entityStatus(),
});

export const SPECIALITES = ['Audioprothésiste', 'Opticien', 'Orthopédiste'] as const;

const digits = (count: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(new RegExp(`^\\d{${count}}$`), message);

export const shopSchema = z.object({
  name: requiredText(2, 'Nom requis'),
  numero: optionalText(50),
  siret: requiredText(3, 'SIRET requis', 50),
  company: reference('companies', 'Entreprise requise'),
  ...address,
  email: optionalEmail(),
  phone: optionalText(50),
  status: entityStatus(),
  displayName: optionalText(),
  finess: digits(9, 'FINESS doit contenir 9 chiffres'),
  rpps: digits(11, 'RPPS doit contenir 11 chiffres'),
  codeClient: z.string({ error: 'Code client requis' }).trim().min(1, 'Code client requis').max(50, 'Code client trop long'),
  specialite: z.enum(SPECIALITES, { error: 'Spécialité invalide : Audioprothésiste, Opticien ou Orthopédiste' }),
  credentials: referenceList('credential_software', 'Identifiant invalide'),
});

// A user's password is checked against the password policy by the server (server/auth/passwordPolicy.ts, with the
// figures of the system settings) and live in the browser (src/account/password.tsx); here only its bound.
const userPassword = z.preprocess(
  (v) => (v === null ? '' : v),
  z.string({ error: PASSWORD_MESSAGES.required }).max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong).optional(),
);

/** A user as edited: an empty password keeps the current one. */
export const userSchema = z.object({
  firstName: requiredText(2, 'Prénom requis'),
  lastName: requiredText(2, 'Nom requis'),
  email: requiredEmail(),
  password: userPassword,
  holding: reference('holdings', 'Organisation requise'),
  status: userStatus(),
  shops: referenceList('shops', 'Centre invalide'),
  roles: referenceList('roles', 'Rôle invalide'),
  /** Only when creating (the invitation of an existing user is sent again by POST /api/users/{id}/invitation). */
  sendInvitation: z.boolean({ error: 'Valeur invalide : oui ou non attendu.' }).optional(),
});

export const USER_PASSWORD_REQUIRED = "Le mot de passe est requis lors de la création d'un utilisateur";
export const USER_INVITATION_WITH_PASSWORD = 'Avec une invitation, l’utilisateur choisit lui-même son mot de passe : laissez ce champ vide';

const isObject = (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null;

/**
 * A new user is invited by email to choose a password (sendInvitation), or given one. Checked even when other fields
 * are wrong (`when`): the message shows with the others at the first submit.
 */
export const userCreateSchema = userSchema
  .refine((user) => user.sendInvitation || !!user.password, { path: ['password'], message: USER_PASSWORD_REQUIRED, when: isObject })
  .refine((user) => !user.sendInvitation || !user.password, { path: ['password'], message: USER_INVITATION_WITH_PASSWORD, when: isObject });

export const mutualSchema = z.object({
  name: requiredText(2, 'Le nom de la mutuelle est requis (min. 2 caractères)'),
  code: optionalText(50),
  network: optionalReference('networks', 'Réseau invalide'),
  status: entityStatus(),
});

export const networkSchema = z.object({
  name: requiredText(2, 'Le nom du réseau est requis (min. 2 caractères)'),
  code: optionalText(20, 'Le code ne peut pas dépasser 20 caractères'),
  description: optionalText(LONG_TEXT_MAX),
  isDefault: booleanField().default(false),
  status: entityStatus(),
});

export const SOFTWARE_TYPES = ['general', 'mutual', 'network', 'medical', 'billing'] as const;
export const SOFTWARE_TYPE_LABELS: Record<(typeof SOFTWARE_TYPES)[number], string> = {
  general: 'Général',
  mutual: 'Mutuelle',
  network: 'Réseau',
  medical: 'Médical',
  billing: 'Facturation',
};
/** The form offers the first three; medical and billing are accepted from the API. */
export const SOFTWARE_FORM_TYPES = ['general', 'mutual', 'network'] as const;

export const softwareSchema = z.object({
  label: z
    .string({ error: 'Le libellé doit contenir au moins 2 caractères' })
    .trim()
    .min(2, 'Le libellé doit contenir au moins 2 caractères')
    .max(255, 'Le libellé ne peut pas dépasser 255 caractères'),
  description: optionalText(LONG_TEXT_MAX),
  type: z.enum(SOFTWARE_TYPES, { error: 'Type de logiciel requis' }),
  vendor: optionalText(255, 'Le fournisseur ne peut pas dépasser 255 caractères'),
  version: optionalText(100, 'La version ne peut pas dépasser 100 caractères'),
  apiUrl: optionalUrl("L'URL de l'API doit être valide"),
  documentationUrl: optionalUrl("L'URL de documentation doit être valide"),
  status: entityStatus(),
  holding: optionalReference('holdings', 'Organisation requise'),
});

export const CONTEXT_TYPES = ['general', 'mutual', 'network'] as const;
export const ENVIRONMENTS = ['production', 'test'] as const;
export const ENVIRONMENT_LABELS: Record<(typeof ENVIRONMENTS)[number], string> = { production: 'Production', test: 'Test' };

const tooLongSecret = 'Ce secret ne peut pas dépasser 255 caractères';

/** Secrets: an empty value keeps the stored one. */
const secret = (min: number, message: string) =>
  z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string({ error: message })
      .trim()
      .max(TEXT_MAX, tooLongSecret)
      .refine((v) => v === '' || v.length >= min, message)
      .optional(),
  );

export const credentialSchema = z.object({
  login: z
    .string({ error: "L'identifiant doit contenir au moins 2 caractères" })
    .trim()
    .min(2, "L'identifiant doit contenir au moins 2 caractères")
    .max(255, "L'identifiant ne peut pas dépasser 255 caractères"),
  password: secret(4, 'Le mot de passe doit contenir au moins 4 caractères'),
  loginPage: z
    .string({ error: 'La page de connexion est requise' })
    .trim()
    .min(1, 'La page de connexion est requise')
    .max(TEXT_MAX, tooLong(TEXT_MAX))
    .pipe(httpUrl("L'URL de connexion doit être valide")),
  status: entityStatus(),
  contextType: z.enum(CONTEXT_TYPES, { error: 'Contexte invalide : general, mutual ou network' }).default('general'),
  contextName: optionalText(),
  software: reference('software', 'Un logiciel doit être sélectionné'),
  holding: optionalReference('holdings', 'Organisation requise'),
  environment: z.enum(ENVIRONMENTS, { error: 'Environnement invalide : production ou test' }).default('production'),
  apiKey: secret(1, 'Clé API invalide'),
  apiSecret: secret(1, 'Secret API invalide'),
  displayIdentifier: optionalText(),
});

/**
 * A role, its keys checked against the permission catalogue (the server's, GET /api/permissions). Without one (a
 * form whose picker offers catalogue keys only), any key is taken.
 */
export const roleSchemaFor = (catalogue?: readonly PermissionDefinition[]) =>
  z.object({
    name: requiredText(2, 'Le nom du rôle est requis (min. 2 caractères)', 100),
    description: optionalText(LONG_TEXT_MAX),
    permissions: z
      .array(
        z.string({ error: 'Permission inconnue' }).refine((key) => !catalogue || isKnownPermission(key, catalogue), 'Permission inconnue'),
        {
          error: 'Liste de permissions attendue',
        },
      )
      .max(200, 'Trop de permissions')
      .default([]),
    holding: optionalReference('holdings', 'Organisation requise'),
  });

export const roleSchema = roleSchemaFor();
