// Sign-in constants and messages shared by the browser session, the login form and the auth endpoints (spec sections 5
// and 9). Apart from the login schema (auth.ts), so that the session code does not bring zod to the login page.
/** Seconds before expiry at which the browser refreshes its access token (spec section 9). */
export const PROACTIVE_REFRESH_SECONDS = 180;
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;

/** The spec's login rules (section 5) without zod, so that the login page posts without its chunk; loginSchema
 * (auth.ts) applies the same ones on the server. EMAIL_SHAPE is zod's own email pattern. */
export const EMAIL_SHAPE = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
export const LOGIN_PASSWORD_MIN = 6;
export const LOGIN_MESSAGES = {
  emailRequired: 'L’email est obligatoire',
  emailInvalid: 'Format d’email invalide',
  passwordTooShort: `Le mot de passe doit contenir au moins ${LOGIN_PASSWORD_MIN} caractères`,
} as const;

/** The login form's mistakes, field by field (none: it may be posted). */
export function loginErrors({ email, password }: { email: string; password: string }): Partial<Record<'email' | 'password', string>> {
  const errors: Partial<Record<'email' | 'password', string>> = {};
  const trimmed = email.trim();
  if (!trimmed) errors.email = LOGIN_MESSAGES.emailRequired;
  else if (!EMAIL_SHAPE.test(trimmed)) errors.email = LOGIN_MESSAGES.emailInvalid;
  if (password.length < LOGIN_PASSWORD_MIN) errors.password = LOGIN_MESSAGES.passwordTooShort;
  return errors;
}

export const AUTH_MESSAGES = {
  invalidCredentials: 'Identifiants invalides.',
  accountInactive: 'Compte désactivé',
  accountLocked: 'Compte bloqué',
  tooManyAttempts: (minutes: number) => `Trop de tentatives de connexion. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`,
  missingToken: 'Authentification requise : jeton absent ou invalide.',
  invalidRefreshToken: 'Session expirée ou révoquée. Veuillez vous reconnecter.',
  sessionExpiredTitle: 'Session expirée',
  sessionExpired: 'Votre session a expiré. Veuillez vous reconnecter pour continuer.',
  missingAccessToken: 'Access token manquant dans la réponse de login',
} as const;

/**
 * Why the server ended a session, said only to the session's own holder: the 401 that refuses its access token or its
 * refresh token carries it as `reason` (a code, never a French label) when the account is no longer active. Anyone
 * else (an unknown, forged or expired token) gets the plain refusal. The login page shows the message of the code,
 * the same one the login form shows for that account.
 */
export const SESSION_END_MESSAGES = {
  account_inactive: AUTH_MESSAGES.accountInactive,
  account_locked: AUTH_MESSAGES.accountLocked,
} as const;
export type SessionEndReason = keyof typeof SESSION_END_MESSAGES;

export const isSessionEndReason = (value: unknown): value is SessionEndReason => typeof value === 'string' && Object.hasOwn(SESSION_END_MESSAGES, value);

/** The reason a session of an account with this status ends, or undefined while the account is active. */
export function sessionEndReasonOf(status: string): SessionEndReason | undefined {
  if (status === 'Active') return undefined;
  return status === 'Locked' ? 'account_locked' : 'account_inactive';
}
