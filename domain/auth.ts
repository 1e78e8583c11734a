// Sign-in rules shared by the login form and the login endpoint (spec section 5, Login).
import { z } from 'zod';

export const loginSchema = z.object({
  email: z.string({ error: "L'email est obligatoire" }).trim().min(1, "L'email est obligatoire").pipe(z.email("Format d'email invalide")),
  password: z.string({ error: 'Le mot de passe doit contenir au moins 6 caractères' }).min(6, 'Le mot de passe doit contenir au moins 6 caractères'),
});

export type LoginInput = z.infer<typeof loginSchema>;

export { AUTH_MESSAGES, DEFAULT_TOKEN_LIFETIME_SECONDS, PROACTIVE_REFRESH_SECONDS } from './authMessages';
