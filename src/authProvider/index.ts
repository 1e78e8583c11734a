// react-admin's authProvider over the session: login, logout, checks, identity and permission-based access.
import type { AuthProvider } from 'ra-core';
import { hasPermission } from '#domain/permissions';
import { permissionFor } from '#domain/resources';
import { readAdminSchema } from '../dataProvider/adminSchema';
import { apiFetch } from '../dataProvider/http';
import {
  authFetch,
  clearSession,
  freshAccessToken,
  getAccessToken,
  getRefreshToken,
  markSessionExpired,
  readAuthStore,
  scheduleProactiveRefresh,
  SessionExpiredError,
  storeTokens,
  writeAuthStore,
  type SessionUser,
  type TokenResponse,
} from './session';
import { extractErrorMessage } from '#domain/errors';

export async function loadProfile(): Promise<SessionUser> {
  const user = await apiFetch<SessionUser>('/api/user/profile');
  writeAuthStore(user);
  return user;
}

export const authProvider: AuthProvider = {
  async login(params: { email?: string; username?: string; password: string }) {
    const response = await fetch('/api/login_check', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ email: params.email ?? params.username, password: params.password }),
    }).catch(() => {
      throw new Error('Connexion au serveur impossible. Vérifiez votre réseau.');
    });
    const body = (await response.json().catch(() => ({}))) as TokenResponse & Record<string, unknown>;
    if (!response.ok) throw new Error(extractErrorMessage({ body }));
    storeTokens(body);
    await loadProfile();
  },

  async logout() {
    const refreshToken = getRefreshToken();
    clearSession();
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

  async checkError(error: { status?: number }) {
    // The fetch layer has already tried one refresh: a 401 that reaches here ends the session. The login page
    // says so ("Session expirée"); react-admin's own sign-out toast is not shown (message: false).
    if (error?.status === 401) {
      clearSession();
      markSessionExpired();
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
