// Tenancy rules (domain.md): platform administrators see everything; everyone else stays inside their organisation.
import { eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { isPlatformAdmin, type Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { invalidField } from '../http/errors';
import type { Row, Tenancy } from './types';

const NOBODY = sql`false`;

/** Rows of the principal's organisation. */
export function sameHolding(column: AnyPgColumn, principal: Principal): SQL | undefined {
  if (isPlatformAdmin(principal)) return undefined;
  return principal.holdingId ? eq(column, principal.holdingId) : NOBODY;
}

export const ORGANISATION_REQUIRED = 'Organisation requise';
export const ORGANISATION_OUT_OF_SCOPE = 'Organisation introuvable ou hors de votre périmètre.';

interface HoldingOwnedOptions {
  /** API field that names the organisation (default `holding`). */
  field?: string;
  /**
   * Organisation implied by another reference (a centre belongs to its company's organisation). Returns undefined
   * when the input does not name that reference, null when the named record does not exist.
   */
  derive?: (input: Row, tx: DbOrTx) => Promise<number | null | undefined>;
  /** Field the derived organisation comes from, for the violation. */
  derivedFrom?: string;
  /** Message when the derived record is missing or in another organisation (the same: existence is not confirmed). */
  derivedOutOfScope?: string;
  /** Platform administrators may leave the organisation empty (platform-wide records). */
  optionalForAdmins?: boolean;
}

/** A table carrying holding_id: read and written within the principal's organisation only. */
export function holdingOwned(column: AnyPgColumn, options: HoldingOwnedOptions = {}): Tenancy {
  const field = options.field ?? 'holding';
  return {
    holdingColumn: column,
    readScope: (principal) => sameHolding(column, principal),
    async assignHolding(principal, input, tx, existing) {
      const admin = isPlatformAdmin(principal);
      if (options.derive) {
        const derived = await options.derive(input, tx);
        if (derived === undefined) return undefined;
        const from = options.derivedFrom ?? field;
        if (derived === null || (!admin && derived !== principal.holdingId)) throw invalidField(from, options.derivedOutOfScope ?? ORGANISATION_OUT_OF_SCOPE);
        return derived;
      }
      const wanted = input[field] as number | null | undefined;
      if (admin) {
        // An existing record keeps its organisation unless another one is named (a PUT from a form without the field).
        if (wanted === undefined || wanted === null) {
          if (existing || options.optionalForAdmins) return undefined;
          throw invalidField(field, ORGANISATION_REQUIRED);
        }
        return wanted;
      }
      if (wanted !== undefined && wanted !== null && wanted !== principal.holdingId) throw invalidField(field, ORGANISATION_OUT_OF_SCOPE);
      if (!principal.holdingId) throw invalidField(field, ORGANISATION_REQUIRED);
      return principal.holdingId;
    },
  };
}

/** Platform-wide reference data (mutuals, networks, settings): everyone reads, the permission decides who writes. */
export const platformWide: Tenancy = { readScope: () => undefined };

/**
 * Records of the principal's organisation plus the platform's own (holding_id null), which organisations may read
 * but only platform administrators may change (the seeded roles).
 */
export function holdingOrPlatform(column: AnyPgColumn): Tenancy {
  const owned = holdingOwned(column, { optionalForAdmins: true });
  return {
    ...owned,
    readScope: (principal) => (isPlatformAdmin(principal) ? undefined : or(isNull(column), principal.holdingId ? eq(column, principal.holdingId) : NOBODY)),
    writeScope: (principal) => sameHolding(column, principal),
  };
}
