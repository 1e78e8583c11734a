// The browser session: tokens in localStorage, one refresh at a time, and fetch with the bearer token.
import { jwtDecode } from 'jwt-decode';
import { AUTH_MESSAGES, isSessionEndReason, PROACTIVE_REFRESH_SECONDS, type SessionEndReason } from '#domain/authMessages';

export const ACCESS_TOKEN_KEY = 'access_token';
export const REFRESH_TOKEN_KEY = 'refresh_token';
/** The persisted auth store: user, permissions and the authenticated flag (spec section 9). */
export const AUTH_STORE_KEY = 'auth-storage';
/** Set when the server ends the session, so the login page can say why the user is there: '1', or the server's reason. */
const SESSION_EXPIRED_KEY = 'pecflow.session-expired';

/**
 * Notes that the server ended the session, with its reason when it gave one (the account disabled or locked). One
 * ending is seen by several checks (the refused refresh, then the 401 of the call that asked for it): a later one
 * without the reason does not erase it.
 */
export function markSessionExpired(reason?: SessionEndReason) {
  if (!reason && isSessionEndReason(sessionStorage.getItem(SESSION_EXPIRED_KEY))) return;
  sessionStorage.setItem(SESSION_EXPIRED_KEY, reason ?? '1');
}

/** Once after the session was ended by the server (not by a logout): why, if the server said (else `{}`). */
export function takeSessionExpired(): { reason?: SessionEndReason } | undefined {
  const stored = sessionStorage.getItem(SESSION_EXPIRED_KEY);
  sessionStorage.removeItem(SESSION_EXPIRED_KEY);
  if (stored === null) return undefined;
  return isSessionEndReason(stored) ? { reason: stored } : {};
}

/** The reason in a refused session's 401 body (`reason`, server/auth/plugin.ts), if it is one the browser knows. */
export function sessionEndReasonIn(body: unknown): SessionEndReason | undefined {
  const reason = (body as { reason?: unknown } | null | undefined)?.reason;
  return isSessionEndReason(reason) ? reason : undefined;
}

export interface SessionUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  holdingId: number | null;
  shopId: number | null;
  shopIds: number[];
  status: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  permissions: string[];
  permissionsDetails: {
    key: string;
    label: string;
    module: string;
    level: string;
    description: string;
    groups: { id: number; name: string }[];
  }[];
}

export interface AuthStore {
  user: SessionUser | null;
  permissions: string[];
  isAuthenticated: boolean;
}

export interface TokenResponse {
  token?: string;
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  /** A sign-in's answer (not a refresh's): the user's profile, as GET /api/user/profile gives it. */
  profile?: SessionUser;
}

/** Thrown when the session cannot be recovered: the caller signs the user out. */
export class SessionExpiredError extends Error {
  readonly status = 401;
  constructor(
    message: string = AUTH_MESSAGES.invalidRefreshToken,
    /** Why the server ended it, when it said (the account disabled or locked). */
    readonly reason?: SessionEndReason,
  ) {
    super(message);
  }
}

export const getAccessToken = () => localStorage.getItem(ACCESS_TOKEN_KEY);
export const getRefreshToken = () => localStorage.getItem(REFRESH_TOKEN_KEY);

export function storeTokens(response: TokenResponse) {
  const accessToken = response.token ?? response.access_token;
  if (!accessToken) throw new Error(AUTH_MESSAGES.missingAccessToken);
  localStorage.setItem(ACCESS_TOKEN_KEY, accessToken);
  if (response.refresh_token) localStorage.setItem(REFRESH_TOKEN_KEY, response.refresh_token);
  scheduleProactiveRefresh();
}

export function readAuthStore(): AuthStore {
  try {
    const parsed = JSON.parse(localStorage.getItem(AUTH_STORE_KEY) ?? 'null');
    if (parsed && typeof parsed === 'object')
      return { user: parsed.user ?? null, permissions: parsed.permissions ?? [], isAuthenticated: !!parsed.isAuthenticated };
  } catch {
    // a corrupt store is an empty one
  }
  return { user: null, permissions: [], isAuthenticated: false };
}

export function writeAuthStore(user: SessionUser) {
  const store: AuthStore = { user, permissions: user.permissions, isAuthenticated: true };
  localStorage.setItem(AUTH_STORE_KEY, JSON.stringify(store));
}

/** Sign-out on this device. The theme is kept: it belongs to the device, not to the session. */
/** The notes being written, per file (src/pec/FollowUpPanel.tsx): this tab's, until added or signed out. */
export const NOTE_DRAFT_PREFIX = 'pecflow.noteDraft.';

/** A signed-out tab keeps no half-written note for whoever signs in next. */
export function clearNoteDrafts() {
  for (const key of Object.keys(sessionStorage)) if (key.startsWith(NOTE_DRAFT_PREFIX)) sessionStorage.removeItem(key);
}

export function clearSession() {
  localStorage.removeItem(ACCESS_TOKEN_KEY);
  localStorage.removeItem(REFRESH_TOKEN_KEY);
  localStorage.removeItem(AUTH_STORE_KEY);
  if (refreshTimer) clearTimeout(refreshTimer);
  refreshTimer = undefined;
}

/** Seconds until the stored access token expires (read from its payload), or undefined without a readable token. */
export function secondsUntilExpiry(token = getAccessToken()): number | undefined {
  if (!token) return undefined;
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return exp === undefined ? undefined : exp - Date.now() / 1000;
  } catch {
    return undefined;
  }
}

let inFlightRefresh: Promise<string> | undefined;

/**
 * Exchanges the refresh token for a new pair. Concurrent callers share one request (single flight):
 * ten calls failing with 401 at once cause exactly one refresh.
 */
export function refreshAccessToken(): Promise<string> {
  inFlightRefresh ??= (async () => {
    const refreshToken = getRefreshToken();
    if (!refreshToken) throw new SessionExpiredError();
    let response: Response;
    try {
      response = await fetch('/api/token/refresh', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
    } catch {
      // Network down: keep the tokens, the next call will try again.
      throw new Error('Connexion au serveur impossible. Vérifiez votre réseau.');
    }
    if (!response.ok) {
      const reason = sessionEndReasonIn(await response.json().catch(() => undefined));
      clearSession();
      markSessionExpired(reason);
      throw new SessionExpiredError(undefined, reason);
    }
    const body = (await response.json()) as TokenResponse;
    storeTokens(body);
    return getAccessToken()!;
  })().finally(() => {
    inFlightRefresh = undefined;
  });
  return inFlightRefresh;
}

/** A token that is valid for at least the proactive margin, refreshing first when it is not. */
export async function freshAccessToken(): Promise<string | null> {
  const token = getAccessToken();
  if (!token) return null;
  const remaining = secondsUntilExpiry(token);
  if (remaining !== undefined && remaining < PROACTIVE_REFRESH_SECONDS && getRefreshToken()) {
    return refreshAccessToken();
  }
  return token;
}

function withBearer(init: RequestInit, token: string | null): RequestInit {
  const headers = new Headers(init.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return { ...init, headers };
}

/**
 * fetch() for the API: sends the bearer token; on a 401, refreshes once (shared with every concurrent call, and not
 * again for a call sent with a token a refresh has already replaced) and retries. When the session cannot be renewed
 * it throws SessionExpiredError.
 */
export async function authFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const token = await freshAccessToken();
  const response = await fetch(input, withBearer(init, token));
  if (response.status !== 401 || !getRefreshToken()) return response;
  // A 401 for a token older than the stored one (a refresh ended while this call was on its way) is retried with the
  // stored token: refreshing again would rotate the session a second time for nothing.
  const current = getAccessToken();
  const renewed = current && current !== token && !inFlightRefresh ? current : await refreshAccessToken();
  return fetch(input, withBearer(init, renewed));
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/** Refreshes 180 s before the access token expires, while the application is open. */
export function scheduleProactiveRefresh() {
  if (refreshTimer) clearTimeout(refreshTimer);
  const remaining = secondsUntilExpiry();
  if (remaining === undefined || !getRefreshToken()) return;
  const delay = Math.max(0, (remaining - PROACTIVE_REFRESH_SECONDS) * 1000);
  // setTimeout overflows past ~24.8 days; tokens never live that long, but stay safe.
  refreshTimer = setTimeout(
    () => {
      refreshAccessToken().catch(() => undefined);
    },
    Math.min(delay, 2 ** 31 - 1),
  );
}
