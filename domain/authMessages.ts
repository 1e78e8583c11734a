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
