// Sign-in rules shared by the login form and the login endpoint (spec section 5, Login).
import { z } from 'zod';
import { EMAIL_SHAPE, LOGIN_MESSAGES, LOGIN_PASSWORD_MIN } from './authMessages';

export const loginSchema = z.object({
  email: z
    .string({ error: LOGIN_MESSAGES.emailRequired })
    .trim()
    .min(1, LOGIN_MESSAGES.emailRequired)
    .pipe(z.email({ pattern: EMAIL_SHAPE, error: LOGIN_MESSAGES.emailInvalid })),
  password: z.string({ error: LOGIN_MESSAGES.passwordTooShort }).min(LOGIN_PASSWORD_MIN, LOGIN_MESSAGES.passwordTooShort),
});

export type LoginInput = z.infer<typeof loginSchema>;

export {
  AUTH_MESSAGES,
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  PROACTIVE_REFRESH_SECONDS,
  SESSION_END_MESSAGES,
  sessionEndReasonOf,
  type SessionEndReason,
} from './authMessages';
