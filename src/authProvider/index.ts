// react-admin's authProvider over the session: login, logout, checks, identity and permission-based access.
import type { AuthProvider } from 'ra-core';
import { hasPermission } from '#domain/permissions';
import { permissionFor } from '#domain/resources';
import { readAdminSchema } from '../dataProvider/adminSchema';
import { apiFetch } from '../dataProvider/http';
import {
  authFetch,
  clearNoteDrafts,
  clearSession,
  freshAccessToken,
  getAccessToken,
  getRefreshToken,
  markSessionExpired,
  readAuthStore,
  scheduleProactiveRefresh,
  SessionExpiredError,
  sessionEndReasonIn,
  storeTokens,
  writeAuthStore,
  type SessionUser,
  type TokenResponse,
} from '../session';
import { extractErrorMessage } from '#domain/errors';
import type { SignInStep } from '#domain/accounts';
import { HttpError } from 'ra-core';
import { forgetKeptFrames } from '../keptFrame';

export async function loadProfile(): Promise<SessionUser> {
  const user = await apiFetch<SessionUser>('/api/user/profile');
  writeAuthStore(user);
  return user;
}

/** A sign-in answer that is not the tokens yet: the next step (issue 26: second factor, new password, enrolment). */
export interface SignInStepAnswer {
  step: SignInStep;
  challenge: string;
  message?: string;
  owner?: { email: string; firstName: string; lastName: string };
  secret?: string;
  otpauthUrl?: string;
  qrCode?: string;
}

/** Thrown by login() when the server asks for another step before any token: the login page shows it. */
export class SignInStepRequired extends Error {
  constructor(readonly answer: SignInStepAnswer) {
    super(answer.step);
  }
}

const STEP_PATHS: Record<SignInStep, string> = {
  two_factor: '/api/login_check/two-factor',
  password_change: '/api/login_check/password',
  two_factor_enrolment: '/api/login_check/two-factor-enrolment',
};

export type LoginParams =
  | { email?: string; username?: string; password: string }
  /** A step's answer: its code or its new password. */
  | { step: SignInStep; challenge: string; code?: string; password?: string }
  /** Tokens already obtained (an enrolment's last step, shown its recovery codes first). */
  | { tokens: TokenResponse };

/** Posts a sign-in step; answers the tokens or the next step, or throws the server's French refusal. */
export async function postSignIn(path: string, body: unknown): Promise<TokenResponse & Partial<SignInStepAnswer> & { recoveryCodes?: string[] }> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => {
    throw new Error('Connexion au serveur impossible. Vérifiez votre réseau.');
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new HttpError(extractErrorMessage({ body: answer }), response.status, answer);
  return answer;
}

/** 'Recommencer la connexion': the server ends the sign-in left halfway (its challenge opens nothing after). */
export function cancelSignIn(challenge: string) {
  void fetch('/api/login_check/cancel', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ challenge }),
    keepalive: true,
  }).catch(() => undefined);
}

export const authProvider: AuthProvider = {
  async login(params: LoginParams) {
    let answer: TokenResponse & Partial<SignInStepAnswer>;
    if ('tokens' in params) answer = params.tokens;
    else if ('step' in params)
      answer = await postSignIn(STEP_PATHS[params.step], { challenge: params.challenge, code: params.code, password: params.password });
    else answer = await postSignIn('/api/login_check', { email: params.email ?? params.username, password: params.password });
    if (answer.step && answer.challenge) throw new SignInStepRequired(answer as SignInStepAnswer);
    storeTokens(answer);
    forgetKeptFrames();
    // The sign-in's answer carries the profile: the first page does not wait for GET /api/user/profile.
    if (answer.profile) writeAuthStore(answer.profile);
    else await loadProfile();
  },

  async logout() {
    const refreshToken = getRefreshToken();
    clearSession();
    clearNoteDrafts();
    forgetKeptFrames();
    if (refreshToken) {
      await fetch('/api/token/invalidate', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      }).catch(() => undefined);
    }
  },

  async checkAuth() {
    // Not signed in is not an error worth a toast: just go to the login page.
    if (!getAccessToken()) throw { redirectTo: '/login', message: false };
    // Renews an expired token at start-up; fails (and signs out) when the refresh token is no longer valid.
    await freshAccessToken();
    if (!readAuthStore().isAuthenticated) await loadProfile();
    scheduleProactiveRefresh();
  },

  async checkError(error: { status?: number; reason?: unknown; body?: unknown }) {
    // The fetch layer has already tried one refresh: a 401 that reaches here ends the session. The login page
    // says so ("Session expirée", or why the server ended it: the account disabled or locked); react-admin's own
    // sign-out toast is not shown (message: false).
    if (error?.status === 401) {
      clearSession();
      markSessionExpired(sessionEndReasonIn(error) ?? sessionEndReasonIn(error.body));
      throw { message: false };
    }
  },

  async getIdentity() {
    const { user } = readAuthStore();
    if (!user) throw new SessionExpiredError();
    return { id: user.id, fullName: user.fullName, email: user.email };
  },

  async getPermissions() {
    return readAuthStore().permissions;
  },

  async canAccess({ action, resource }) {
    if (!resource) return true;
    const required = permissionFor(await declaredPermissions(resource), action);
    return required === undefined || hasPermission(readAuthStore().permissions, required);
  },
};

/**
 * The keys a resource declares (pecflow:admin.permissions in /api/docs.jsonld, read once). Unreadable docs restrict
 * nothing here: the server refuses what the user may not do, and the page reports the failed load itself.
 */
async function declaredPermissions(resource: string) {
  try {
    return (await readAdminSchema()).entities.find((entity) => entity.name === resource)?.permissions;
  } catch {
    return undefined;
  }
}

export { authFetch };
