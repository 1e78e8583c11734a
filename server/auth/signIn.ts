// Signing in, step by step (spec section 7, Authentication; issue 26): the password first (the spec's screen and
// messages), then, before any token is issued, what the account still needs, in this order: its second factor's code
// (a TOTP code or a recovery code), a new password when the current one no longer meets the policy or was typed by an
// administrator (users.password_must_change), the enrolment of a second factor the system setting makes mandatory. Each step answers `{step, challenge}`: the challenge is a
// random reference (stored hashed, 10 minutes) the next call sends back. Wrong codes count as failed sign-ins of the
// email (server/auth/routes.ts): five from an address block it there, like wrong passwords; a challenge takes five.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { loginChallenges, users } from '../db/schema';
import { invalidField, unauthorized } from '../http/errors';
import { notifyAccount, randomToken, setPassword, sha256 } from './accounts';
import { assertPasswordAllowed, readPasswordPolicy } from './passwordPolicy';
import { verifyPassword } from './passwords';
import { loadPrincipal } from './principal';
import { checkSecondFactor, enableTwoFactor, newEnrolment, secondFactorFailed, totpCounter, twoFactorRequired } from './twoFactor';
import { ACCOUNT_MESSAGES, type SignInStep } from '#domain/accounts';
import { PASSWORD_MAX, passwordIssues } from '#domain/passwordPolicy';

const CHALLENGE_MINUTES = 10;
/** Wrong codes a challenge takes before it ends (the email's own count applies as well). */
const CHALLENGE_FAILURES = 5;

type User = typeof users.$inferSelect;

/** Records a sign-in attempt as failed before anything is checked; throws 429 while the email is blocked here. */
export type BeginAttempt = (email: string, request: FastifyRequest) => Promise<(outcome: boolean | undefined) => Promise<unknown>>;

const challengeSchema = z
  .string({ error: ACCOUNT_MESSAGES.challengeInvalid })
  .min(1, ACCOUNT_MESSAGES.challengeInvalid)
  .max(100, ACCOUNT_MESSAGES.challengeInvalid);
const codeSchema = z.object({
  challenge: challengeSchema,
  code: z.string({ error: ACCOUNT_MESSAGES.codeRequired }).trim().min(1, ACCOUNT_MESSAGES.codeRequired).max(64, ACCOUNT_MESSAGES.codeInvalid),
});
const passwordSchema = z.object({
  challenge: challengeSchema,
  password: z.string({ error: 'Le mot de passe est requis' }).max(PASSWORD_MAX),
});

/** The answer of a whole sign-in: the tokens, and the user's profile (the browser needs no GET /api/user/profile). */
export type SignedIn = (user: User) => Promise<object>;

export function signInSteps(app: FastifyInstance, beginAttempt: BeginAttempt, signedIn: SignedIn) {
  const ctx = app.ctx;
  const { db, settings } = ctx;

  /** The steps the account still needs after its password. */
  async function stepsAfterPassword(user: User, password: string): Promise<SignInStep[]> {
    const steps: SignInStep[] = [];
    if (user.totpEnabledAt) steps.push('two_factor');
    if (user.passwordMustChange || passwordIssues(password, await readPasswordPolicy(settings), user).length) steps.push('password_change');
    const principal = await loadPrincipal(ctx.database, user.id);
    if (!user.totpEnabledAt && (await twoFactorRequired(settings, principal?.permissions ?? []))) steps.push('two_factor_enrolment');
    return steps;
  }

  /** What a step answers: the step, the challenge, and what it needs shown. */
  async function stepAnswer(user: User, token: string, steps: SignInStep[], pendingSecret?: { secret: string; otpauthUrl: string; qrCode: string }) {
    const step = steps[0]!;
    const answer: Record<string, unknown> = { step, challenge: token };
    if (step === 'password_change') {
      answer.message = user.passwordMustChange ? ACCOUNT_MESSAGES.passwordChosenByAdministrator : ACCOUNT_MESSAGES.passwordChangeRequired;
      answer.owner = { email: user.email, firstName: user.firstName, lastName: user.lastName };
    }
    if (step === 'two_factor_enrolment' && pendingSecret) {
      answer.message = ACCOUNT_MESSAGES.enrolmentRequired;
      Object.assign(answer, pendingSecret);
    }
    return answer;
  }

  /** The secret an enrolment step offers, encrypted for the challenge's row. */
  async function enrolmentFor(user: User, steps: SignInStep[]) {
    if (steps[0] !== 'two_factor_enrolment') return undefined;
    return newEnrolment(user.email);
  }

  /** Opens the challenge after a right password; answers its first step. */
  async function open(user: User, steps: SignInStep[]) {
    const token = randomToken();
    const enrolment = await enrolmentFor(user, steps);
    await db.insert(loginChallenges).values({
      userId: user.id,
      tokenHash: sha256(token),
      step: steps.join(','),
      pendingSecretEnc: enrolment ? ctx.secrets.encrypt(enrolment.secret) : null,
      expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
    });
    return stepAnswer(user, token, steps, enrolment);
  }

  /** The challenge at `step`, with its user; 401 when it is unknown, expired, at another step or its user inactive. */
  async function challengeAt(token: string, step: SignInStep) {
    const [row] = await db
      .select()
      .from(loginChallenges)
      .innerJoin(users, eq(users.id, loginChallenges.userId))
      .where(and(eq(loginChallenges.tokenHash, sha256(token)), sql`${loginChallenges.expiresAt} > now()`));
    const steps = (row?.login_challenges.step.split(',') ?? []) as SignInStep[];
    if (!row || steps[0] !== step || row.users.status !== 'Active') throw unauthorized(ACCOUNT_MESSAGES.challengeInvalid);
    return { challenge: row.login_challenges, user: row.users, steps };
  }

  /**
   * The step is passed: the next one, or, after the last, the tokens (with the recovery codes of an enrolment just
   * made). Only one call passes a given step (the row changes only if it still reads that step).
   */
  async function advance(
    token: string,
    challengeId: number,
    steps: SignInStep[],
    user: User,
    settle: (outcome: boolean | undefined) => Promise<unknown>,
    extra = {},
  ) {
    const rest = steps.slice(1);
    if (rest.length === 0) {
      const ended = await db
        .delete(loginChallenges)
        .where(and(eq(loginChallenges.id, challengeId), eq(loginChallenges.step, steps.join(','))))
        .returning({ id: loginChallenges.id });
      if (ended.length === 0) throw unauthorized(ACCOUNT_MESSAGES.challengeInvalid);
      await settle(true);
      return { ...(await signedIn(user)), ...extra };
    }
    const enrolment = await enrolmentFor(user, rest);
    const moved = await db
      .update(loginChallenges)
      .set({ step: rest.join(','), failures: 0, pendingSecretEnc: enrolment ? ctx.secrets.encrypt(enrolment.secret) : null })
      .where(and(eq(loginChallenges.id, challengeId), eq(loginChallenges.step, steps.join(','))))
      .returning({ id: loginChallenges.id });
    if (moved.length === 0) throw unauthorized(ACCOUNT_MESSAGES.challengeInvalid);
    await settle(undefined);
    return stepAnswer(user, token, rest, enrolment);
  }

  /** A wrong code: counted for the email (kept as a failed attempt) and for the challenge, which ends at the fifth. */
  async function wrongCode(challengeId: number): Promise<never> {
    const [row] = await db
      .update(loginChallenges)
      .set({ failures: sql`${loginChallenges.failures} + 1` })
      .where(eq(loginChallenges.id, challengeId))
      .returning({ failures: loginChallenges.failures });
    if (row && row.failures >= CHALLENGE_FAILURES) await db.delete(loginChallenges).where(eq(loginChallenges.id, challengeId));
    throw unauthorized(ACCOUNT_MESSAGES.codeInvalid);
  }

  // 'Recommencer la connexion': the sign-in left halfway ends here, not only in the browser (its challenge opens
  // nothing after). Answered alike for any challenge, known or not.
  app.post('/api/login_check/cancel', { config: { public: true } }, async (request, reply) => {
    const { challenge: token } = z.object({ challenge: challengeSchema }).parse(request.body ?? {});
    await db.delete(loginChallenges).where(eq(loginChallenges.tokenHash, sha256(token)));
    return reply.status(204).send();
  });

  app.post('/api/login_check/two-factor', { config: { public: true } }, async (request) => {
    const { challenge: token, code } = codeSchema.parse(request.body ?? {});
    const { challenge, user, steps } = await challengeAt(token, 'two_factor');
    const settle = await beginAttempt(user.email, request);
    const used = await db.transaction((tx) => checkSecondFactor(ctx, tx, user.id, code));
    if (!used) {
      await secondFactorFailed(ctx, user.id);
      return wrongCode(challenge.id);
    }
    if (used === 'recovery') {
      await recordAudit(db, null, {
        action: 'user.recovery_code_used',
        entity: 'users',
        entityId: user.id,
        holdingId: user.holdingId,
        changes: { ip: request.ip },
      });
    }
    return advance(token, challenge.id, steps, user, settle);
  });

  app.post('/api/login_check/password', { config: { public: true } }, async (request) => {
    const { challenge: token, password } = passwordSchema.parse(request.body ?? {});
    const { challenge, user, steps } = await challengeAt(token, 'password_change');
    await assertPasswordAllowed(settings, password, user);
    if (await verifyPassword(user.passwordHash, password)) throw invalidField('password', ACCOUNT_MESSAGES.samePassword);
    const settle = await beginAttempt(user.email, request);
    await db.transaction(async (tx) => {
      await setPassword(ctx, tx, user.id, password, { keepChallenge: challenge.id });
      await recordAudit(tx, null, {
        action: 'user.password_change',
        entity: 'users',
        entityId: user.id,
        holdingId: user.holdingId,
        changes: { reason: user.passwordMustChange ? 'typed_by_administrator' : 'policy', ip: request.ip },
      });
      await notifyAccount(ctx, tx, user.id, { kind: 'password_changed', by: 'owner' });
    });
    ctx.principals.clear();
    return advance(token, challenge.id, steps, user, settle);
  });

  app.post('/api/login_check/two-factor-enrolment', { config: { public: true } }, async (request) => {
    const { challenge: token, code } = codeSchema.parse(request.body ?? {});
    const { challenge, user, steps } = await challengeAt(token, 'two_factor_enrolment');
    const settle = await beginAttempt(user.email, request);
    const secret = challenge.pendingSecretEnc ? ctx.secrets.decrypt(challenge.pendingSecretEnc) : undefined;
    const counter = secret ? totpCounter(secret, code) : undefined;
    if (secret === undefined || counter === undefined) return wrongCode(challenge.id);
    const recoveryCodes = await db.transaction(async (tx) => {
      const codes = await enableTwoFactor(ctx, tx, user.id, secret, counter, challenge.id);
      await recordAudit(tx, null, {
        action: 'user.two_factor_enable',
        entity: 'users',
        entityId: user.id,
        holdingId: user.holdingId,
        changes: { ip: request.ip },
      });
      return codes;
    });
    return advance(token, challenge.id, steps, user, settle, { recoveryCodes });
  });

  return { stepsAfterPassword, open };
}
