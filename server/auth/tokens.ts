// Access tokens (JWT HS256) and refresh tokens (random, stored hashed, rotated at each use, reuse revokes the family).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, DbOrTx } from '../db/connect';
import { refreshTokens } from '../db/schema';
import { SETTING_KEYS, type SettingsService } from '../settings';
import type { SessionRegistry } from './sessions';
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from '#domain/auth';

export interface TokenPair {
  token: string;
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'Bearer';
}

export interface AccessTokenPayload {
  sub: string;
  email: string;
  holdingId: number | null;
  /** The session: the refresh-token family the token was issued in. Ending it refuses the token (server/auth/sessions.ts). */
  sid: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export class TokenService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly sessions: SessionRegistry,
  ) {}

  async issue(user: { id: number; email: string; holdingId: number | null }, familyId: string = randomUUID()): Promise<TokenPair> {
    const expiresIn = await this.settings.number(SETTING_KEYS.accessTokenTtl, DEFAULT_TOKEN_LIFETIME_SECONDS);
    const refreshDays = await this.settings.number(SETTING_KEYS.refreshTokenTtlDays, 30);
    const payload: AccessTokenPayload = { sub: String(user.id), email: user.email, holdingId: user.holdingId, sid: familyId };
    const accessToken = this.app.jwt.sign(payload, { expiresIn });
    const refreshToken = randomBytes(32).toString('base64url');
    await this.db.insert(refreshTokens).values({
      userId: user.id,
      familyId,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(Date.now() + refreshDays * 86_400_000),
    });
    return { token: accessToken, access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, token_type: 'Bearer' };
  }

  /**
   * Consumes a refresh token. Returns the user id and family to issue the next pair in,
   * or undefined when the token is unknown, expired, revoked or already used (then the family is revoked).
   */
  async consume(refreshToken: string): Promise<{ userId: number; familyId: string } | undefined> {
    const [row] = await this.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
    if (!row || row.revokedAt) return undefined;
    if (row.usedAt) {
      // Someone presents a token that was already exchanged: it leaked. End every session of that chain.
      await this.revokeFamily(row.familyId);
      return undefined;
    }
    if (row.expiresAt.getTime() <= Date.now()) return undefined;
    // Conditional update: of two concurrent uses of the same token, exactly one wins.
    const used = await this.db
      .update(refreshTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id });
    if (used.length === 0) {
      await this.revokeFamily(row.familyId);
      return undefined;
    }
    return { userId: row.userId, familyId: row.familyId };
  }

  /**
   * The user of a refresh token that was revoked while it was still the current one of its session (never exchanged,
   * not expired): whoever presents it held that session when it ended. Undefined for any other token.
   */
  async revokedHolder(refreshToken: string): Promise<number | undefined> {
    const [row] = await this.db
      .select({ userId: refreshTokens.userId, revokedAt: refreshTokens.revokedAt, usedAt: refreshTokens.usedAt, expiresAt: refreshTokens.expiresAt })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
    return row?.revokedAt && !row.usedAt && row.expiresAt.getTime() > Date.now() ? row.userId : undefined;
  }

  async revoke(refreshToken: string): Promise<void> {
    const [row] = await this.db
      .select({ familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
    if (row) await this.revokeFamily(row.familyId);
  }

  /**
   * Ends the user's sessions, all of them or all but `keep` (the one changing its own password). Inside a transaction,
   * pass it: PGlite has one connection, a query outside the transaction would wait for it.
   */
  async revokeAllForUser(userId: number, db: DbOrTx = this.db, keep?: string): Promise<void> {
    const revoked = await db
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), keep ? ne(refreshTokens.familyId, keep) : undefined))
      .returning({ familyId: refreshTokens.familyId });
    await this.sessions.ended(db, [...new Set(revoked.map((r) => r.familyId))]);
  }

  /** Ends the session: its refresh tokens, and its access tokens at once. */
  private async revokeFamily(familyId: string) {
    await this.db.transaction(async (tx) => {
      await tx
        .update(refreshTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
      await this.sessions.ended(tx, [familyId]);
    });
  }
}
