// The file's payment history (pec_payments, never deleted): its stored payment state derived from that history in one
// place (syncPaymentState, with the rule of domain/payments.ts), a payment entered by hand and its cancellation.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { pecDossiers, pecPayments } from '../db/schema';
import { recordAudit } from '../audit/audit';
import { publish } from '../events/bus';
import { ApiError, conflict, invalidField, notFound } from '../http/errors';
import { dossierEvent } from './events';
import { pecReadScope } from '../auth/fileVisibility';
import { assertAmountFits } from '../http/body';
import { invoiceDay, paymentBeforeInvoiceError } from '#domain/pec';
import { newMoneyRefusal } from '#domain/archive';
import { iriOf } from '#domain/iri';
import {
  AMOUNTS_TO_CHECK_CONFLICT,
  cancelRefusalMessage,
  expectedAmount,
  filePaymentKey,
  isPaidByHand,
  PAYMENT_CANCEL_MESSAGES,
  payFile,
  paymentLineWarning,
  paymentStateOf,
  SAME_DAY_CONFLICT,
  STATEMENT_MESSAGES,
  type CancelRefusal,
  type PaymentState,
} from '#domain/payments';
import type { manualPaymentSchema } from '#domain/pecSchemas';
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
  action: 'payment' | 'payment_cancel' | 'payment_undo' | 'payment_detach',
  extra: Record<string, unknown>,
): Promise<PaymentState> {
  const before = stateOf(file);
  const after = await stateFromHistory(tx, file, before);
  assertPaidFits(file, after.montantPaye);
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

/** What a file has been paid fits the column (422 on `montant` otherwise). */
const assertPaidFits = (file: PaymentFile, paid: number | null) => assertAmountFits(paid, 'montant', `le montant payé du dossier ${file.numeroDossier}`);

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

/**
 * 'Enregistrer un paiement' on one billed file (date, amount, optional label; a second payment of the same amount and day
 * with its reason: sameDayPayment); 404 outside the caller's files.
 */
export async function recordManualPayment(db: DbOrTx, principal: Principal, id: number, payment: z.output<typeof manualPaymentSchema>): Promise<void> {
  await db.transaction(async (tx) => {
    const file = await lockFile(tx, principal, id);
    if (file.status !== 'billed') throw conflict(STATEMENT_MESSAGES.notBillable);
    const archived = newMoneyRefusal(file);
    if (archived) throw conflict(archived);
    const early = paymentBeforeInvoiceError(payment.datePaiement, invoiceDay(file));
    if (early) throw invalidField('datePaiement', early);
    const distinct = payment.paiementsDuJour === undefined ? undefined : { reason: payment.motifDistinct!, seen: payment.paiementsDuJour };
    const { distinctReason } = await sameDayPayment(tx, file.id, { amount: payment.montant, paymentDate: payment.datePaiement }, distinct);
    const outcome = requireAmountChecked(file, { amount: payment.montant, paymentDate: payment.datePaiement }, payment.montantVerifie === true);
    const [row] = await tx
      .insert(pecPayments)
      .values({
        holdingId: file.holdingId,
        dossierId: file.id,
        paymentDate: payment.datePaiement,
        amount: payment.montant,
        source: 'manual',
        label: payment.libelle,
        distinctReason,
        createdById: principal.id,
      })
      .returning({ id: pecPayments.id });
    await syncPaymentState(tx, principal, file, 'payment', {
      paiement: {
        after: {
          date: payment.datePaiement,
          montant: payment.montant,
          libelle: payment.libelle,
          resultat: outcome,
          ...(distinctReason ? { paiementDistinct: distinctReason } : {}),
        },
      },
      pecPayment: { after: iriOf('pec_payments', row!.id) },
    });
  });
}

/**
 * A payment far above what its file was to receive (paymentLineWarning: 130 000 € typed for 1 300 €, a line attached
 * to the wrong file) is recorded only once the office confirms it (`checked`, AMOUNT_CHECKED_FIELD): else a 409 that
 * names the file's expected amount, before anything is written. Answers the payment's outcome for the file.
 */
export function requireAmountChecked(file: PaymentFile, payment: { amount: number; paymentDate: string }, checked: boolean) {
  const expected = expectedAmount(file);
  const { outcome, next } = payFile(stateOf(file), expected, payment.amount, payment.paymentDate);
  // An amount that cannot be recorded at all is told first (422), not confirmed and then refused.
  assertPaidFits(file, next.montantPaye);
  if (!checked && paymentLineWarning({ outcome, amount: payment.amount, expected }))
    throw new ApiError(409, STATEMENT_MESSAGES.paymentFarAboveExpected(payment.amount, expected!), { conflict: AMOUNTS_TO_CHECK_CONFLICT, expected });
  return outcome;
}

/**
 * The same amount on the same day is the same transfer (filePaymentKey), whether a statement brought it or the office
 * typed it: a file that holds it already does not take it again, typed twice or attached from a statement line (409,
 * SAME_DAY_CONFLICT, with how many it holds). Unless the office says why this one is a second, distinct payment
 * (`distinct`: its reason, and the number of such payments it saw, which must still be the file's, so that a second
 * click records nothing more). Answers the reason to keep on the payment (null: the file held none) and the payment's
 * key among the file's statement payments: the amount and day, then `|n` after n - 1 of them, cancelled ones included,
 * so that it never meets a key in use (pec_payments_line_key_idx). Called with the file's row locked.
 */
export async function sameDayPayment(
  tx: DbOrTx,
  dossierId: number,
  payment: { amount: number; paymentDate: string },
  distinct?: { reason: string; seen: number },
): Promise<{ distinctReason: string | null; lineKey: string }> {
  const { active, lineKey } = await sameDayPayments(tx, dossierId, payment);
  if (active === 0) return { distinctReason: null, lineKey };
  if (distinct?.seen !== active)
    throw new ApiError(409, STATEMENT_MESSAGES.sameDayPayment(payment.amount, payment.paymentDate, active), {
      conflict: SAME_DAY_CONFLICT,
      sameDayPayments: active,
    });
  return { distinctReason: distinct.reason, lineKey };
}

/** How many payments of that amount and day the file holds that count (`active`), and the key of one more (sameDayPayment). */
export async function sameDayPayments(tx: DbOrTx, dossierId: number, payment: { amount: number; paymentDate: string }) {
  const [twins] = await tx
    .select({ active: sql<number>`(count(*) filter (where ${pecPayments.reversedAt} is null))::int`, all: sql<number>`count(*)::int` })
    .from(pecPayments)
    .where(and(eq(pecPayments.dossierId, dossierId), eq(pecPayments.paymentDate, payment.paymentDate), eq(pecPayments.amount, payment.amount)));
  const { active, all } = twins!;
  return { active, lineKey: all === 0 ? filePaymentKey(payment) : `${filePaymentKey(payment)}|${all + 1}` };
}

/** A column of the payment being read: for subqueries correlated with it. */
const paymentColumn = (column: string) => sql`${sql.identifier('pec_payments')}.${sql.identifier(column)}`;

/**
 * Why a payment cannot be cancelled, a CancelRefusal as JSON (domain/payments.ts; null: it can be), correlated with
 * pec_payments: the one rule of the cancellation's refusals (cancelManualPayment), read with the payment history too
 * (pec_payments' `cancelRefusal`), whose 'Annuler' says so before it is tried. In this order: a statement's line (its
 * statement is undone instead), a payment already cancelled, one followed by a statement on the same file (undo that
 * statement first, as an undo is refused once its files changed), or one a statement applied since took for its own
 * line ('Déjà enregistrée': a line of the same amount and day, named by no earlier statement, counted nothing for it:
 * cancelled, the money would leave both) unless another payment typed of that amount and day is left for each such
 * line (two ears typed, one line: either can go; the one typed after the statement too, which then stands for it). Index lookups by the payment's file; no parameter, so that the history's
 * list keeps its members' SQL as text (server/hydra/listMembers.ts).
 */
export const cancelRefusalJson = sql<CancelRefusal | null>`(case
  when ${paymentColumn('source')} <> 'manual'
    then json_build_object('rule', 'fromStatement', 'statements', json_build_array(json_build_object('id', ${paymentColumn('statement_id')})))
  when ${paymentColumn('reversed_at')} is not null then json_build_object('rule', 'alreadyCancelled', 'statements', json_build_array())
  else coalesce(
    (select json_build_object('rule', 'laterStatement', 'statements', json_agg(json_build_object('id', later.statement_id) order by later.statement_id))
      from (select distinct l.statement_id from pec_payments l
        where l.dossier_id = ${paymentColumn('dossier_id')} and l.source = 'statement' and l.reversed_at is null and l.id > ${paymentColumn('id')}) later
      having count(*) > 0),
    (select json_build_object('rule', 'confirmedByStatement', 'statements',
        json_agg(json_build_object('id', confirming.id, 'createdAt', confirming.created_at) order by confirming.id))
      from (select s.id, to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, count(*) as lines
        from payment_statement_lines sl join payment_statements s on s.id = sl.statement_id
        where sl.dossier_id = ${paymentColumn('dossier_id')} and sl.outcome = 'already_applied' and sl.applied_in_id is null
          and sl.amount = ${paymentColumn('amount')} and sl.payment_date = ${paymentColumn('payment_date')}
          and s.status = 'applied'
        group by s.id, s.created_at) confirming
      having count(*) > 0
        and sum(confirming.lines) >= (select count(*) from pec_payments twin
          where twin.dossier_id = ${paymentColumn('dossier_id')} and twin.source = 'manual' and twin.reversed_at is null
            and twin.amount = ${paymentColumn('amount')} and twin.payment_date = ${paymentColumn('payment_date')})))
  end)`;

/**
 * Cancels a payment entered by hand, with its reason: the row stays in the history, reversed, and the file's state is
 * derived again (the amount due comes back). Refused (409) by cancelRefusalJson's rule, with its message. Returns the file's id.
 */
export async function cancelManualPayment(db: DbOrTx, principal: Principal, paymentId: number, reason: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ dossierId: pecPayments.dossierId }).from(pecPayments).where(eq(pecPayments.id, paymentId));
    if (!found) throw notFound(PAYMENT_CANCEL_MESSAGES.notFound);
    // The file first, then its payment: the order of every payment's locks.
    const file = await lockFile(tx, principal, found.dossierId);
    const [payment] = await tx.select().from(pecPayments).where(eq(pecPayments.id, paymentId)).for('update');
    const [checked] = await tx.select({ refusal: cancelRefusalJson }).from(pecPayments).where(eq(pecPayments.id, paymentId));
    if (checked?.refusal) throw conflict(cancelRefusalMessage(checked.refusal));
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
