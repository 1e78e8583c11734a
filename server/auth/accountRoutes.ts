// The account's own routes beside sign-in (issue 26): a forgotten password (the shape of API Platform's
// forgot-password bundle: POST /forgot-password, GET and POST /forgot-password/{token}), invitations accepted, the
// password policy's figures, the signed-in user's password and second factor, and an administrator's actions on a
// user's account (invitation sent again, second factor reset). Every step is audited.
import { and, count, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { principalOf } from '../context';
import { recoveryCodes, users } from '../db/schema';
import { ApiError, conflict, invalidField, notFound } from '../http/errors';
import { QUEUES } from '../jobs/boss';
import { assertWithinCallersRights } from './callersRights';
import {
  accountOf,
  accountTokenOwner,
  consumeAccountToken,
  inviteUser,
  notifyAccount,
  setPassword,
  validAccountToken,
  type AccountTokenPurpose,
} from './accounts';
import { assertPasswordAllowed, readPasswordPolicy } from './passwordPolicy';
import { verifyPassword } from './passwords';
import { requirePermission } from './principal';
import { attemptCounter } from './routes';
import { checkSecondFactor, disableTwoFactor, enableTwoFactor, newEnrolment, secondFactorFailed, totpCounter, twoFactorRequired } from './twoFactor';
import { ACCOUNT_MESSAGES, EMAIL_MAX } from '#domain/accounts';
import { loginSchema } from '#domain/auth';
import { PASSWORD_MAX, PASSWORD_MESSAGES } from '#domain/passwordRules';

const emailSchema = z.object({ email: loginSchema.shape.email });
const newPasswordSchema = z.object({ password: z.string({ error: PASSWORD_MESSAGES.required }).max(PASSWORD_MAX, PASSWORD_MESSAGES.tooLong) });
const codeSchema = z.object({
  code: z.string({ error: ACCOUNT_MESSAGES.codeRequired }).trim().min(1, ACCOUNT_MESSAGES.codeRequired).max(64, ACCOUNT_MESSAGES.codeInvalid),
});
const changeSchema = z.object({
  currentPassword: z.string({ error: ACCOUNT_MESSAGES.currentPasswordWrong }).min(1, ACCOUNT_MESSAGES.currentPasswordWrong).max(PASSWORD_MAX),
  password: newPasswordSchema.shape.password,
});

/** A link's token as it reaches a route: anything longer than ours, or not base64url, is no link of ours. */
function tokenParam(request: FastifyRequest): string {
  const token = (request.params as { token?: string }).token ?? '';
  if (!/^[\w-]{20,100}$/.test(token)) throw notFound(ACCOUNT_MESSAGES.linkInvalid);
  return token;
}

function userIdParam(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647) throw notFound('Utilisateur introuvable.');
  return Number(raw);
}

export async function accountRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const { db, settings } = ctx;

  // Per email address, whatever the client address (which the 'login' family of server/http/rateLimits.ts counts);
  // the address as the request is served (trimmed, lower case), or another spelling of it would start a new count.
  const { max, windowSeconds } = ctx.config.emailRateLimit;
  const perEmail = app.createRateLimit({
    max,
    timeWindow: windowSeconds * 1000,
    keyGenerator: (request) =>
      `reset-email:${String((request.body as { email?: unknown })?.email ?? '')
        .trim()
        .toLowerCase()}`,
  });

  app.get('/api/password-policy', { config: { public: true } }, async () => readPasswordPolicy(settings));

  // The same answer, as fast, whether an account has this address or not: the request only queues a job, which looks
  // for the account and sends its email (server/auth/accounts.ts, handleResetRequest).
  app.post('/api/forgot-password', { config: { public: true } }, async (request, reply) => {
    // Longer than any address (RFC 5321: 254): no account has it; answered alike, with no count, job or audit.
    const typed = (request.body as { email?: unknown } | null)?.email;
    if (typeof typed === 'string' && typed.trim().length > EMAIL_MAX) return reply.status(202).send({ message: ACCOUNT_MESSAGES.forgotSent });
    const { email } = emailSchema.parse(request.body ?? {});
    const limit = await perEmail(request);
    if (!limit.isAllowed && limit.isExceeded) {
      const seconds = Math.max(1, limit.ttlInSeconds);
      throw new ApiError(429, `Trop de demandes pour cette adresse : réessayez dans ${Math.ceil(seconds / 60)} minute${seconds > 60 ? 's' : ''}.`, {
        retryAfterSeconds: seconds,
      });
    }
    await ctx.pec.jobs.send(QUEUES.passwordResetRequest, { email: ctx.secrets.encrypt(email.toLowerCase()), ip: request.ip });
    return reply.status(202).send({ message: ACCOUNT_MESSAGES.forgotSent });
  });

  /** A link's page reads who it is for (to check the new password against their names) before asking for it. */
  const readLink = (purpose: AccountTokenPurpose) => async (request: FastifyRequest) => {
    const row = await validAccountToken(db, tokenParam(request), purpose);
    const account = row && (await accountOf(db, { id: row.userId }));
    if (!row || !account || account.status !== 'Active') throw notFound(ACCOUNT_MESSAGES.linkInvalid);
    return {
      expiresAt: row.expiresAt.toISOString(),
      user: { email: account.email, firstName: account.firstName, lastName: account.lastName, organisation: account.organisation },
      passwordPolicy: await readPasswordPolicy(settings),
    };
  };

  /** Sets the password a link was sent for: once, under the policy; every session of the user ends. */
  const useLink = (purpose: AccountTokenPurpose) => async (request: FastifyRequest, reply: FastifyReply) => {
    const token = tokenParam(request);
    const { password } = newPasswordSchema.parse(request.body ?? {});
    const row = await validAccountToken(db, token, purpose);
    const account = row && (await accountOf(db, { id: row.userId }));
    if (!row || !account || account.status !== 'Active') {
      // A link used again, expired or unknown: audited on its user when it was one of ours.
      const ownerId = account?.id ?? (await accountTokenOwner(db, token, purpose));
      const owner = ownerId === undefined ? undefined : await accountOf(db, { id: ownerId });
      await recordAudit(db, null, {
        action: `user.${purpose}_refused`,
        entity: 'users',
        entityId: owner?.id,
        holdingId: owner?.holdingId ?? null,
        changes: { ip: request.ip },
      });
      throw notFound(ACCOUNT_MESSAGES.linkInvalid);
    }
    await assertPasswordAllowed(settings, password, account);
    // A reset sets a new password, as « Mon profil » does: not the one the link was asked to replace.
    if (purpose === 'password_reset' && (await verifyPassword(account.passwordHash, password))) throw invalidField('password', ACCOUNT_MESSAGES.samePassword);
    await db.transaction(async (tx) => {
      if ((await consumeAccountToken(tx, token, purpose)) !== account.id) throw notFound(ACCOUNT_MESSAGES.linkInvalid);
      await setPassword(ctx, tx, account.id, password);
      await recordAudit(tx, null, {
        action: purpose === 'invitation' ? 'user.invitation_accepted' : 'user.password_reset',
        entity: 'users',
        entityId: account.id,
        holdingId: account.holdingId,
        changes: { ip: request.ip },
      });
      if (purpose === 'password_reset') await notifyAccount(ctx, tx, account.id, { kind: 'password_changed', by: 'reset' });
    });
    ctx.principals.clear();
    return reply.status(204).send();
  };

  app.get('/api/forgot-password/:token', { config: { public: true } }, readLink('password_reset'));
  app.post('/api/forgot-password/:token', { config: { public: true } }, useLink('password_reset'));
  app.get('/api/invitations/:token', { config: { public: true } }, readLink('invitation'));
  app.post('/api/invitations/:token', { config: { public: true } }, useLink('invitation'));

  // ---- the signed-in user ----

  // Mon profil: a new password, given the current one; the other sessions end, this one goes on.
  app.post('/api/user/password', async (request, reply) => {
    const principal = principalOf(request);
    const { currentPassword, password } = changeSchema.parse(request.body ?? {});
    const account = (await accountOf(db, { id: principal.id }))!;
    if (!(await verifyPassword(account.passwordHash, currentPassword))) throw invalidField('currentPassword', ACCOUNT_MESSAGES.currentPasswordWrong);
    await assertPasswordAllowed(settings, password, account);
    if (await verifyPassword(account.passwordHash, password)) throw invalidField('password', ACCOUNT_MESSAGES.samePassword);
    const sid = (request.user as { sid?: string } | undefined)?.sid;
    await db.transaction(async (tx) => {
      await setPassword(ctx, tx, principal.id, password, { keepSession: sid });
      await recordAudit(tx, principal, {
        action: 'user.password_change',
        entity: 'users',
        entityId: principal.id,
        holdingId: principal.holdingId,
        changes: { ip: request.ip },
      });
      await notifyAccount(ctx, tx, principal.id, { kind: 'password_changed', by: 'owner' });
    });
    ctx.principals.clear();
    return reply.status(204).send();
  });

  async function twoFactorState(userId: number, permissions: readonly string[]) {
    const [user] = await db.select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
    const [left] = await db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return {
      enabled: !!user?.enabledAt,
      enabledAt: user?.enabledAt?.toISOString() ?? null,
      required: await twoFactorRequired(settings, permissions),
      recoveryCodesLeft: user?.enabledAt ? Number(left?.n ?? 0) : 0,
    };
  }

  app.get('/api/user/two-factor', async (request) => {
    const principal = principalOf(request);
    return twoFactorState(principal.id, principal.permissions);
  });

  // Enrolment from Mon profil: a new secret (kept encrypted, not active) and its QR code; a code confirms it.
  app.post('/api/user/two-factor/setup', async (request) => {
    const principal = principalOf(request);
    const [user] = await db.select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, principal.id));
    if (user?.enabledAt) throw conflict(ACCOUNT_MESSAGES.twoFactorAlreadyEnabled);
    const enrolment = await newEnrolment(principal.email);
    await db
      .update(users)
      .set({ totpSecretEnc: ctx.secrets.encrypt(enrolment.secret) })
      .where(eq(users.id, principal.id));
    return enrolment;
  });

  app.post('/api/user/two-factor', async (request) => {
    const principal = principalOf(request);
    const { code } = codeSchema.parse(request.body ?? {});
    const [user] = await db.select({ secret: users.totpSecretEnc, enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, principal.id));
    if (user?.enabledAt) throw conflict(ACCOUNT_MESSAGES.twoFactorAlreadyEnabled);
    if (!user?.secret) throw conflict(ACCOUNT_MESSAGES.twoFactorNotStarted);
    const secret = ctx.secrets.decrypt(user.secret);
    const counter = totpCounter(secret, code);
    if (counter === undefined) throw invalidField('code', ACCOUNT_MESSAGES.codeInvalid);
    const codes = await db.transaction(async (tx) => {
      const made = await enableTwoFactor(ctx, tx, principal.id, secret, counter);
      await recordAudit(tx, principal, {
        action: 'user.two_factor_enable',
        entity: 'users',
        entityId: principal.id,
        holdingId: principal.holdingId,
        changes: { ip: request.ip },
      });
      return made;
    });
    return { ...(await twoFactorState(principal.id, principal.permissions)), recoveryCodes: codes };
  });

  // Turned off by its owner with a code, unless the system setting makes it mandatory for them. A wrong code is a
  // field's mistake (422): a 401 would tell the browser its session is gone (it would refresh and send the code again).
  // The codes tried count with the sign-in's (429 past the limit): a stolen session is no way to guess them.
  const beginAttempt = attemptCounter(app);
  app.delete('/api/user/two-factor', async (request, reply) => {
    const principal = principalOf(request);
    const { code } = codeSchema.parse(request.body ?? {});
    if (await twoFactorRequired(settings, principal.permissions)) throw conflict(ACCOUNT_MESSAGES.twoFactorRequired);
    const settle = await beginAttempt(principal.email, request);
    const disabled = await db.transaction(async (tx) => {
      if (!(await checkSecondFactor(ctx, tx, principal.id, code))) return false;
      await disableTwoFactor(tx, principal.id);
      await recordAudit(tx, principal, {
        action: 'user.two_factor_disable',
        entity: 'users',
        entityId: principal.id,
        holdingId: principal.holdingId,
        changes: { ip: request.ip },
      });
      await notifyAccount(ctx, tx, principal.id, { kind: 'two_factor_disabled', by: 'owner' });
      return true;
    });
    if (!disabled) {
      await secondFactorFailed(ctx, principal.id);
      throw invalidField('code', ACCOUNT_MESSAGES.codeInvalid);
    }
    await settle(true);
    return reply.status(204).send();
  });

  // ---- an administrator's actions on a user (the rights to change the user: settings.users.edit, within theirs) ----

  const usersResource = ctx.resources.get('users');
  async function userToChange(request: FastifyRequest, tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) {
    const principal = principalOf(request);
    requirePermission(principal, usersResource.decl.permissions.update);
    const id = userIdParam(request);
    const row = await usersResource.find(principal, id, tx);
    if (!row) throw notFound('Utilisateur introuvable.');
    await assertWithinCallersRights(tx, principal, id);
    return { principal, id };
  }

  app.post('/api/users/:id/invitation', async (request, reply) => {
    await db.transaction(async (tx) => {
      const { principal, id } = await userToChange(request, tx);
      const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id));
      if (user?.passwordHash) throw conflict(ACCOUNT_MESSAGES.invitationAlreadyAccepted);
      await inviteUser(ctx, tx, id, principal);
    });
    ctx.principals.clear();
    return reply.status(202).send({ message: ACCOUNT_MESSAGES.invitationSent });
  });

  app.delete('/api/users/:id/two-factor', async (request, reply) => {
    await db.transaction(async (tx) => {
      const { principal, id } = await userToChange(request, tx);
      const [user] = await tx.select({ enabledAt: users.totpEnabledAt, holdingId: users.holdingId }).from(users).where(eq(users.id, id));
      if (!user?.enabledAt) throw conflict(ACCOUNT_MESSAGES.twoFactorNotEnabled);
      await disableTwoFactor(tx, id);
      await recordAudit(tx, principal, { action: 'user.two_factor_reset', entity: 'users', entityId: id, holdingId: user.holdingId, changes: {} });
      await notifyAccount(ctx, tx, id, { kind: 'two_factor_disabled', by: 'administrator' });
    });
    return reply.status(204).send();
  });
}
