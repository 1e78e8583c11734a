// A statement's lines matched to the billed files of the caller's organisation: each line's outcome (paid, partial,
// over-paid, unknown, already applied…) and the file's payment state before and after it (issues 15 and 25).
import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { paymentStatementLines, paymentStatements, pecDossiers, pecPayments } from '../db/schema';
import { ApiError } from '../http/errors';
import { pecReadScope } from '../auth/fileVisibility';
import { iriOf } from '#domain/iri';
import { invoiceDay, paymentBeforeInvoiceError } from '#domain/pec';
import { ARCHIVE_MESSAGES, takesNewMoney } from '#domain/archive';
import {
  amountOnDayKey,
  APPLIED_OUTCOMES,
  expectedAmount,
  foldForKey,
  isPaidByHand,
  PAYMENT_OUTCOME_LABELS,
  payFile,
  paymentLineWarning,
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
  // An archived file takes no new money (takesNewMoney): its lines wait to be handled.
  archived: pecDossiers.archived,
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

/**
 * The organisation's files the caller sees whose PEC number, invoice number or Pecflow ID folds (foldForKey) to one of
 * `references` (folded already); locked when applying. The fold is written in SQL too (pecflow_fold, migration 0037),
 * the same steps, because the indexes of these three numbers are built on it: an import reads the files it names, not
 * every file of the organisation.
 */
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
          inArray(sql`pecflow_fold(${pecDossiers.numPec})`, references),
          inArray(sql`pecflow_fold(${pecDossiers.numBilling})`, references),
          inArray(sql`pecflow_fold(${pecDossiers.numeroDossier})`, references),
        ),
      ),
    )
    .orderBy(asc(pecDossiers.id));
  return lock ? query.for('update') : query;
}

/** The files by one of their numbers, folded (a number that folds to nothing names no file). */
function filesBy(files: PaymentFile[], numberOf: (file: PaymentFile) => string | null) {
  const by = new Map<string, PaymentFile[]>();
  for (const file of files) {
    const key = foldForKey(numberOf(file) ?? '');
    if (key) by.set(key, [...(by.get(key) ?? []), file]);
  }
  return by;
}

type Earlier = NonNullable<PaymentLine['appliedIn']>;
const earlierOf = (statement: { id: number; createdAt: Date }): Earlier => ({
  '@id': iriOf('payment_statements', statement.id),
  id: statement.id,
  createdAt: statement.createdAt.toISOString(),
});

/**
 * What these files received already, by file, amount and day (amountOnDayKey): the statements' payments that hold
 * their key, with the statement that paid each, and the payments entered by hand (the days they were entered), each
 * in order: one line of a statement for each.
 */
async function paymentsOf(tx: DbOrTx, fileIds: number[]) {
  const statements = new Map<string, Earlier[]>();
  const manual = new Map<string, Date[]>();
  if (fileIds.length === 0) return { statements, manual };
  const rows = await tx
    .select({
      dossierId: pecPayments.dossierId,
      lineKey: pecPayments.lineKey,
      source: pecPayments.source,
      amount: pecPayments.amount,
      paymentDate: pecPayments.paymentDate,
      recordedAt: pecPayments.createdAt,
      statement: { id: paymentStatements.id, createdAt: paymentStatements.createdAt },
    })
    .from(pecPayments)
    .leftJoin(paymentStatements, eq(paymentStatements.id, pecPayments.statementId))
    .where(and(inArray(pecPayments.dossierId, fileIds), isNull(pecPayments.reversedAt)))
    .orderBy(asc(pecPayments.id));
  for (const row of rows) {
    const key = amountOnDayKey(row.dossierId, row);
    if (row.lineKey && row.statement) statements.set(key, [...(statements.get(key) ?? []), earlierOf(row.statement)]);
    if (row.source === 'manual') manual.set(key, [...(manual.get(key) ?? []), row.recordedAt]);
  }
  return { statements, manual };
}

/**
 * The lines the organisation's applied statements received (copies aside), the first statement for each: by the line
 * as the insurer wrote it (receivedLineKey), and by the payment of the file it named (amountOnDayKey).
 */
async function receivedBefore(tx: DbOrTx, holdingId: number, keys: string[], fileIds: number[]) {
  const byKey = new Map<string, Earlier>();
  const byFile = new Map<string, Earlier>();
  if (keys.length === 0) return { byKey, byFile };
  const rows = await tx
    .select({
      lineKey: paymentStatementLines.lineKey,
      dossierId: paymentStatementLines.dossierId,
      amount: paymentStatementLines.amount,
      paymentDate: paymentStatementLines.paymentDate,
      statement: { id: paymentStatements.id, createdAt: paymentStatements.createdAt },
    })
    .from(paymentStatementLines)
    .innerJoin(paymentStatements, eq(paymentStatements.id, paymentStatementLines.statementId))
    .where(
      and(
        eq(paymentStatementLines.holdingId, holdingId),
        or(inArray(paymentStatementLines.lineKey, keys), fileIds.length ? inArray(paymentStatementLines.dossierId, fileIds) : undefined),
        ne(paymentStatementLines.outcome, 'already_applied'),
        eq(paymentStatements.status, 'applied'),
      ),
    )
    .orderBy(asc(paymentStatements.id), asc(paymentStatementLines.lineNumber));
  for (const row of rows) {
    if (row.lineKey && !byKey.has(row.lineKey)) byKey.set(row.lineKey, earlierOf(row.statement));
    const fileKey = row.dossierId !== null && amountOnDayKey(row.dossierId, row);
    if (fileKey && !byFile.has(fileKey)) byFile.set(fileKey, earlierOf(row.statement));
  }
  return { byKey, byFile };
}

/**
 * Each line's outcome, in the file's order. A payment counts once: a line a statement already paid on its file (the same
 * amount and day, whichever reference named the file and however the payer names itself: an overlapping re-export), a line a statement received
 * before (to be handled there, or handled: the same line as written, or the same payment of the file it names), one a
 * payment entered by hand on its file already counts (the same amount and day, each such payment for one line), and a
 * line repeated within this one are 'already applied' (a second payment of the same day is counted by hand after the
 * import: countLine). Otherwise: a new payment on a file its payments settled already is 'over-paid', one on a file
 * marked paid by hand 'already paid', a file not billed yet 'not yet billed', a payment dated before the file's invoice
 * 'before the invoice' (as 'Rattacher' refuses it), a reference that names no file of the caller's organisation
 * 'unknown', several 'ambiguous'; those last are to be handled.
 */
export async function evaluateStatement(tx: DbOrTx, principal: Principal, lines: StatementLine[], lock = false): Promise<EvaluatedLine[]> {
  const references = [...new Set(lines.map((l) => foldForKey(l.reference)))].filter(Boolean);
  const files = await filesFor(tx, principal, references, lock);
  const fileIds = files.map((f) => f.id);
  const paid = await paymentsOf(tx, fileIds);
  const received = await receivedBefore(tx, principal.holdingId!, [...new Set(lines.map(receivedLineKey))], fileIds);
  const byPec = filesBy(files, (f) => f.numPec);
  const byInvoice = filesBy(files, (f) => f.numBilling);
  const byNumero = filesBy(files, (f) => f.numeroDossier);
  const states = new Map<number, PaymentState>();
  // The lines of this statement counted so far, by the same keys: the line that counted each.
  const here = new Map<string, { line: number; applied: boolean }>();
  // How many of a file's payments of an amount and day the lines above took: each accounts for one line.
  const appliedUsed = new Map<string, number>();
  const manualUsed = new Map<string, number>();
  return lines.map((line): EvaluatedLine => {
    const ref = foldForKey(line.reference);
    // A PEC number first (unique per insurer), then an invoice number, then the Pecflow ID (PEC-2026-…, unique in the
    // organisation) that an office may have written on its invoice, each as written in either place ("SANTECLAIR
    // 972783118" names SANTECLAIR-972783118); several files for one reference match none.
    const candidates = byPec.get(ref) ?? byInvoice.get(ref) ?? byNumero.get(ref) ?? [];
    const file = candidates.length === 1 ? candidates[0] : undefined;
    const base = {
      ...line,
      difference: null,
      expected: null,
      dossier: null,
      appliedIn: null,
      warning: null,
      warningText: null,
      stateBefore: null,
      stateAfter: null,
    };
    const dossier = file ? { '@id': iriOf('pec_dossiers', file.id), id: file.id, numeroDossier: file.numeroDossier, archived: file.archived } : null;
    const known = file ? { ...base, dossier, expected: expectedAmount(file), file } : base;
    const lineKey = `received|${receivedLineKey(line)}`;
    const fileKey = file && amountOnDayKey(file.id, line);
    const copy = (outcomeLabel: string, appliedIn: Earlier | null = null, named = known) => ({
      ...named,
      outcome: 'already_applied' as const,
      outcomeLabel,
      appliedIn,
    });
    const remember = (applied: boolean) => {
      for (const key of [lineKey, fileKey]) if (key && !here.has(key)) here.set(key, { line: line.line, applied });
    };

    // A payment entered by hand on the file, the same amount on the same day: the insurer's transfer the office typed,
    // one line for each (two typed, the second as a distinct payment, are two lines of the statement).
    const typedCopy = () => {
      const typed = (fileKey && paid.manual.get(fileKey)) || [];
      const used = manualUsed.get(fileKey!) ?? 0;
      if (used >= typed.length) return undefined;
      manualUsed.set(fileKey!, used + 1);
      remember(true);
      return copy(STATEMENT_MESSAGES.alreadyTyped(line.paymentDate, typed[used]!));
    };

    // Counted already: paid on its file (each of its statement payments for one line, then those typed; a line more is
    // one repeated here), received by a statement before, or by this one higher up (a copy of money that reached no
    // file names no file: it is handled where it was received).
    const applied = fileKey ? (paid.statements.get(fileKey) ?? []) : [];
    if (fileKey && applied.length) {
      const used = appliedUsed.get(fileKey) ?? 0;
      appliedUsed.set(fileKey, used + 1);
      const earlierPayment = applied[used];
      if (earlierPayment) {
        remember(true);
        return copy(STATEMENT_MESSAGES.alreadyApplied(earlierPayment.id, earlierPayment.createdAt), earlierPayment);
      }
      const typed = typedCopy();
      if (typed) return typed;
      return copy(STATEMENT_MESSAGES.repeatedLine(here.get(fileKey)!.line));
    }
    const earlier = received.byKey.get(receivedLineKey(line)) ?? (fileKey ? received.byFile.get(fileKey) : undefined);
    if (earlier) return copy(STATEMENT_MESSAGES.alreadyReceived(earlier.id, earlier.createdAt), earlier, base);
    const typed = typedCopy();
    if (typed) return typed;
    const repeated = here.get(lineKey) ?? (fileKey ? here.get(fileKey) : undefined);
    if (repeated)
      return repeated.applied ? copy(STATEMENT_MESSAGES.repeatedLine(repeated.line)) : copy(STATEMENT_MESSAGES.repeatedReceived(repeated.line), null, base);

    const judged = ((): EvaluatedLine => {
      if (candidates.length > 1) return { ...base, outcome: 'ambiguous', outcomeLabel: PAYMENT_OUTCOME_LABELS.ambiguous };
      if (!file) return { ...base, outcome: 'unknown', outcomeLabel: PAYMENT_OUTCOME_LABELS.unknown };
      // Money for an archived file is neither counted on it unseen nor lost: the line waits, naming it, to be attached
      // once the file is restored, or set aside.
      if (!takesNewMoney(file)) return { ...known, outcome: 'archived', outcomeLabel: ARCHIVE_MESSAGES.lineOnArchived(file.numeroDossier) };
      if (file.status !== 'billed' && file.status !== 'paid') return { ...known, outcome: 'not_billed', outcomeLabel: PAYMENT_OUTCOME_LABELS.not_billed };
      if (paymentBeforeInvoiceError(line.paymentDate, invoiceDay(file)))
        return { ...known, outcome: 'before_invoice', outcomeLabel: PAYMENT_OUTCOME_LABELS.before_invoice };
      const before = states.get(file.id) ?? stateOf(file);
      // A file its payments settled takes a new payment as an over-payment ('Trop-perçu'), to be refunded. One marked
      // 'Payé' by hand, that no payment settles, is left alone: what it received is not known.
      if (isPaidByHand(before, expectedAmount(file))) return { ...known, outcome: 'already_paid', outcomeLabel: PAYMENT_OUTCOME_LABELS.already_paid };
      const payment = payFile(before, expectedAmount(file), line.amount, line.paymentDate);
      states.set(file.id, payment.next);
      // Far above what the file was to receive: applied only once the office confirms it (applyStatement).
      const warning = paymentLineWarning({ ...known, outcome: payment.outcome });
      return {
        ...known,
        outcome: payment.outcome,
        outcomeLabel: PAYMENT_OUTCOME_LABELS[payment.outcome],
        difference: payment.difference,
        warning,
        warningText: warning && STATEMENT_MESSAGES.amountFarAboveExpected(known.expected!),
        stateBefore: before,
        stateAfter: payment.next,
      };
    })();
    remember(APPLIED_OUTCOMES.includes(judged.outcome));
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
