// Twins (domain/duplicates.ts): files of one organisation with the same mutual and quote number, neither archived. Found
// for a file's warning (warnings.ts reads them with its page), checked before a DPEC, and the import's matching of a line
// with a file already there.
// The checks that must not race (two DPEC starts on twins, two imports of one file) wait on a transaction-level
// advisory lock: a unique index cannot say it (twins are allowed, with a warning), and a row lock cannot lock a row
// that does not exist yet.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { pecDossiers } from '../db/schema';
import { ApiError } from '../http/errors';
import { canSeeFile, type Viewer } from '../auth/fileVisibility';
import { DUPLICATE_MESSAGES, twinsSeenBy, type Twin } from '#domain/duplicates';
import { iriOf } from '#domain/iri';
import type { DuplicateRefusal } from '#domain/pecAnswers';

interface TwinKey {
  id: number;
  holdingId: number;
  mutualId: number | null;
  numeroDevisAssure: string | null;
  archived: boolean;
}

/** The file's twins now (none for an archived file, or one without a mutual or a quote number). */
export async function twinsOf(tx: DbOrTx, d: TwinKey): Promise<Twin[]> {
  if (d.archived || d.mutualId === null || !d.numeroDevisAssure) return [];
  return tx
    .select({ id: pecDossiers.id, numeroDossier: pecDossiers.numeroDossier, status: pecDossiers.status, shopId: pecDossiers.shopId })
    .from(pecDossiers)
    .where(
      and(
        eq(pecDossiers.holdingId, d.holdingId),
        eq(pecDossiers.mutualId, d.mutualId),
        eq(pecDossiers.numeroDevisAssure, d.numeroDevisAssure),
        ne(pecDossiers.id, d.id),
        sql`not ${pecDossiers.archived}`,
      ),
    )
    .orderBy(pecDossiers.id);
}

/**
 * The 409 of a DPEC beside twins whose request is at the insurer: the twins the reader sees, named and linked; those of
 * centres they cannot see only said to exist (no number, no id).
 */
export function twinRefusal(twins: readonly Twin[], viewer: Viewer, holdingId: number): ApiError {
  const { named, hidden } = twinsSeenBy(twins, (twin) => canSeeFile(viewer, { holdingId, shopId: twin.shopId }));
  return new ApiError(409, DUPLICATE_MESSAGES.dpecRefused(named, hidden), {
    twins: named.map(({ id, numeroDossier, status }) => ({ '@id': iriOf('pec_dossiers', id), id, numeroDossier, status })),
  } satisfies DuplicateRefusal);
}

/** Waits, until the transaction ends, for any other transaction holding the same key (advisory lock). */
export async function lockKey(tx: DbOrTx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`pecflow:${key}`}, 0))`);
}

/** Two DPEC starts on twins run one after the other: the second sees the first's request. */
export const lockTwins = (tx: DbOrTx, d: TwinKey) => lockKey(tx, `pec-twins:${d.holdingId}:${d.mutualId ?? ''}:${d.numeroDevisAssure ?? ''}`);

/** Two imports into one organisation run one after the other: the second sees the first's files. */
export const lockImport = (tx: DbOrTx, holdingId: number) => lockKey(tx, `pec-import:${holdingId}`);

/** A line of a PEC import, once read: its organisation and what identifies the request. */
export interface ImportLine {
  holdingId: number;
  mutualId: number;
  numeroDossierAssure: string;
  numeroDevisAssure: string;
}

export interface ExistingFile {
  id: number;
  numeroDossier: string;
  holdingId: number;
  mutualId: number | null;
  numeroDossierAssure: string | null;
  numeroDevisAssure: string | null;
}

/**
 * A line of the import matches a file of its organisation with the same quote number and either the same mutual or the
 * same patient number (archived files included: importing a file again never brings back what was archived). The
 * quote number is the request's own reference in the business software: a second request for the same quote is the
 * same request, whichever of the two other fields the export and the typing kept.
 */
export function matchingFile(line: ImportLine, files: readonly ExistingFile[]): ExistingFile | undefined {
  return files.find(
    (f) =>
      f.holdingId === line.holdingId &&
      f.numeroDevisAssure === line.numeroDevisAssure &&
      (f.mutualId === line.mutualId || f.numeroDossierAssure === line.numeroDossierAssure),
  );
}

/** The files an import's lines may match, read in the import's transaction (after its lock). */
export async function filesMatching(tx: DbOrTx, lines: readonly ImportLine[]): Promise<ExistingFile[]> {
  if (lines.length === 0) return [];
  const holdings = [...new Set(lines.map((l) => l.holdingId))];
  const quotes = [...new Set(lines.map((l) => l.numeroDevisAssure))];
  return tx
    .select({
      id: pecDossiers.id,
      numeroDossier: pecDossiers.numeroDossier,
      holdingId: pecDossiers.holdingId,
      mutualId: pecDossiers.mutualId,
      numeroDossierAssure: pecDossiers.numeroDossierAssure,
      numeroDevisAssure: pecDossiers.numeroDevisAssure,
    })
    .from(pecDossiers)
    .where(and(inArray(pecDossiers.holdingId, holdings), inArray(pecDossiers.numeroDevisAssure, quotes)))
    .orderBy(pecDossiers.id);
}
