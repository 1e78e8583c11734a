// A payment statement applied (issues 15 and 25): all or nothing and once (its fingerprint, each line's key, refused
// with a 409 when sent twice, also at the same moment), and undone while no later statement paid the same files. Read
// by statementFile.ts, matched by statementMatching.ts; each payment is a row of the history (paymentHistory.ts).
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { holdings, paymentStatementLines, paymentStatements, pecDossiers, pecPayments } from '../db/schema';
import { recordAudit } from '../audit/audit';
import { ApiError, conflict, forbidden, invalidField, notFound } from '../http/errors';
import { pecReadScope } from '../auth/fileVisibility';
import { iriOf } from '#domain/iri';
import {
  AMOUNTS_TO_CHECK_CONFLICT,
  APPLIED_OUTCOMES,
  expectedAmount,
  filePaymentKey,
  isPaidByHand,
  isDetachableLine,
  isPendingLine,
  payFile,
  type PaymentOutcome,
  receivedLineKey,
  recordsSomething,
  STATEMENT_MESSAGES,
  type PaymentState,
  type StatementLine,
} from '#domain/payments';
import { invoiceDay, paymentBeforeInvoiceError } from '#domain/pec';
import { newMoneyRefusal } from '#domain/archive';
import { appliedTwin, previewFingerprint, statementIdentity, statementTotals } from './statementFile';
import { evaluateStatement, paymentColumns, requireOrganisation, sameState, stateOf, type PaymentFile } from './statementMatching';
import { lockFile, requireAmountChecked, sameDayPayment, sameDayPayments, syncPaymentState } from './paymentHistory';
import type { statementLineAttachSchema } from '#domain/pecSchemas';

// ---------- applying, undoing ----------

/** The caller's organisation's statements (undefined: a platform administrator's, every one). */
export type StatementScope = ReturnType<typeof pecReadScope> | undefined;

/** A statement of the caller's scope, locked: its undo and its lines' handling wait for one another (404 outside it). */
async function lockStatement(tx: DbOrTx, id: number, scope: StatementScope) {
  const [statement] = await tx
    .select({ id: paymentStatements.id, status: paymentStatements.status, holdingId: paymentStatements.holdingId })
    .from(paymentStatements)
    .where(and(eq(paymentStatements.id, id), scope))
    .for('update');
  if (!statement) throw notFound('Relevé de paiement introuvable.');
  return statement;
}

/** The first and last state of each file a statement's lines changed, in line order. */
function fileStates(lines: { dossierId: number | null; stateBefore: unknown; stateAfter: unknown }[]) {
  const states = new Map<number, { before: PaymentState; after: PaymentState }>();
  for (const line of lines) {
    if (line.dossierId === null || !line.stateBefore || !line.stateAfter) continue;
    const known = states.get(line.dossierId);
    states.set(line.dossierId, { before: known?.before ?? (line.stateBefore as PaymentState), after: line.stateAfter as PaymentState });
  }
  return states;
}

/** The statements whose payments that count on these files match `since` (made after a change): what to undo first. */
function statementsPaying(tx: DbOrTx, fileIds: number[], since: SQL) {
  return tx
    .selectDistinct({ id: paymentStatements.id, createdAt: paymentStatements.createdAt, reference: paymentStatements.reference })
    .from(pecPayments)
    .innerJoin(paymentStatements, eq(paymentStatements.id, pecPayments.statementId))
    .where(and(inArray(pecPayments.dossierId, fileIds), isNull(pecPayments.reversedAt), since))
    .orderBy(asc(paymentStatements.id));
}

const uniqueViolation = (error: unknown): string | undefined => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  if ((e?.code ?? e?.cause?.code) !== '23505') return undefined;
  return e?.constraint ?? e?.cause?.constraint ?? String((error as Error)?.message ?? '');
};

/**
 * Applies a statement all or nothing, once; returns its id. Refused (409) while the same statement is applied, or when
 * `previewed` (its preview's previewFingerprint) says the preview showed another outcome than it would now give, and 422
 * when every line is already applied or received (nothing to record); refused (409, AMOUNTS_TO_CHECK_CONFLICT) too while
 * a line pays its file far above what it was to receive (paymentLineWarning) and the office has not confirmed it
 * (`amountsChecked`): a typo in the insurer's file is not recorded unseen. A statement whose lines reach no file is applied
 * all the same: its lines are to be handled. The organisation's imports run one at a time (its row locked first): a
 * second import sent at the same moment waits for the first, then finds its statement and lines; the database's unique
 * indexes refuse a second copy whatever the timing.
 */
export async function applyStatement(
  db: DbOrTx,
  principal: Principal,
  lines: StatementLine[],
  fileName: string | null,
  previewed?: string,
  amountsChecked = false,
): Promise<number> {
  requireOrganisation(principal);
  const holdingId = principal.holdingId!;
  const identity = statementIdentity(lines);
  try {
    return await db.transaction(async (tx) => {
      // One import at a time per organisation: a line that reached no file is matched against the statements before.
      await tx.select({ id: holdings.id }).from(holdings).where(eq(holdings.id, holdingId)).for('update');
      const evaluated = await evaluateStatement(tx, principal, lines, true);
      const twin = await appliedTwin(tx, holdingId, identity);
      if (twin) throw conflict(`${twin.message}. ${STATEMENT_MESSAGES.alreadyImportedApply}`);
      if (previewed !== undefined && previewFingerprint(evaluated) !== previewed) throw conflict(STATEMENT_MESSAGES.previewChanged);
      const totals = statementTotals(evaluated);
      if (!recordsSomething(totals)) throw new ApiError(422, STATEMENT_MESSAGES.nothingToApply);
      const toCheck = evaluated.filter((l) => l.warning).map((l) => l.line);
      if (toCheck.length && !amountsChecked)
        throw new ApiError(409, STATEMENT_MESSAGES.amountsToCheck(toCheck), { conflict: AMOUNTS_TO_CHECK_CONFLICT, lines: toCheck });
      const [statement] = await tx
        .insert(paymentStatements)
        .values({
          holdingId,
          payer: identity.payer,
          fileName: fileName?.slice(0, 200) ?? null,
          status: 'applied',
          linesCount: totals.lines,
          totalAmount: totals.amount,
          appliedAmount: totals.applied,
          pendingLines: totals.pending.count,
          createdById: principal.id,
          contentHash: identity.contentHash,
          reference: identity.reference,
          period: identity.period,
        })
        .returning({ id: paymentStatements.id });
      const id = statement!.id;
      const stored = await tx
        .insert(paymentStatementLines)
        .values(
          evaluated.map((l) => ({
            statementId: id,
            holdingId,
            lineNumber: l.line,
            paymentDate: l.paymentDate,
            payer: l.payer,
            reference: l.reference,
            amount: l.amount,
            label: l.label,
            dossierId: l.dossier?.id ?? null,
            outcome: l.outcome,
            difference: l.difference,
            appliedInId: l.appliedIn?.id ?? null,
            stateBefore: l.stateBefore,
            stateAfter: l.stateAfter,
            lineKey: receivedLineKey(l),
            // Its own words kept where the outcome's label is not enough: the statement it copies, the archived file it names.
            outcomeLabel: l.outcome === 'already_applied' || l.outcome === 'archived' ? l.outcomeLabel : null,
          })),
        )
        .returning({ id: paymentStatementLines.id });
      // Each line that pays a file is a payment of its history.
      const payments = evaluated.flatMap((l, index) =>
        APPLIED_OUTCOMES.includes(l.outcome)
          ? [
              {
                holdingId,
                dossierId: l.dossier!.id,
                paymentDate: l.paymentDate,
                amount: l.amount,
                source: 'statement',
                statementId: id,
                statementLineId: stored[index]!.id,
                payer: l.payer,
                reference: l.reference,
                label: l.label,
                lineKey: filePaymentKey(l),
                createdById: principal.id,
              },
            ]
          : [],
      );
      if (payments.length) await tx.insert(pecPayments).values(payments);
      const files = new Map(evaluated.filter((l) => APPLIED_OUTCOMES.includes(l.outcome)).map((l) => [l.file!.id, l.file!]));
      for (const file of files.values()) {
        await syncPaymentState(tx, principal, file, 'payment', { paymentStatement: { after: iriOf('payment_statements', id) } });
      }
      await recordAudit(tx, principal, {
        action: 'payment_statement.apply',
        entity: 'payment_statements',
        entityId: id,
        holdingId,
        changes: { lines: totals.lines, amount: totals.amount, applied: totals.applied, files: files.size },
      });
      return id;
    });
  } catch (error) {
    const index = uniqueViolation(error);
    if (index === undefined) throw error;
    // Another import of the same statement (or of one of its lines) committed while this one ran.
    const twin = await appliedTwin(db, holdingId, identity);
    throw conflict(twin ? `${twin.message}. ${STATEMENT_MESSAGES.alreadyImportedApply}` : STATEMENT_MESSAGES.concurrentLines);
  }
}

/**
 * Cancels every payment a statement made and derives each file's state again, or refuses (409) when one of its files
 * changed since (a later statement, a manual payment or its cancellation, a status changed by hand): changes are
 * undone latest first. The statement's payments stay in the files' histories, cancelled ('Relevé annulé').
 */
export async function undoStatement(db: DbOrTx, principal: Principal, id: number, motif: string, scope: StatementScope): Promise<void> {
  await db.transaction(async (tx) => {
    const statement = await lockStatement(tx, id, scope);
    if (statement.status === 'undone') throw conflict(STATEMENT_MESSAGES.alreadyUndone);
    // A later statement's lines counted as already applied or received here would count nowhere once this one is undone.
    const copies = await tx
      .selectDistinct({ id: paymentStatements.id, createdAt: paymentStatements.createdAt })
      .from(paymentStatementLines)
      .innerJoin(paymentStatements, eq(paymentStatements.id, paymentStatementLines.statementId))
      .where(and(eq(paymentStatementLines.appliedInId, id), eq(paymentStatements.status, 'applied')))
      .orderBy(asc(paymentStatements.id));
    if (copies.length) throw conflict(STATEMENT_MESSAGES.undoCopied(copies));
    // Undoing changes every file the statement named: all of them must be files the caller sees (pecReadScope).
    const named = await tx
      .selectDistinct({ id: paymentStatementLines.dossierId })
      .from(paymentStatementLines)
      .where(and(eq(paymentStatementLines.statementId, id), isNotNull(paymentStatementLines.dossierId)));
    if (named.length) {
      const ids = named.map((line) => line.id!);
      const visible = await tx
        .select({ id: pecDossiers.id })
        .from(pecDossiers)
        .where(and(inArray(pecDossiers.id, ids), pecReadScope(principal)));
      if (visible.length < ids.length) throw forbidden(STATEMENT_MESSAGES.undoOutOfScope);
    }
    const lines = await tx
      .select({ dossierId: paymentStatementLines.dossierId, stateBefore: paymentStatementLines.stateBefore, stateAfter: paymentStatementLines.stateAfter })
      .from(paymentStatementLines)
      .where(and(eq(paymentStatementLines.statementId, id), inArray(paymentStatementLines.outcome, [...APPLIED_OUTCOMES])))
      // In the order they paid: the import's lines, then those attached by hand since.
      .orderBy(sql`${paymentStatementLines.resolvedAt} asc nulls first`, asc(paymentStatementLines.lineNumber));
    const states = fileStates(lines);
    const files = states.size
      ? await tx
          .select(paymentColumns)
          .from(pecDossiers)
          .where(inArray(pecDossiers.id, [...states.keys()]))
          .orderBy(asc(pecDossiers.id))
          .for('update')
      : [];
    const changed = files.filter((f) => !sameState(stateOf(f), states.get(f.id)!.after));
    if (changed.length) {
      // The statements applied to those files since this one: what to undo first, named.
      const later = await statementsPaying(
        tx,
        changed.map((f) => f.id),
        gt(pecPayments.statementId, id),
      );
      const byHand = changed.filter((f) => isPaidByHand(stateOf(f), expectedAmount(f)) && !isPaidByHand(states.get(f.id)!.after, expectedAmount(f)));
      if (later.length === 0 && byHand.length) throw conflict(STATEMENT_MESSAGES.undoPaidByHand(byHand.map((f) => f.numeroDossier)));
      throw conflict(
        STATEMENT_MESSAGES.undoConflict(
          changed.map((f) => f.numeroDossier),
          later,
        ),
      );
    }
    await tx
      .update(pecPayments)
      .set({ reversedAt: new Date(), reversedById: principal.id, reversalReason: STATEMENT_MESSAGES.undoneWith(motif) })
      .where(and(eq(pecPayments.statementId, id), isNull(pecPayments.reversedAt)));
    for (const file of files) {
      await syncPaymentState(tx, principal, file, 'payment_undo', { paymentStatement: { before: iriOf('payment_statements', id) } });
    }
    await tx
      .update(paymentStatements)
      .set({ status: 'undone', undoneAt: new Date(), undoneById: principal.id, undoReason: motif, pendingLines: 0, updatedAt: new Date() })
      .where(eq(paymentStatements.id, id));
    await recordAudit(tx, principal, {
      action: 'payment_statement.undo',
      entity: 'payment_statements',
      entityId: id,
      holdingId: statement.holdingId,
      changes: { status: { before: 'applied', after: 'undone' }, files: files.length, motif },
    });
  });
}

// ---------- the lines to be handled ('À traiter') ----------

/** A statement applied and one of its lines, both locked (404 / 409 otherwise). */
async function lockLine(tx: DbOrTx, id: number, lineNumber: number, scope: StatementScope) {
  const statement = await lockStatement(tx, id, scope);
  const [line] = await tx
    .select()
    .from(paymentStatementLines)
    .where(and(eq(paymentStatementLines.statementId, id), eq(paymentStatementLines.lineNumber, lineNumber)))
    .for('update');
  if (!line) throw notFound(STATEMENT_MESSAGES.lineNotFound);
  if (statement.status !== 'applied') throw conflict(STATEMENT_MESSAGES.lineOfUndone);
  return { statement, line };
}

/** A statement applied and one of its lines to be handled, both locked (404 / 409 otherwise). */
async function lockPendingLine(tx: DbOrTx, id: number, lineNumber: number, scope: StatementScope) {
  const { statement, line } = await lockLine(tx, id, lineNumber, scope);
  if (line.resolution) throw conflict(STATEMENT_MESSAGES.lineResolved);
  if (!isPendingLine(line)) throw conflict(STATEMENT_MESSAGES.lineNotPending);
  return { statement, line };
}

/**
 * A line to be handled becomes a payment of a billed file the caller sees, chosen by hand: a payment of the file's
 * history from this statement (undone with it), the line's outcome, file and states those of the payment. Once: the
 * line is locked, its payment unique (pec_payments_statement_line_idx), and a file that holds a payment of the same
 * amount and day already (from a statement or entered by hand) is refused, unless sent as a distinct payment with its
 * reason (sameDayPayment).
 */
export async function attachLine(
  db: DbOrTx,
  principal: Principal,
  id: number,
  lineNumber: number,
  attach: z.output<typeof statementLineAttachSchema>,
  scope: StatementScope,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { statement, line } = await lockPendingLine(tx, id, lineNumber, scope);
    const file = await lockFile(tx, principal, attach.dossier, () => invalidField('dossier', STATEMENT_MESSAGES.attachFile));
    if (file.holdingId !== statement.holdingId) throw invalidField('dossier', STATEMENT_MESSAGES.attachFile);
    if (file.status !== 'billed') throw invalidField('dossier', STATEMENT_MESSAGES.notBillable);
    const archived = newMoneyRefusal(file);
    if (archived) throw conflict(archived);
    if (paymentBeforeInvoiceError(line.paymentDate, invoiceDay(file))) throw invalidField('dossier', STATEMENT_MESSAGES.attachBeforeInvoice);
    const distinct = attach.paiementsDuJour === undefined ? undefined : { reason: attach.motifDistinct!, seen: attach.paiementsDuJour };
    const { lineKey, distinctReason } = await sameDayPayment(tx, file.id, line, distinct);
    requireAmountChecked(file, line, attach.montantVerifie === true);
    await payFileByLine(tx, principal, statement, line, file, { resolution: 'attached', lineKey, distinctReason });
  });
}

/**
 * A line taken for a payment its file already counts (isCountableLine: the same amount on the same day) counted all the
 * same, as a second, distinct payment of that file, with its reason (two ears paid the same day): a payment of the
 * file's history from this statement (undone with it), with its own key (sameDayPayments), the line's outcome and
 * states those of the payment, and no longer a copy of an earlier statement's. Once: the line is locked and then
 * handled. Refused (409) on a file that takes no statement payment any more (not billed, marked 'Payé' by hand).
 */
export async function countLine(db: DbOrTx, principal: Principal, id: number, lineNumber: number, reason: string, scope: StatementScope): Promise<void> {
  await db.transaction(async (tx) => {
    const { statement, line } = await lockLine(tx, id, lineNumber, scope);
    if (line.resolution) throw conflict(STATEMENT_MESSAGES.lineResolved);
    if (line.outcome !== 'already_applied' || line.dossierId === null) throw conflict(STATEMENT_MESSAGES.lineNotCountable);
    const file = await lockFile(tx, principal, line.dossierId);
    if ((file.status !== 'billed' && file.status !== 'paid') || isPaidByHand(stateOf(file), expectedAmount(file)))
      throw conflict(STATEMENT_MESSAGES.countNotBillable);
    const archived = newMoneyRefusal(file);
    if (archived) throw conflict(archived);
    if (paymentBeforeInvoiceError(line.paymentDate, invoiceDay(file))) throw conflict(STATEMENT_MESSAGES.attachBeforeInvoice);
    const { lineKey } = await sameDayPayments(tx, file.id, line);
    await payFileByLine(tx, principal, statement, line, file, { resolution: 'counted', lineKey, distinctReason: reason });
  });
}

/**
 * A line handled after the import that pays `file` (attached, or counted as a distinct payment): its payment in the
 * file's history, the line's outcome, file and states those of the payment (no longer a copy of another line), the
 * statement's amount applied (and, for a line that was to be handled, its count of those), the file's state, audited.
 */
async function payFileByLine(
  tx: DbOrTx,
  principal: Principal,
  statement: LockedLine['statement'],
  line: LockedLine['line'],
  file: PaymentFile,
  how: { resolution: 'attached' | 'counted'; lineKey: string; distinctReason: string | null },
) {
  const before = stateOf(file);
  const paid = payFile(before, expectedAmount(file), line.amount, line.paymentDate);
  const wasPending = isPendingLine(line);
  const beforePayment: LineBeforePayment = {
    outcome: line.outcome as PaymentOutcome,
    outcomeLabel: line.outcomeLabel,
    dossierId: line.dossierId,
    appliedInId: line.appliedInId,
    difference: line.difference,
    stateBefore: (line.stateBefore as PaymentState | null) ?? null,
    stateAfter: (line.stateAfter as PaymentState | null) ?? null,
  };
  await tx.insert(pecPayments).values({
    holdingId: statement.holdingId,
    dossierId: file.id,
    paymentDate: line.paymentDate,
    amount: line.amount,
    source: 'statement',
    statementId: statement.id,
    statementLineId: line.id,
    payer: line.payer,
    reference: line.reference,
    label: line.label,
    lineKey: how.lineKey,
    distinctReason: how.distinctReason,
    createdById: principal.id,
  });
  await tx
    .update(paymentStatementLines)
    .set({
      outcome: paid.outcome,
      outcomeLabel: null,
      appliedInId: null,
      dossierId: file.id,
      difference: paid.difference,
      stateBefore: before,
      stateAfter: paid.next,
      resolution: how.resolution,
      resolutionNote: how.distinctReason,
      resolvedAt: new Date(),
      resolvedById: principal.id,
      beforePayment,
    })
    .where(eq(paymentStatementLines.id, line.id));
  await tx
    .update(paymentStatements)
    .set({
      appliedAmount: sql`${paymentStatements.appliedAmount} + ${line.amount}`,
      ...(wasPending ? { pendingLines: sql`${paymentStatements.pendingLines} - 1` } : {}),
      updatedAt: new Date(),
    })
    .where(eq(paymentStatements.id, statement.id));
  const distinct = how.distinctReason ? { paiementDistinct: how.distinctReason } : {};
  await syncPaymentState(tx, principal, file, 'payment', {
    paymentStatement: { after: iriOf('payment_statements', statement.id) },
    ligne: line.lineNumber,
    ...distinct,
  });
  await recordAudit(tx, principal, {
    action: how.resolution === 'attached' ? 'payment_statement.line_attach' : 'payment_statement.line_count',
    entity: 'payment_statements',
    entityId: statement.id,
    holdingId: statement.holdingId,
    changes: {
      ligne: line.lineNumber,
      montant: line.amount,
      dossier: iriOf('pec_dossiers', file.id),
      resultat: { before: line.outcome, after: paid.outcome },
      ...distinct,
    },
  });
}

/** A line attached or counted by hand as it was before its payment (before_payment): what its detach puts back. */
interface LineBeforePayment {
  outcome: PaymentOutcome;
  outcomeLabel: string | null;
  dossierId: number | null;
  appliedInId: number | null;
  difference: number | null;
  stateBefore: PaymentState | null;
  stateAfter: PaymentState | null;
}

/**
 * 'Détacher': a line attached (or counted) by hand by mistake goes back to what it was before (to be handled again, or
 * taken for a payment already counted), its payment reversed with the reason (never deleted) and its file's state
 * derived again; the statement's amount applied (and count of lines to be handled) follow. Refused (409) for any other
 * line, once detached, for a line handled before its state was kept (migration 0041), while its file changed since the
 * line paid it (later lines or statements named, undone first), and while a later statement took its payment as
 * already applied. Locks in the line actions' order: statement, line, file, then its payment.
 */
export async function detachLine(db: DbOrTx, principal: Principal, id: number, lineNumber: number, reason: string, scope: StatementScope): Promise<void> {
  await db.transaction(async (tx) => {
    const { statement, line } = await lockLine(tx, id, lineNumber, scope);
    const paidFileId = line.dossierId;
    if (paidFileId === null || !isDetachableLine({ resolution: line.resolution, dossier: paidFileId })) {
      // Detached meanwhile (a double click, a colleague): its payment is there, reversed.
      const [detached] = line.resolution
        ? []
        : await tx
            .select({ id: pecPayments.id })
            .from(pecPayments)
            .where(and(eq(pecPayments.statementLineId, line.id), isNotNull(pecPayments.reversedAt)))
            .limit(1);
      throw conflict(detached ? STATEMENT_MESSAGES.lineDetached : STATEMENT_MESSAGES.lineNotDetachable);
    }
    const before = line.beforePayment as LineBeforePayment | null;
    if (!before) throw conflict(STATEMENT_MESSAGES.detachUnknownBefore);
    const file = await lockFile(tx, principal, paidFileId, () => forbidden(STATEMENT_MESSAGES.detachOutOfScope));
    const [payment] = await tx
      .select({ id: pecPayments.id, paymentDate: pecPayments.paymentDate, amount: pecPayments.amount, label: pecPayments.label })
      .from(pecPayments)
      .where(and(eq(pecPayments.statementLineId, line.id), isNull(pecPayments.reversedAt)))
      .for('update');
    if (!payment) throw conflict(STATEMENT_MESSAGES.lineDetached);
    const after = line.stateAfter as PaymentState;
    if (!sameState(stateOf(file), after)) {
      // What paid the file since this line: later lines of this statement, other statements (named, undone first).
      const laterLines = await tx
        .select({ line: paymentStatementLines.lineNumber })
        .from(pecPayments)
        .innerJoin(paymentStatementLines, eq(paymentStatementLines.id, pecPayments.statementLineId))
        .where(
          and(eq(pecPayments.dossierId, file.id), eq(pecPayments.statementId, statement.id), isNull(pecPayments.reversedAt), gt(pecPayments.id, payment.id)),
        )
        .orderBy(asc(paymentStatementLines.lineNumber));
      const later = await statementsPaying(tx, [file.id], and(gt(pecPayments.id, payment.id), ne(pecPayments.statementId, statement.id))!);
      const byHand = await tx
        .select({ amount: pecPayments.amount, paymentDate: pecPayments.paymentDate })
        .from(pecPayments)
        .where(and(eq(pecPayments.dossierId, file.id), eq(pecPayments.source, 'manual'), isNull(pecPayments.reversedAt), gt(pecPayments.id, payment.id)))
        .orderBy(asc(pecPayments.id));
      const expected = expectedAmount(file);
      if (!laterLines.length && !later.length && isPaidByHand(stateOf(file), expected) && !isPaidByHand(after, expected))
        throw conflict(STATEMENT_MESSAGES.detachPaidByHand(file.numeroDossier));
      throw conflict(
        STATEMENT_MESSAGES.detachConflict(
          file.numeroDossier,
          laterLines.map((l) => l.line),
          later,
          byHand,
        ),
      );
    }
    // Later statements' lines taken as copies of this statement's payments of that amount and day on the file ('Déjà
    // appliquée'): each stands for one of them, whichever (evaluateStatement takes them in order). Refused only when
    // this payment's leaving would leave one of those lines counting nowhere.
    const copies = await tx
      .select({ id: paymentStatements.id, createdAt: paymentStatements.createdAt })
      .from(paymentStatementLines)
      .innerJoin(paymentStatements, eq(paymentStatements.id, paymentStatementLines.statementId))
      .where(
        and(
          eq(paymentStatementLines.appliedInId, statement.id),
          eq(paymentStatementLines.dossierId, file.id),
          eq(paymentStatementLines.outcome, 'already_applied'),
          eq(paymentStatementLines.amount, line.amount),
          eq(paymentStatementLines.paymentDate, line.paymentDate),
          eq(paymentStatements.status, 'applied'),
        ),
      )
      .orderBy(asc(paymentStatements.id));
    if (copies.length) {
      const [left] = await tx
        .select({ others: count() })
        .from(pecPayments)
        .where(
          and(
            eq(pecPayments.statementId, statement.id),
            eq(pecPayments.dossierId, file.id),
            eq(pecPayments.amount, payment.amount),
            eq(pecPayments.paymentDate, payment.paymentDate),
            isNull(pecPayments.reversedAt),
            ne(pecPayments.id, payment.id),
          ),
        );
      if (copies.length > (left?.others ?? 0)) throw conflict(STATEMENT_MESSAGES.detachCopied([...new Map(copies.map((c) => [c.id, c])).values()]));
    }

    const reversalReason = STATEMENT_MESSAGES.detachedWith(reason);
    await tx.update(pecPayments).set({ reversedAt: new Date(), reversedById: principal.id, reversalReason }).where(eq(pecPayments.id, payment.id));
    await tx
      .update(paymentStatementLines)
      .set({ ...before, resolution: null, resolutionNote: null, resolvedAt: null, resolvedById: null, beforePayment: null })
      .where(eq(paymentStatementLines.id, line.id));
    const pendingAgain = isPendingLine({ outcome: before.outcome, resolution: null });
    await tx
      .update(paymentStatements)
      .set({
        appliedAmount: sql`${paymentStatements.appliedAmount} - ${line.amount}`,
        ...(pendingAgain ? { pendingLines: sql`${paymentStatements.pendingLines} + 1` } : {}),
        updatedAt: new Date(),
      })
      .where(eq(paymentStatements.id, statement.id));
    await syncPaymentState(tx, principal, file, 'payment_detach', {
      paymentStatement: { before: iriOf('payment_statements', statement.id) },
      ligne: line.lineNumber,
      annulation: {
        after: { paiement: iriOf('pec_payments', payment.id), date: payment.paymentDate, montant: payment.amount, libelle: payment.label, motif: reason },
      },
    });
    await recordAudit(tx, principal, {
      action: 'payment_statement.line_detach',
      entity: 'payment_statements',
      entityId: statement.id,
      holdingId: statement.holdingId,
      changes: {
        ligne: line.lineNumber,
        montant: line.amount,
        dossier: { before: iriOf('pec_dossiers', file.id), after: before.dossierId === null ? null : iriOf('pec_dossiers', before.dossierId) },
        resultat: { before: line.outcome, after: before.outcome },
        resolution: { before: line.resolution, after: null },
        motif: reason,
      },
    });
  });
}

/** A line to be handled, set aside with its reason (a payment outside Pecflow, refunded to the insurer…): no file changes. */
export async function dismissLine(db: DbOrTx, principal: Principal, id: number, lineNumber: number, reason: string, scope: StatementScope): Promise<void> {
  await db.transaction(async (tx) => {
    const { statement, line } = await lockPendingLine(tx, id, lineNumber, scope);
    await setAside(
      tx,
      principal,
      statement,
      line,
      { resolution: 'dismissed', resolutionNote: reason, resolvedAt: new Date(), resolvedById: principal.id },
      {
        ligne: lineNumber,
        montant: line.amount,
        motif: reason,
      },
    );
  });
}

/** A line set aside by mistake, back to be handled ('Remettre à traiter'): its reason leaves it, and is kept in the audit. */
export async function reopenLine(db: DbOrTx, principal: Principal, id: number, lineNumber: number, scope: StatementScope): Promise<void> {
  await db.transaction(async (tx) => {
    const { statement, line } = await lockLine(tx, id, lineNumber, scope);
    if (line.resolution !== 'dismissed') throw conflict(isPendingLine(line) ? STATEMENT_MESSAGES.lineReopened : STATEMENT_MESSAGES.lineNotDismissed);
    await setAside(
      tx,
      principal,
      statement,
      line,
      { resolution: null, resolutionNote: null, resolvedAt: null, resolvedById: null },
      {
        ligne: lineNumber,
        montant: line.amount,
        motif: { before: line.resolutionNote, after: null },
      },
    );
  });
}

type LockedLine = Awaited<ReturnType<typeof lockLine>>;

/** A line set aside (a resolution) or put back (none): the statement's count of lines to be handled follows; audited. */
async function setAside(
  tx: DbOrTx,
  principal: Principal,
  statement: LockedLine['statement'],
  line: LockedLine['line'],
  values: Pick<typeof paymentStatementLines.$inferInsert, 'resolution' | 'resolutionNote' | 'resolvedAt' | 'resolvedById'>,
  changes: Record<string, unknown>,
) {
  await tx.update(paymentStatementLines).set(values).where(eq(paymentStatementLines.id, line.id));
  await tx
    .update(paymentStatements)
    .set({ pendingLines: sql`${paymentStatements.pendingLines} ${values.resolution ? sql`- 1` : sql`+ 1`}`, updatedAt: new Date() })
    .where(eq(paymentStatements.id, statement.id));
  await recordAudit(tx, principal, {
    action: values.resolution ? 'payment_statement.line_dismiss' : 'payment_statement.line_reopen',
    entity: 'payment_statements',
    entityId: statement.id,
    holdingId: statement.holdingId,
    changes,
  });
}
