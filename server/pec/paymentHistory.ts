// The file's payment history (pec_payments, never deleted): its stored payment state derived from that history in one
// place (syncPaymentState, with the rule of domain/payments.ts), a payment entered by hand and its cancellation.
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { paymentStatementLines, paymentStatements, pecDossiers, pecPayments } from '../db/schema';
import { recordAudit } from '../audit/audit';
import { publish } from '../events/bus';
import { conflict, invalidField, notFound } from '../http/errors';
import { dossierEvent } from './events';
import { pecReadScope } from '../auth/fileVisibility';
import { assertAmountFits } from '../http/body';
import { invoiceDay, paymentBeforeInvoiceError } from '#domain/pec';
import { iriOf } from '#domain/iri';
import { expectedAmount, isPaidByHand, PAYMENT_CANCEL_MESSAGES, payFile, paymentStateOf, STATEMENT_MESSAGES, type PaymentState } from '#domain/payments';
import { paymentColumns, stateOf, type PaymentFile } from './statementMatching';

// ---------- the file's payment state, from its history ----------

const stateChanges = (before: PaymentState, after: PaymentState) =>
  Object.fromEntries(
    (Object.keys(before) as (keyof PaymentState)[])
      .filter((key) => (before[key] ?? null) !== (after[key] ?? null))
      .map((key) => [key, { before: before[key] ?? null, after: after[key] ?? null }]),
  );

/**
 * A file's payment state from its history: the sum of its payments that count and the day of the last one, by the one
 * rule (paymentStateOf). `current`: its stored state, which says whether it was marked 'Payé' by hand.
 */
export async function stateFromHistory(tx: DbOrTx, file: { id: number; partComplementaire: number | null }, current: PaymentState): Promise<PaymentState> {
  const [history] = await tx
    .select({ paid: sql<string | null>`sum(${pecPayments.amount})`, last: sql<string | null>`max(${pecPayments.paymentDate})::text` })
    .from(pecPayments)
    .where(and(eq(pecPayments.dossierId, file.id), isNull(pecPayments.reversedAt)));
  const expected = expectedAmount(file);
  const paid = history?.paid === null || history?.paid === undefined ? null : Number(history.paid);
  return paymentStateOf(expected, paid, history?.last ?? null, isPaidByHand(current, expected));
}

/**
 * The one place a file's stored payment state is written: derived from its payments that count (paymentStateOf),
 * with its audit entry and live event, in the caller's transaction (which holds the file's row locked). A file marked
 * 'Payé' by hand stays paid.
 */
export async function syncPaymentState(
  tx: DbOrTx,
  principal: Principal,
  file: PaymentFile,
  action: 'payment' | 'payment_cancel' | 'payment_undo',
  extra: Record<string, unknown>,
): Promise<PaymentState> {
  const before = stateOf(file);
  const after = await stateFromHistory(tx, file, before);
  assertAmountFits(after.montantPaye, 'montant', `le montant payé du dossier ${file.numeroDossier}`);
  await tx
    .update(pecDossiers)
    .set({ ...after, updatedAt: new Date() })
    .where(eq(pecDossiers.id, file.id));
  await recordAudit(tx, principal, {
    action: `pec_dossier.${action}`,
    entity: 'pec_dossiers',
    entityId: file.id,
    entityLabel: file.numeroDossier,
    holdingId: file.holdingId,
    changes: { ...stateChanges(before, after), ...extra },
  });
  await publish(tx, dossierEvent('dossier.updated', file, after.status));
  return after;
}

/** A file's row, locked for its payment (404, or the caller's `missing` error, outside the caller's files). */
export async function lockFile(tx: DbOrTx, principal: Principal, id: number, missing = () => notFound('Demande de PEC introuvable.')): Promise<PaymentFile> {
  const [file] = await tx
    .select(paymentColumns)
    .from(pecDossiers)
    .where(and(eq(pecDossiers.id, id), pecReadScope(principal)))
    .for('update');
  if (!file) throw missing();
  return file;
}

// ---------- a payment entered by hand, and its cancellation ----------

/** 'Enregistrer un paiement' on one billed file (date, amount, optional label); 404 outside the caller's files. */
export async function recordManualPayment(
  db: DbOrTx,
  principal: Principal,
  id: number,
  payment: { datePaiement: string; montant: number; libelle: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const file = await lockFile(tx, principal, id);
    if (file.status !== 'billed') throw conflict(STATEMENT_MESSAGES.notBillable);
    const early = paymentBeforeInvoiceError(payment.datePaiement, invoiceDay(file));
    if (early) throw invalidField('datePaiement', early);
    await refuseSameDayPayment(tx, file.id, { amount: payment.montant, paymentDate: payment.datePaiement });
    const outcome = payFile(stateOf(file), expectedAmount(file), payment.montant, payment.datePaiement).outcome;
    const [row] = await tx
      .insert(pecPayments)
      .values({
        holdingId: file.holdingId,
        dossierId: file.id,
        paymentDate: payment.datePaiement,
        amount: payment.montant,
        source: 'manual',
        label: payment.libelle,
        createdById: principal.id,
      })
      .returning({ id: pecPayments.id });
    await syncPaymentState(tx, principal, file, 'payment', {
      paiement: { after: { date: payment.datePaiement, montant: payment.montant, libelle: payment.libelle, resultat: outcome } },
      pecPayment: { after: iriOf('pec_payments', row!.id) },
    });
  });
}

/**
 * The same amount on the same day is the same transfer (filePaymentKey), whether a statement brought it or the office
 * typed it: a file that holds it already does not take it again, typed twice or attached from a statement line (409).
 */
export async function refuseSameDayPayment(tx: DbOrTx, dossierId: number, payment: { amount: number; paymentDate: string }) {
  const [twin] = await tx
    .select({ id: pecPayments.id })
    .from(pecPayments)
    .where(
      and(
        eq(pecPayments.dossierId, dossierId),
        eq(pecPayments.paymentDate, payment.paymentDate),
        eq(pecPayments.amount, payment.amount),
        isNull(pecPayments.reversedAt),
      ),
    );
  if (twin) throw conflict(STATEMENT_MESSAGES.sameDayPayment(payment.amount, payment.paymentDate));
}

/**
 * Cancels a payment entered by hand, with its reason: the row stays in the history, reversed, and the file's state is
 * derived again (the amount due comes back). Refused (409) for a statement's line (its statement is undone instead),
 * a payment already cancelled, one followed by a statement on the same file (undo that statement first, as an undo
 * is refused once its files changed), or one a later statement took for its own line ('Déjà enregistrée'). Returns the
 * file's id.
 */
export async function cancelManualPayment(db: DbOrTx, principal: Principal, paymentId: number, reason: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ dossierId: pecPayments.dossierId }).from(pecPayments).where(eq(pecPayments.id, paymentId));
    if (!found) throw notFound(PAYMENT_CANCEL_MESSAGES.notFound);
    // The file first, then its payment: the order of every payment's locks.
    const file = await lockFile(tx, principal, found.dossierId);
    const [payment] = await tx.select().from(pecPayments).where(eq(pecPayments.id, paymentId)).for('update');
    if (payment!.source !== 'manual') throw conflict(PAYMENT_CANCEL_MESSAGES.fromStatement(payment!.statementId));
    if (payment!.reversedAt) throw conflict(PAYMENT_CANCEL_MESSAGES.alreadyCancelled);
    const later = await tx
      .selectDistinct({ statementId: pecPayments.statementId })
      .from(pecPayments)
      .where(and(eq(pecPayments.dossierId, file.id), eq(pecPayments.source, 'statement'), isNull(pecPayments.reversedAt), gt(pecPayments.id, paymentId)))
      .orderBy(asc(pecPayments.statementId));
    if (later.length) throw conflict(PAYMENT_CANCEL_MESSAGES.laterStatement(later.map((l) => l.statementId!)));
    // A statement applied since that found this payment on the file ('Déjà enregistrée': a line of the same amount and
    // day, named by no earlier statement) counted nothing for it: the money would leave both.
    const confirming = await tx
      .selectDistinct({ id: paymentStatements.id, createdAt: paymentStatements.createdAt })
      .from(paymentStatementLines)
      .innerJoin(paymentStatements, eq(paymentStatements.id, paymentStatementLines.statementId))
      .where(
        and(
          eq(paymentStatementLines.dossierId, file.id),
          eq(paymentStatementLines.outcome, 'already_applied'),
          isNull(paymentStatementLines.appliedInId),
          eq(paymentStatementLines.amount, payment!.amount),
          eq(paymentStatementLines.paymentDate, payment!.paymentDate),
          eq(paymentStatements.status, 'applied'),
          gt(paymentStatements.createdAt, payment!.createdAt),
        ),
      )
      .orderBy(asc(paymentStatements.id));
    if (confirming.length) throw conflict(PAYMENT_CANCEL_MESSAGES.confirmedByStatement(confirming));
    const reversedAt = new Date();
    await tx.update(pecPayments).set({ reversedAt, reversedById: principal.id, reversalReason: reason }).where(eq(pecPayments.id, paymentId));
    const cancelled = {
      paiement: iriOf('pec_payments', paymentId),
      date: payment!.paymentDate,
      montant: payment!.amount,
      libelle: payment!.label,
      motif: reason,
    };
    await syncPaymentState(tx, principal, file, 'payment_cancel', { annulation: { after: cancelled } });
    await recordAudit(tx, principal, {
      action: 'pec_payment.cancel',
      entity: 'pec_payments',
      entityId: paymentId,
      entityLabel: file.numeroDossier,
      holdingId: file.holdingId,
      changes: { reversedAt: { before: null, after: reversedAt.toISOString() }, reversalReason: { before: null, after: reason } },
    });
    return file.id;
  });
}
