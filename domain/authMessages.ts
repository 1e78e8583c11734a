// Sign-in constants and messages shared by the browser session, the login form and the auth endpoints (spec sections 5
// and 9). Apart from the login schema (auth.ts), so that the session code does not bring zod to the login page.
/** Seconds before expiry at which the browser refreshes its access token (spec section 9). */
export const PROACTIVE_REFRESH_SECONDS = 180;
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;

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
