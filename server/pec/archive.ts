// Files never lost (issue 25; the rules in domain/archive.ts): a file is archived or restored by a merge-patch of its
// `archived` flag (with `archiveReason`, `archiveNote`), guarded here by the declaration's hooks; a deletion is refused
// for a file with money or an insurer's answer; the list's `archived` filter (default: not archived).
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { pecDossiers, pecPayments, workflowExecutions } from '../db/schema';
import { badRequest, conflict, forbidden, invalidField } from '../http/errors';
import type { Row } from '../hydra/types';
import { openExecution } from './present';
import { ARCHIVE_MESSAGES, canArchive, canRestore, deletionRefusal } from '#domain/archive';
import { pecArchiveSchema } from '#domain/pecSchemas';

/** The fields an archiving or a restoring PATCH carries, and nothing else. */
const ARCHIVE_FIELDS = ['archived', 'archiveReason', 'archiveNote'];

/**
 * `archived=false` (the default list), `true` (the archived files only) or `all`. Written without parameters: the list
 * indexes carry `archived` after the organisation (migration 0020), and a constant lets a generic plan of the prepared
 * statement read one range of them.
 */
export function archivedFilter(value: string): SQL {
  switch (value) {
    case 'false':
      return sql`not ${pecDossiers.archived}`;
    case 'true':
      return sql`${pecDossiers.archived}`;
    case 'all':
      return sql`true`;
    default:
      // A typo would otherwise list nothing (or, ignored, the wrong files) without saying why.
      throw badRequest(ARCHIVE_MESSAGES.badFilter);
  }
}

/**
 * Whether a payment was ever recorded on the file: a row of its payment history (pec_payments), cancelled or not (a
 * posted payment is reversed, never erased, and it keeps its file). The one place that decides it (a deletion's refusal).
 */
export async function holdsPayment(tx: DbOrTx, fileId: number): Promise<boolean> {
  const [payment] = await tx.select({ id: pecPayments.id }).from(pecPayments).where(eq(pecPayments.dossierId, fileId)).limit(1);
  return !!payment;
}

/** A deletion of `existing` is refused (409, with its number and why) unless it is a draft that never went to the robot. */
export async function assertDeletable(tx: DbOrTx, existing: Row): Promise<void> {
  const id = existing.id as number;
  const [run] = await tx.select({ id: workflowExecutions.id }).from(workflowExecutions).where(eq(workflowExecutions.dossierId, id)).limit(1);
  const refusal = deletionRefusal({
    numeroDossier: existing.numeroDossier as string,
    status: existing.status as string,
    statutFacturation: existing.statutFacturation as boolean,
    numPec: existing.numPec as string | null,
    holdsPayment: await holdsPayment(tx, id),
    hasRobotRun: !!run,
  });
  if (refusal) throw conflict(refusal);
}

/**
 * The archive's part of a write (beforeWrite): a new file is never archived; an archived file takes nothing but its
 * restoration; archiving and restoring are writes of their own (ARCHIVE_FIELDS alone), each by whom domain/archive.ts
 * allows. Sets the columns in `values`.
 */
export async function archiveWrite(tx: DbOrTx, principal: Principal, input: Row, values: Row, existing: Row | undefined): Promise<void> {
  const wanted = input.archived;
  for (const key of ARCHIVE_FIELDS) delete values[key];
  if (!existing) return;
  const numero = existing.numeroDossier as string;
  const others = Object.keys(input).filter((key) => !ARCHIVE_FIELDS.includes(key));

  if (existing.archived) {
    if (wanted !== false) throw conflict(wanted === true && others.length === 0 ? ARCHIVE_MESSAGES.alreadyArchived(numero) : ARCHIVE_MESSAGES.frozen(numero));
    if (!canRestore(principal)) throw forbidden(ARCHIVE_MESSAGES.forbiddenRestore);
    if (others.length) throw invalidField('archived', ARCHIVE_MESSAGES.alone);
    Object.assign(values, { archived: false, archivedAt: null, archiveReason: null, archiveNote: null });
    return;
  }
  if (wanted !== true) {
    // A reason alone would be an empty write (and an empty audit entry): it goes with archiving only.
    if ((input.archiveReason ?? null) !== null || (input.archiveNote ?? null) !== null)
      throw invalidField('archiveReason', ARCHIVE_MESSAGES.reasonWithoutArchive);
    return;
  }
  if (!canArchive(principal, { createdById: existing.createdById as number | null })) throw forbidden(ARCHIVE_MESSAGES.forbiddenArchive);
  if (others.length) throw invalidField('archived', ARCHIVE_MESSAGES.alone);
  const reason = pecArchiveSchema.parse({ archiveReason: input.archiveReason, archiveNote: input.archiveNote });
  if (await openExecution(tx, existing.id as number)) throw conflict(ARCHIVE_MESSAGES.runInProgress);
  Object.assign(values, { archived: true, archivedAt: new Date(), ...reason });
}

/** The audit's action of a write that archives or restores. */
export function archiveAuditAction(input: Row, existing: Row): string | undefined {
  if (input.archived === true && !existing.archived) return 'archive';
  if (input.archived === false && existing.archived) return 'restore';
  return undefined;
}

/**
 * Refuses a change to what an archived file holds (a document deleted, a note changed): 409 with the archive's message.
 * The file's row is locked until the change commits, so that an archiving at the same moment waits for it.
 */
export async function assertFileNotArchived(tx: DbOrTx, dossierId: number): Promise<void> {
  const [file] = await tx
    .select({ archived: pecDossiers.archived, numeroDossier: pecDossiers.numeroDossier })
    .from(pecDossiers)
    .where(eq(pecDossiers.id, dossierId))
    .for('update');
  if (file?.archived) throw conflict(ARCHIVE_MESSAGES.frozen(file.numeroDossier));
}
