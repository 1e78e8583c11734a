// Sign-in, token refresh, logout and the profile (spec section 7, Authentication).
import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { loginAttempts, users } from '../db/schema';
import { ApiError, unauthorized } from '../http/errors';
import { principalOf } from '../context';
import { SETTING_KEYS } from '../settings';
import { AUTH_MESSAGES, loginSchema, sessionEndReasonOf } from '#domain/auth';
import { grantedDefinitions, grants, PERMISSION_MODULE_LABELS, type PermissionDefinition } from '#domain/permissions';
import { sessionEnded } from './plugin';
import { loadPrincipal, type Principal } from './principal';
import { verifyPassword } from './passwords';
import { signInSteps, type BeginAttempt } from './signIn';

/** Failures (times the per-address limit) after which an email is blocked for every address: a distributed attack. */
export const DISTRIBUTED_FACTOR = 10;

const refreshSchema = z.object({
  refresh_token: z.string({ error: 'Le jeton de rafraîchissement est requis' }).min(1, 'Le jeton de rafraîchissement est requis'),
});

export function profileOf(principal: Principal, catalogue: readonly PermissionDefinition[]) {
  const details = grantedDefinitions(principal.permissions, catalogue).map((definition) => ({
    ...definition,
    groups: principal.roles.filter((role) => role.permissions.some((key) => grants(key, definition.key))).map(({ id, name }) => ({ id, name })),
  }));
  return {
    id: principal.id,
    email: principal.email,
    firstName: principal.firstName,
    lastName: principal.lastName,
    fullName: `${principal.firstName} ${principal.lastName}`,
    holdingId: principal.holdingId,
    shopId: principal.shopIds[0] ?? null,
    shopIds: principal.shopIds,
    status: principal.status,
    isActive: principal.status === 'Active',
    createdAt: principal.createdAt.toISOString(),
    updatedAt: principal.updatedAt.toISOString(),
    permissions: principal.permissions,
    permissionsDetails: details,
  };
}

/**
 * The count of sign-in attempts per email (server/auth/signIn.ts, BeginAttempt): passwords and second-factor codes
 * (signing in, turning the second factor off) share it, so one limit bounds every guess at an account.
 */
export function attemptCounter(app: FastifyInstance): BeginAttempt {
  const { db, settings } = app.ctx;

  /** Failed (or still undecided) attempts for this email inside the window before `beforeId`, since its last success. */
  async function recentFailures(email: string, windowMinutes: number, beforeId: number) {
    const since = new Date(Date.now() - windowMinutes * 60_000);
    const rows = await db
      .select({ succeeded: loginAttempts.succeeded, ip: loginAttempts.ip, createdAt: loginAttempts.createdAt })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.email, email), gt(loginAttempts.createdAt, since), lt(loginAttempts.id, beforeId)))
      .orderBy(desc(loginAttempts.id))
      .limit(500);
    const failures: { ip: string | null; createdAt: Date }[] = [];
    for (const row of rows) {
      if (row.succeeded) break;
      failures.push(row);
    }
    return failures;
  }

  /**
   * Records a sign-in attempt as a failure before anything is checked: guesses sent in parallel each take their place
   * in the count, so no more than maxAttempts passwords (or second-factor codes) are ever checked within the window
   * from one address. Returns how to settle it: true (success, the count starts again), false (stays a failure),
   * undefined (counts neither way).
   */
  return async (email, request) => {
    const maxAttempts = await settings.number(SETTING_KEYS.loginMaxAttempts, 5);
    const windowMinutes = await settings.number(SETTING_KEYS.loginWindowMinutes, 15);
    const [attempt] = await db.insert(loginAttempts).values({ email, ip: request.ip, succeeded: false }).returning({ id: loginAttempts.id });
    const settle = (succeeded: boolean | undefined) =>
      succeeded === undefined
        ? db.delete(loginAttempts).where(eq(loginAttempts.id, attempt!.id))
        : db.update(loginAttempts).set({ succeeded }).where(eq(loginAttempts.id, attempt!.id));

    // An email with maxAttempts failures is blocked for the addresses those failures came from, not for an address
    // with none: a stranger's guesses do not lock the owner out. While it is blocked, each new address gets one try
    // (its failure blocks it too); only an attack from many addresses (DISTRIBUTED_FACTOR times maxAttempts failures)
    // blocks the email for everyone, so guesses on one email stay bounded whatever the number of addresses.
    const failures = await recentFailures(email, windowMinutes, attempt!.id);
    const fromHere = failures.filter((failure) => failure.ip === request.ip);
    const distributedLimit = maxAttempts * DISTRIBUTED_FACTOR;
    if ((failures.length >= maxAttempts && fromHere.length > 0) || failures.length >= distributedLimit) {
      await settle(undefined);
      const windowEnd = (failure: { createdAt: Date }) => failure.createdAt.getTime() + windowMinutes * 60_000;
      const unblockedAt =
        failures.length >= distributedLimit
          ? windowEnd(failures[distributedLimit - 1]!)
          : Math.min(windowEnd(failures[maxAttempts - 1]!), windowEnd(fromHere[0]!));
      const seconds = Math.max(1, Math.ceil((unblockedAt - Date.now()) / 1000));
      throw new ApiError(429, AUTH_MESSAGES.tooManyAttempts(Math.ceil(seconds / 60)), { retryAfterSeconds: seconds });
    }
    return settle;
  };
}

export async function authRoutes(app: FastifyInstance) {
  const { db, tokens } = app.ctx;
  const beginAttempt = attemptCounter(app);
  const catalogue = app.ctx.resources.permissionCatalogue;
  /** A sign-in that ends: its tokens, and the profile the browser would otherwise ask for at once. */
  const signedIn = async (user: typeof users.$inferSelect) => {
    await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
    const [pair, principal] = await Promise.all([tokens.issue(user), loadPrincipal(app.ctx.database, user.id)]);
    return principal ? { ...pair, profile: profileOf(principal, catalogue) } : pair;
  };
  const steps = signInSteps(app, beginAttempt, signedIn);

  app.post('/api/login_check', { config: { public: true } }, async (request) => {
    const { email: rawEmail, password } = loginSchema.parse(request.body ?? {});
    const email = rawEmail.toLowerCase();
    const settle = await beginAttempt(email, request);

    const [user] = await db.select().from(users).where(eq(users.email, email));
    // A wrong password keeps the attempt as a failure (an invited user without a password has none to guess).
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) throw unauthorized(AUTH_MESSAGES.invalidCredentials);
    // Only someone who knows the password learns that the account is disabled; that attempt counts neither way.
    if (user.status !== 'Active') {
      await settle(undefined);
      throw unauthorized(user.status === 'Locked' ? AUTH_MESSAGES.accountLocked : AUTH_MESSAGES.accountInactive);
    }

    // A second factor, a new password or an enrolment still to pass: no token yet, and the attempt is settled by the
    // last step (a right password alone does not clear the failed codes).
    const remaining = await steps.stepsAfterPassword(user, password);
    if (remaining.length) {
      await settle(undefined);
      return steps.open(user, remaining);
    }
    await settle(true);
    return signedIn(user);
  });

  app.post('/api/token/refresh', { config: { public: true } }, async (request) => {
    const { refresh_token } = refreshSchema.parse(request.body ?? {});
    const consumed = await tokens.consume(refresh_token);
    // The holder of the session's current refresh token learns why it ended when its account is no longer active
    // (disabling it revokes its sessions, server/resources/users.ts); any other token gets the plain refusal.
    const userId = consumed?.userId ?? (await tokens.revokedHolder(refresh_token));
    const principal = userId === undefined ? undefined : await loadPrincipal(app.ctx.database, userId);
    const ended = principal && sessionEndReasonOf(principal.status);
    if (ended) throw sessionEnded(ended);
    if (!consumed || !principal) throw unauthorized(AUTH_MESSAGES.invalidRefreshToken);
    return tokens.issue(principal, consumed.familyId);
  });

  // Logout works with the refresh token alone: an expired access token must not prevent it.
  app.post('/api/token/invalidate', { config: { public: true } }, async (request, reply) => {
    const { refresh_token } = refreshSchema.parse(request.body ?? {});
    await tokens.revoke(refresh_token);
    return reply.status(204).send();
  });

  // Kept for a page load or a refresh (spec sections 4 and 7); a sign-in's answer carries it already.
  app.get('/api/user/profile', async (request) => profileOf(principalOf(request), catalogue));

  // The permission catalogue (the declarations' entity keys and the others), for the role editor and "Mes permissions".
  app.get('/api/permissions', async () => ({
    '@id': '/api/permissions',
    '@type': 'hydra:Collection',
    totalItems: catalogue.length,
    member: catalogue,
    modules: PERMISSION_MODULE_LABELS,
  }));
}
