// Sign-in rules shared by the login form and the login endpoint (spec section 5, Login).
import { z } from 'zod';

export const loginSchema = z.object({
  email: z.string({ error: "L'email est obligatoire" }).trim().min(1, "L'email est obligatoire").pipe(z.email("Format d'email invalide")),
  password: z.string({ error: 'Le mot de passe doit contenir au moins 6 caractères' }).min(6, 'Le mot de passe doit contenir au moins 6 caractères'),
});

export type LoginInput = z.infer<typeof loginSchema>;

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
