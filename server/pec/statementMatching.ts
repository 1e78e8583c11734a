// A statement's lines matched to the billed files of the caller's organisation: each line's outcome (paid, partial,
// over-paid, unknown, already applied…) and the file's payment state before and after it (issues 15 and 25).
import { and, asc, eq, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { paymentStatementLines, paymentStatements, pecDossiers, pecPayments } from '../db/schema';
import { ApiError } from '../http/errors';
import { pecReadScope } from '../auth/fileVisibility';
import { iriOf } from '#domain/iri';
import { invoiceDay, paymentBeforeInvoiceError } from '#domain/pec';
import {
  expectedAmount,
  filePaymentKey,
  isPaidByHand,
  normalReference,
  PAYMENT_OUTCOME_LABELS,
  payFile,
  PENDING_OUTCOMES,
  receivedLineKey,
  STATEMENT_MESSAGES,
  type PaymentLine,
  type PaymentState,
  type StatementLine,
} from '#domain/payments';

// ---------- matching ----------

export const paymentColumns = {
  id: pecDossiers.id,
  holdingId: pecDossiers.holdingId,
  shopId: pecDossiers.shopId,
  numeroDossier: pecDossiers.numeroDossier,
  numPec: pecDossiers.numPec,
  numBilling: pecDossiers.numBilling,
  status: pecDossiers.status,
  partComplementaire: pecDossiers.partComplementaire,
  montantPaye: pecDossiers.montantPaye,
  datePaiement: pecDossiers.datePaiement,
  paiementPartiel: pecDossiers.paiementPartiel,
  montantDu: pecDossiers.montantDu,
  dateBilling: pecDossiers.dateBilling,
  dateFacturationEffective: pecDossiers.dateFacturationEffective,
};
export type PaymentFile = { [K in keyof typeof paymentColumns]: (typeof pecDossiers.$inferSelect)[K] };

export const stateOf = (file: PaymentFile): PaymentState => ({
  status: file.status,
  montantPaye: file.montantPaye,
  datePaiement: file.datePaiement,
  paiementPartiel: file.paiementPartiel,
  montantDu: file.montantDu,
});

export const sameState = (a: PaymentState, b: PaymentState) =>
  a.status === b.status &&
  (a.montantPaye ?? null) === (b.montantPaye ?? null) &&
  (a.datePaiement ?? null) === (b.datePaiement ?? null) &&
  a.paiementPartiel === b.paiementPartiel &&
  (a.montantDu ?? null) === (b.montantDu ?? null);

/** A line matched: what the API shows (PaymentLine), with the statement's reference and what applying it changes. */
export interface EvaluatedLine extends PaymentLine {
  statementNumber: string | null;
  period: string | null;
  file?: PaymentFile;
  stateBefore: PaymentState | null;
  stateAfter: PaymentState | null;
}

/** The organisation's files the caller sees, named by PEC number, invoice number or Pecflow ID; locked when applying. */
async function filesFor(tx: DbOrTx, principal: Principal, references: string[], lock: boolean): Promise<PaymentFile[]> {
  if (references.length === 0) return [];
  const query = tx
    .select(paymentColumns)
    .from(pecDossiers)
    .where(
      and(
        eq(pecDossiers.holdingId, principal.holdingId!),
        pecReadScope(principal),
        or(
          inArray(sql`upper(${pecDossiers.numPec})`, references),
          inArray(sql`upper(${pecDossiers.numBilling})`, references),
          inArray(sql`upper(${pecDossiers.numeroDossier})`, references),
        ),
      ),
    )
    .orderBy(asc(pecDossiers.id));
  return lock ? query.for('update') : query;
}

/** The statement lines already paid on these files (their keys, by file), with the statement that paid each. */
async function appliedKeys(tx: DbOrTx, fileIds: number[]): Promise<Map<string, NonNullable<PaymentLine['appliedIn']>>> {
  const keys = new Map<string, NonNullable<PaymentLine['appliedIn']>>();
  if (fileIds.length === 0) return keys;
  const rows = await tx
    .select({ dossierId: pecPayments.dossierId, lineKey: pecPayments.lineKey, statementId: paymentStatements.id, createdAt: paymentStatements.createdAt })
    .from(pecPayments)
    .innerJoin(paymentStatements, eq(paymentStatements.id, pecPayments.statementId))
    .where(and(inArray(pecPayments.dossierId, fileIds), isNotNull(pecPayments.lineKey), isNull(pecPayments.reversedAt)));
  for (const row of rows) {
    keys.set(`${row.dossierId}|${row.lineKey}`, {
      '@id': iriOf('payment_statements', row.statementId),
      id: row.statementId,
      createdAt: row.createdAt.toISOString(),
    });
  }
  return keys;
}

/**
 * The lines of the organisation's applied statements that reached no file, or paid one, by the key of the line as the
 * insurer wrote it (receivedLineKey): the first statement that received each. Copies (already applied) are not counted.
 */
async function receivedKeys(tx: DbOrTx, holdingId: number, keys: string[]): Promise<Map<string, NonNullable<PaymentLine['appliedIn']>>> {
  const received = new Map<string, NonNullable<PaymentLine['appliedIn']>>();
  if (keys.length === 0) return received;
  const rows = await tx
    .select({ lineKey: paymentStatementLines.lineKey, statementId: paymentStatements.id, createdAt: paymentStatements.createdAt })
    .from(paymentStatementLines)
    .innerJoin(paymentStatements, eq(paymentStatements.id, paymentStatementLines.statementId))
    .where(
      and(
        eq(paymentStatementLines.holdingId, holdingId),
        inArray(paymentStatementLines.lineKey, keys),
        ne(paymentStatementLines.outcome, 'already_applied'),
        eq(paymentStatements.status, 'applied'),
      ),
    )
    .orderBy(asc(paymentStatements.id), asc(paymentStatementLines.lineNumber));
  for (const row of rows) {
    if (!received.has(row.lineKey!))
      received.set(row.lineKey!, { '@id': iriOf('payment_statements', row.statementId), id: row.statementId, createdAt: row.createdAt.toISOString() });
  }
  return received;
}

/**
 * Each line's outcome, in the file's order: payments on one file add up line after line; a line a statement already
 * paid on its file (the same payer, amount and day, whichever reference named the file: an overlapping re-export), or
 * repeated within this one, is 'already applied' and counts once; a new payment on a file its payments settled already
 * is 'over-paid', one on a file marked paid by hand 'already paid', a file not billed yet 'not yet billed', a payment
 * dated before the file's invoice 'before the invoice' (as 'Rattacher' refuses it), a reference that names no file of
 * the caller's organisation 'unknown', several 'ambiguous'. Those last are to be handled, once: a line an earlier
 * statement received already (or this one, higher up) is 'already applied' too, to be handled where it was received.
 */
export async function evaluateStatement(tx: DbOrTx, principal: Principal, lines: StatementLine[], lock = false): Promise<EvaluatedLine[]> {
  const references = [...new Set(lines.map((l) => normalReference(l.reference)))];
  const files = await filesFor(tx, principal, references, lock);
  const paidLines = await appliedKeys(
    tx,
    files.map((f) => f.id),
  );
  const received = await receivedKeys(tx, principal.holdingId!, [...new Set(lines.map(receivedLineKey))]);
  const byPec = new Map<string, PaymentFile[]>();
  const byInvoice = new Map<string, PaymentFile[]>();
  const byNumero = new Map<string, PaymentFile>();
  for (const file of files) {
    if (file.numPec) byPec.set(normalReference(file.numPec), [...(byPec.get(normalReference(file.numPec)) ?? []), file]);
    if (file.numBilling) byInvoice.set(normalReference(file.numBilling), [...(byInvoice.get(normalReference(file.numBilling)) ?? []), file]);
    byNumero.set(normalReference(file.numeroDossier), file);
  }
  const states = new Map<number, PaymentState>();
  const appliedHere = new Map<string, number>();
  const receivedHere = new Map<string, number>();
  const judge = (line: StatementLine): EvaluatedLine => {
    const ref = normalReference(line.reference);
    // A PEC number first (unique per insurer), then an invoice number, then the Pecflow ID (PEC-2026-…, unique in the
    // organisation) that an office may have written on its invoice; several files for one reference match none.
    const numero = byNumero.get(ref);
    const candidates = byPec.get(ref) ?? byInvoice.get(ref) ?? (numero ? [numero] : []);
    const file = candidates.length === 1 ? candidates[0] : undefined;
    const base = { ...line, difference: null, expected: null, dossier: null, appliedIn: null, stateBefore: null, stateAfter: null };
    if (candidates.length > 1) return { ...base, outcome: 'ambiguous', outcomeLabel: PAYMENT_OUTCOME_LABELS.ambiguous };
    if (!file) return { ...base, outcome: 'unknown', outcomeLabel: PAYMENT_OUTCOME_LABELS.unknown };
    const dossier = { '@id': iriOf('pec_dossiers', file.id), id: file.id, numeroDossier: file.numeroDossier };
    const expected = expectedAmount(file);
    const known = { ...base, dossier, expected, file };
    const key = `${file.id}|${filePaymentKey(line)}`;
    const earlier = paidLines.get(key);
    if (earlier)
      return { ...known, outcome: 'already_applied', outcomeLabel: STATEMENT_MESSAGES.alreadyApplied(earlier.id, earlier.createdAt), appliedIn: earlier };
    const repeated = appliedHere.get(key);
    if (repeated !== undefined) return { ...known, outcome: 'already_applied', outcomeLabel: STATEMENT_MESSAGES.repeatedLine(repeated) };
    if (file.status !== 'billed' && file.status !== 'paid') return { ...known, outcome: 'not_billed', outcomeLabel: PAYMENT_OUTCOME_LABELS.not_billed };
    if (paymentBeforeInvoiceError(line.paymentDate, invoiceDay(file)))
      return { ...known, outcome: 'before_invoice', outcomeLabel: PAYMENT_OUTCOME_LABELS.before_invoice };
    const before = states.get(file.id) ?? stateOf(file);
    // A file its payments settled takes a new payment as an over-payment ('Trop-perçu'), to be refunded. One marked
    // 'Payé' by hand, that no payment settles, is left alone: what it received is not known.
    if (isPaidByHand(before, expected)) return { ...known, outcome: 'already_paid', outcomeLabel: PAYMENT_OUTCOME_LABELS.already_paid };
    const paid = payFile(before, expected, line.amount, line.paymentDate);
    states.set(file.id, paid.next);
    appliedHere.set(key, line.line);
    return {
      ...known,
      outcome: paid.outcome,
      outcomeLabel: PAYMENT_OUTCOME_LABELS[paid.outcome],
      difference: paid.difference,
      stateBefore: before,
      stateAfter: paid.next,
    };
  };
  return lines.map((line) => {
    const judged = judge(line);
    if (!PENDING_OUTCOMES.includes(judged.outcome)) return judged;
    // Money that reaches no file is to be handled once: where it was first received. The copy names no file.
    const key = receivedLineKey(line);
    const copy = { ...judged, outcome: 'already_applied' as const, dossier: null, expected: null, file: undefined };
    const earlier = received.get(key);
    if (earlier) return { ...copy, outcomeLabel: STATEMENT_MESSAGES.alreadyReceived(earlier.id, earlier.createdAt), appliedIn: earlier };
    const repeated = receivedHere.get(key);
    if (repeated !== undefined) return { ...copy, outcomeLabel: STATEMENT_MESSAGES.repeatedReceived(repeated) };
    receivedHere.set(key, line.line);
    return judged;
  });
}

/** A line as the API shows it (preview and stored statement alike). */
export const presentLine = ({
  file: _file,
  stateBefore: _b,
  stateAfter: _a,
  statementNumber: _n,
  period: _p,
  ...line
}: EvaluatedLine): PaymentLine & { '@type': string } => ({
  '@type': 'PaymentStatementLine',
  ...line,
});

export function requireOrganisation(principal: Principal) {
  if (!principal.holdingId) throw new ApiError(422, STATEMENT_MESSAGES.noOrganisation);
}
