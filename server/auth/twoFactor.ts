// The second factor: TOTP (RFC 6238, otpauth) with ten single-use recovery codes. The secret is encrypted at rest
// with APP_SECRET_KEY, shown once (the QR code and its text) while enrolling, never returned after, never logged; the
// recovery codes are stored hashed. A code is accepted once: the last time step used is kept.
import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { recoveryCodes, users } from '../db/schema';
import type { SettingsService } from '../settings';
import { conflict } from '../http/errors';
import { endSignIns, notifyAccount, sha256 } from './accounts';
import { ACCOUNT_MESSAGES, RECOVERY_CODE_COUNT, SECOND_FACTOR_ALERT_FAILURES, TOTP_CODE } from '#domain/accounts';
import { hasPermission } from '#domain/permissions';
import { TWO_FACTOR_REQUIRED_KEY, type TwoFactorRequirement } from '#domain/settings';

const ISSUER = 'Pecflow';
const PERIOD = 30;

const totp = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** A new secret to enrol, with what the authenticator app reads: its otpauth:// address as a QR code, and as text. */
export async function newEnrolment(email: string) {
  const secret = new Secret({ size: 20 }).base32;
  const otpauthUrl = totp(secret, email).toString();
  return { secret, otpauthUrl, qrCode: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 }) };
}

/** The time step a 6-digit code is valid for (one step of clock drift either way), or undefined. */
export function totpCounter(secret: string, code: string): number | undefined {
  if (!TOTP_CODE.test(code)) return undefined;
  const delta = totp(secret).validate({ token: code, window: 1 });
  return delta === null ? undefined : TOTP.counter({ period: PERIOD }) + delta;
}

/** Records that the code of `counter` was used: false when it (or a later one) already was, the same code twice. */
export async function useCounter(tx: DbOrTx, userId: number, counter: number): Promise<boolean> {
  const used = await tx
    .update(users)
    .set({ totpLastCounter: counter })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastCounter), lt(users.totpLastCounter, counter))))
    .returning({ id: users.id });
  return used.length === 1;
}

const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Ten new recovery codes (the previous ones void): returned once, stored hashed. */
export async function newRecoveryCodes(tx: DbOrTx, userId: number): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(16)].map((byte) => alphabet[byte % alphabet.length]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: sha256(normaliseRecoveryCode(code)) })));
  return codes;
}

/** Uses a recovery code: true once, then never again. */
export async function useRecoveryCode(tx: DbOrTx, userId: number, code: string): Promise<boolean> {
  const normalised = normaliseRecoveryCode(code);
  if (normalised.length < 8 || normalised.length > 64) return false;
  const used = await tx
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, sha256(normalised)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

/**
 * A code of the user's enabled second factor (TOTP or recovery code), used once. A right one starts the count of
 * wrong ones again; a wrong one is the caller's to count (secondFactorFailed), outside a transaction it rolls back.
 */
export async function checkSecondFactor(ctx: AppContext, tx: DbOrTx, userId: number, code: string): Promise<'totp' | 'recovery' | undefined> {
  const [user] = await tx.select({ secret: users.totpSecretEnc, enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
  if (!user?.secret || !user.enabledAt) return undefined;
  const used = TOTP_CODE.test(code.trim())
    ? await totpUsed(ctx, tx, userId, user.secret, code.trim())
    : (await useRecoveryCode(tx, userId, code)) && ('recovery' as const);
  if (!used) return undefined;
  await tx.update(users).set({ secondFactorFailures: 0 }).where(eq(users.id, userId));
  return used;
}

async function totpUsed(ctx: AppContext, tx: DbOrTx, userId: number, secretEnc: string, code: string) {
  const counter = totpCounter(ctx.secrets.decrypt(secretEnc), code);
  return counter !== undefined && (await useCounter(tx, userId, counter)) && ('totp' as const);
}

/** A wrong code of the user's second factor: every SECOND_FACTOR_ALERT_FAILURES in a row, its owner gets an email. */
export async function secondFactorFailed(ctx: AppContext, userId: number) {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ secondFactorFailures: sql`${users.secondFactorFailures} + 1` })
      .where(eq(users.id, userId))
      .returning({ failures: users.secondFactorFailures });
    if (row && row.failures % SECOND_FACTOR_ALERT_FAILURES === 0) {
      await notifyAccount(ctx, tx, userId, { kind: 'two_factor_failures', failures: row.failures });
    }
  });
}

/**
 * Enables the second factor with a confirmed secret; returns the recovery codes. Once only: another enrolment under way
 * (a second sign-in's, opened before) ends, and never replaces the secret just confirmed (409).
 */
export async function enableTwoFactor(ctx: AppContext, tx: DbOrTx, userId: number, secret: string, counter: number, keepChallenge?: number): Promise<string[]> {
  const enabled = await tx
    .update(users)
    .set({ totpSecretEnc: ctx.secrets.encrypt(secret), totpEnabledAt: new Date(), totpLastCounter: counter, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  if (enabled.length === 0) throw conflict(ACCOUNT_MESSAGES.twoFactorAlreadyEnabled);
  await endSignIns(tx, userId, keepChallenge);
  return newRecoveryCodes(tx, userId);
}

/** Removes the second factor (the user's choice, or an administrator's reset). */
export async function disableTwoFactor(tx: DbOrTx, userId: number) {
  await tx
    .update(users)
    .set({ totpSecretEnc: null, totpEnabledAt: null, totpLastCounter: null, secondFactorFailures: 0, updatedAt: new Date() })
    .where(eq(users.id, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Whether the system setting makes the second factor mandatory for a holder of these permissions. */
export async function twoFactorRequired(settings: SettingsService, permissions: readonly string[], db?: DbOrTx): Promise<boolean> {
  const requirement = (await settings.string(TWO_FACTOR_REQUIRED_KEY, 'platform_admins', db)) as TwoFactorRequirement;
  const platformAdmin = permissions.includes('admin.*');
  if (requirement === 'platform_admins') return platformAdmin;
  if (requirement === 'administrators') return platformAdmin || hasPermission(permissions, 'settings.users.edit');
  return false;
}
