// Account links sent by email (a forgotten password, an invitation) and the password changes they lead to.
// A link holds a random token; only its SHA-256 is stored, with its purpose, its expiry and its use (single use).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { accountTokens, holdings, loginChallenges, users } from '../db/schema';
import { recordAudit } from '../audit/audit';
import { accountNoticeMail, invitationMail, passwordResetMail, type AccountNotice } from '../mail/templates';
import type { Principal } from './principal';
import { hashPassword } from './passwords';
import { ACCOUNT_PAGES, INVITATION_LINK_DAYS, RESET_LINK_MINUTES } from '#domain/accounts';

export type AccountTokenPurpose = 'password_reset' | 'invitation';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const randomToken = () => randomBytes(32).toString('base64url');

/** The fields of a user an email and the password rules need, with the organisation's name. */
export async function accountOf(db: DbOrTx, where: { id: number } | { email: string }) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      status: users.status,
      holdingId: users.holdingId,
      passwordHash: users.passwordHash,
      organisation: holdings.name,
    })
    .from(users)
    .leftJoin(holdings, eq(holdings.id, users.holdingId))
    .where('id' in where ? eq(users.id, where.id) : eq(users.email, where.email));
  return row ? { ...row, organisation: row.organisation ?? 'Pecflow' } : undefined;
}
export type Account = NonNullable<Awaited<ReturnType<typeof accountOf>>>;

/**
 * A new link for the user, the previous unused ones of the same purpose voided. With `requestId` (the job that asked
 * for it), a second run of that job makes none: undefined.
 */
export async function issueAccountToken(tx: DbOrTx, userId: number, purpose: AccountTokenPurpose, expiresAt: Date, requestId?: string) {
  if (requestId) {
    const [done] = await tx.select({ id: accountTokens.id }).from(accountTokens).where(eq(accountTokens.requestId, requestId));
    if (done) return undefined;
  }
  await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
  const token = randomToken();
  await tx.insert(accountTokens).values({ userId, purpose, tokenHash: sha256(token), expiresAt, requestId });
  return token;
}

/** The user of a link still valid (unused, not expired), without using it. */
export async function validAccountToken(db: DbOrTx, token: string, purpose: AccountTokenPurpose) {
  const [row] = await db
    .select({ id: accountTokens.id, userId: accountTokens.userId, expiresAt: accountTokens.expiresAt })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, sha256(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    );
  return row;
}

/**
 * Voids the user's links still unused (a reset, an invitation): each was sent for the address and the password of
 * then. Once either changes, a link left in an old mailbox, or sent to a mistyped address, must open nothing.
 */
export async function voidAccountLinks(tx: DbOrTx, userId: number) {
  await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.userId, userId), isNull(accountTokens.usedAt)));
}

/** The user a link was made for, valid or not (to audit a refused use). */
export async function accountTokenOwner(db: DbOrTx, token: string, purpose: AccountTokenPurpose): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: accountTokens.userId })
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, sha256(token)), eq(accountTokens.purpose, purpose)));
  return row?.userId;
}

/** Uses the link: of two concurrent uses, one wins. Returns its user, or undefined. */
export async function consumeAccountToken(tx: DbOrTx, token: string, purpose: AccountTokenPurpose): Promise<number | undefined> {
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, sha256(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: accountTokens.userId });
  return row?.userId;
}

/**
 * Ends the user's sign-ins left halfway (server/auth/signIn.ts), all of them or all but `keep` (the one making the
 * change): each was opened with the password and second factor of then, and must not outlive them, or whoever knew
 * an old password would still finish its forced change, after its owner changed it, and take the account.
 */
export async function endSignIns(tx: DbOrTx, userId: number, keep?: number) {
  await tx.delete(loginChallenges).where(and(eq(loginChallenges.userId, userId), keep === undefined ? undefined : ne(loginChallenges.id, keep)));
}

/**
 * The new password of `userId` (already checked against the policy): an invitation is accepted by it, the links still
 * unused are void, the user's sign-ins left halfway end (all but `keepChallenge`, the sign-in changing it) and so do
 * the sessions, all of them or all but `keepSession` (the session changing its own password).
 */
export async function setPassword(
  ctx: AppContext,
  tx: DbOrTx,
  userId: number,
  password: string,
  { keepSession, keepChallenge }: { keepSession?: string; keepChallenge?: number } = {},
) {
  await tx
    .update(users)
    .set({
      passwordHash: await hashPassword(password),
      passwordMustChange: false,
      invitationSentAt: null,
      updatedAt: new Date(),
      // The access tokens issued before are refused (server/auth/plugin.ts), unless a session is kept.
      ...(keepSession ? {} : { tokensValidAfter: new Date() }),
    })
    .where(eq(users.id, userId));
  await voidAccountLinks(tx, userId);
  await endSignIns(tx, userId, keepChallenge);
  await ctx.tokens.revokeAllForUser(userId, tx, keepSession);
}

/** The addresses that carry a link's token: the emails' pages and their API. */
const LINK_PATHS = new RegExp(`^(${[ACCOUNT_PAGES.reset, ACCOUNT_PAGES.invitation, '/api/forgot-password', '/api/invitations'].join('|')})/[^/]+`);

/** A path as the request log writes it: without a link's token, which opens the account while unused. */
export const withoutLinkToken = (path: string) => path.replace(LINK_PATHS, '$1/…');

/** The link of an email: the front end's page, on the address clients reach the server at. */
export const accountLink = (ctx: AppContext, page: keyof typeof ACCOUNT_PAGES, token: string) => `${ctx.publicBaseUrl()}${ACCOUNT_PAGES[page]}/${token}`;

/**
 * Tells the owner of `userId` by email what just happened to their account (a new password, the second factor off,
 * wrong codes in a row), queued in `tx`: a change they did not make is how they learn their account is taken.
 */
export async function notifyAccount(ctx: AppContext, tx: DbOrTx, userId: number, notice: AccountNotice) {
  const account = await accountOf(tx, { id: userId });
  if (!account) return;
  const mail = accountNoticeMail(
    {
      to: account.email,
      firstName: account.firstName,
      organisation: account.organisation,
      at: new Date(),
      forgotLink: `${ctx.publicBaseUrl()}/forgot-password`,
    },
    notice,
  );
  await ctx.mailer.queue(tx, mail);
}

/** Invites the user (a new account, or "Renvoyer l'invitation"): a 7-day link by email, queued in `tx`. */
export async function inviteUser(ctx: AppContext, tx: DbOrTx, userId: number, inviter: Principal) {
  const account = (await accountOf(tx, { id: userId }))!;
  const token = (await issueAccountToken(tx, userId, 'invitation', new Date(Date.now() + INVITATION_LINK_DAYS * 86_400_000)))!;
  await tx.update(users).set({ invitationSentAt: new Date() }).where(eq(users.id, userId));
  await ctx.mailer.queue(
    tx,
    invitationMail({
      to: account.email,
      firstName: account.firstName,
      organisation: account.organisation,
      link: accountLink(ctx, 'invitation', token),
      days: INVITATION_LINK_DAYS,
      inviter: `${inviter.firstName} ${inviter.lastName}`,
    }),
  );
  await recordAudit(tx, inviter, {
    action: 'user.invitation',
    entity: 'users',
    entityId: userId,
    holdingId: account.holdingId,
    changes: { email: account.email },
  });
}

/** The job's data for a forgotten password: the address typed (encrypted) and where the request came from. */
export interface ResetRequestJob {
  email: string;
  ip: string;
}

/**
 * A forgotten password, apart from its request (which answers the same at once whatever the address): an active
 * account gets a 30-minute link by email. A run of the job again (after a crash) sends no second link.
 */
export async function handleResetRequest(app: FastifyInstance, job: ResetRequestJob, jobId: string) {
  const email = app.ctx.secrets.decrypt(job.email);
  await app.ctx.db.transaction(async (tx) => {
    const account = await accountOf(tx, { email });
    if (!account || account.status !== 'Active') {
      // Not the address (someone's, maybe, mistyped, or anything a stranger sent): its keyed hash, which tells the
      // same address asked again without keeping it.
      const emailHmac = createHmac('sha256', Buffer.from(app.ctx.config.appSecretKey, 'hex')).update(`forgot-password:${email}`).digest('hex');
      await recordAudit(tx, null, {
        action: 'user.password_reset_request',
        entity: 'users',
        holdingId: null,
        changes: { emailHmac, ip: job.ip, account: false },
      });
      return;
    }
    const token = await issueAccountToken(tx, account.id, 'password_reset', new Date(Date.now() + RESET_LINK_MINUTES * 60_000), jobId);
    if (!token) return;
    await app.ctx.mailer.queue(
      tx,
      passwordResetMail({
        to: account.email,
        firstName: account.firstName,
        organisation: account.organisation,
        link: accountLink(app.ctx, 'reset', token),
        minutes: RESET_LINK_MINUTES,
      }),
    );
    await recordAudit(tx, null, {
      action: 'user.password_reset_request',
      entity: 'users',
      entityId: account.id,
      holdingId: account.holdingId,
      changes: { email, ip: job.ip, account: true },
    });
  });
}
