// Payments reconciled (issues 15 and 25): reading an insurer's payment statement (CSV), matching its lines to the
// billed files of the caller's organisation, applying it all or nothing and once (its fingerprint, each line's key),
// undoing it, a manual payment on one file and its cancellation. Every payment is a row of the file's payment history
// (pec_payments), never deleted; the file's stored payment state is derived from that history in one place
// (syncPaymentState, with the rule of domain/payments.ts).
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { paymentStatementLines, paymentStatements, pecDossiers, pecPayments } from '../db/schema';
import { recordAudit } from '../audit/audit';
import { publish } from '../events/bus';
import { ApiError, conflict, forbidden, invalidField, notFound, ValidationError, type Violation } from '../http/errors';
import { dossierEvent } from './events';
import { pecReadScope } from '../auth/fileVisibility';
import { assertAmountFits, NUL_MESSAGE } from '../http/body';
import { invoiceDay, paymentBeforeInvoiceError, todayInFrance } from '#domain/pec';
import { iriOf } from '#domain/iri';
import {
  APPLIED_OUTCOMES,
  expectedAmount,
  isPaidByHand,
  normalReference,
  PAYMENT_CANCEL_MESSAGES,
  PAYMENT_OUTCOME_LABELS,
  PAYMENT_OUTCOMES,
  PAYMENT_STATEMENT_LIMITS,
  payFile,
  parseStatementAmount,
  parseStatementDate,
  paymentStateOf,
  STATEMENT_COLUMNS,
  STATEMENT_MESSAGES,
  statementColumnOf,
  statementLineKey,
  type PaymentOutcome,
  type PaymentState,
  type StatementColumn,
} from '#domain/payments';

// ---------- reading the file ----------

export interface StatementLine {
  /** The line of the file (the header is line 1). */
  line: number;
  paymentDate: string;
  payer: string;
  reference: string;
  amount: number;
  label: string | null;
  /** The statement's own number and period, when the file carries them on its lines. */
  statementNumber: string | null;
  period: string | null;
}

/**
 * The text of the file: UTF-8 when its bytes are valid UTF-8, otherwise Windows-1252 (what French Excel and most
 * portals write); a byte-order mark is dropped by the parser.
 */
export function decodeStatement(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const fileError = (message: string) => new ValidationError([{ propertyPath: 'fichier', message }]);

/** The lines of a statement, or a 422 naming every line and column in error (nothing is read half). */
export function readStatement(bytes: Uint8Array): StatementLine[] {
  const text = decodeStatement(bytes).replace(/^\uFEFF/, '');
  if (!text.trim()) throw fileError(STATEMENT_MESSAGES.empty);
  // The separator of the header line: portals write semicolons (French Excel) or commas.
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (header.match(/;/g)?.length ?? 0) >= (header.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: true, info: true }) as never;
  } catch (error) {
    // csv-parse explains in English; the user needs the line and what to check.
    throw fileError(STATEMENT_MESSAGES.unreadable((error as { lines?: number }).lines));
  }
  const [head, ...data] = records;
  if (!head || data.length === 0) throw fileError(STATEMENT_MESSAGES.noLines);
  if (data.length > PAYMENT_STATEMENT_LIMITS.maxLines) throw fileError(STATEMENT_MESSAGES.tooManyLines);

  const columns = new Map<StatementColumn, number>();
  head.record.forEach((name, index) => {
    const column = statementColumnOf(name);
    if (column && !columns.has(column)) columns.set(column, index);
  });
  const missing = (Object.keys(STATEMENT_COLUMNS) as StatementColumn[]).filter((c) => STATEMENT_COLUMNS[c].required && !columns.has(c));
  if (missing.length) throw fileError(STATEMENT_MESSAGES.missingColumns(missing));

  const errors: { line: number; messages: string[] }[] = [];
  const lines: StatementLine[] = [];
  const today = todayInFrance();
  for (const { record, info } of data) {
    const cell = (column: StatementColumn) => {
      const index = columns.get(column);
      return index === undefined ? '' : (record[index] ?? '').trim();
    };
    // PostgreSQL text cannot hold a NUL character: the same refusal as for JSON bodies, on the line and column.
    const withNul = [...columns.keys()].filter((column) => cell(column).includes('\u0000'));
    if (withNul.length) {
      errors.push({ line: info.lines, messages: withNul.map((column) => STATEMENT_MESSAGES.cell(column, NUL_MESSAGE)) });
      continue;
    }
    const messages: string[] = [];
    const paymentDate = parseStatementDate(cell('paymentDate'));
    if (!paymentDate) messages.push(STATEMENT_MESSAGES.cell('paymentDate', STATEMENT_MESSAGES.date(cell('paymentDate'))));
    // A payment is received: it cannot be dated after today.
    else if (paymentDate > today) messages.push(STATEMENT_MESSAGES.cell('paymentDate', STATEMENT_MESSAGES.futureDate(cell('paymentDate'))));
    const payer = cell('payer').slice(0, 200);
    if (!payer) messages.push(STATEMENT_MESSAGES.cell('payer', STATEMENT_MESSAGES.required));
    const reference = cell('reference').slice(0, 100);
    if (!reference) messages.push(STATEMENT_MESSAGES.cell('reference', STATEMENT_MESSAGES.required));
    const amount = parseStatementAmount(cell('amount'));
    if (amount === undefined) messages.push(STATEMENT_MESSAGES.cell('amount', STATEMENT_MESSAGES.amount(cell('amount'))));
    if (messages.length) errors.push({ line: info.lines, messages });
    else
      lines.push({
        line: info.lines,
        paymentDate: paymentDate!,
        payer,
        reference,
        amount: amount!,
        label: cell('label').slice(0, 500) || null,
        statementNumber: cell('statementNumber').slice(0, 100) || null,
        period: cell('period').slice(0, 100) || null,
      });
  }
  if (errors.length) {
    const violations: Violation[] = errors.flatMap((e) => e.messages.map((message) => ({ propertyPath: `ligne ${e.line}`, message })));
    throw new ApiError(
      422,
      `Relevé refusé : ${errors.length} ligne${errors.length > 1 ? 's' : ''} en erreur, rien n’a été enregistré.\n${errors.map((e) => `Ligne ${e.line} : ${e.messages.join(' ; ')}`).join('\n')}`,
      { '@type': 'ConstraintViolationList', violations, errors },
    );
  }
  assertAmountFits(statementTotals(lines.map((l) => ({ ...l, outcome: 'unknown' }))).amount, 'fichier', 'le total du relevé');
  return lines;
}

// ---------- what makes it the same statement ----------

/** A statement's identity: the fingerprint of its content, its payer, and its own number and period when it has them. */
export interface StatementIdentity {
  contentHash: string;
  payer: string;
  reference: string | null;
  period: string | null;
}

const joined = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => !!v))].join(', ').slice(0, 200);

/**
 * The fingerprint is sha256 of its lines' keys (statementLineKey) in byte order, one per line: the same payments make
 * the same statement whatever the file's encoding, separator, headers, line order or labels. Migration 0019 computes
 * the same in SQL for the statements applied before it.
 */
export function statementIdentity(lines: StatementLine[]): StatementIdentity {
  const keys = lines.map(statementLineKey).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return {
    contentHash: createHash('sha256').update(keys.join('\n')).digest('hex'),
    payer: joined(lines.map((l) => l.payer)),
    reference: joined(lines.map((l) => l.statementNumber)) || null,
    period: joined(lines.map((l) => l.period)) || null,
  };
}

/** The statement of the organisation applied with the same content (or the same payer's same number), if any. */
export async function appliedTwin(tx: DbOrTx, holdingId: number, identity: StatementIdentity) {
  const [twin] = await tx
    .select({ id: paymentStatements.id, createdAt: paymentStatements.createdAt, linesCount: paymentStatements.linesCount })
    .from(paymentStatements)
    .where(
      and(
        eq(paymentStatements.holdingId, holdingId),
        eq(paymentStatements.status, 'applied'),
        or(
          eq(paymentStatements.contentHash, identity.contentHash),
          identity.reference ? and(eq(paymentStatements.payer, identity.payer), eq(paymentStatements.reference, identity.reference)) : undefined,
        ),
      ),
    )
    .orderBy(asc(paymentStatements.createdAt))
    .limit(1);
  return twin && { '@id': iriOf('payment_statements', twin.id), ...twin, message: STATEMENT_MESSAGES.alreadyImported(twin.createdAt, twin.linesCount) };
}

// ---------- matching ----------

const paymentColumns = {
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
type PaymentFile = { [K in keyof typeof paymentColumns]: (typeof pecDossiers.$inferSelect)[K] };

export const stateOf = (file: PaymentFile): PaymentState => ({
  status: file.status,
  montantPaye: file.montantPaye,
  datePaiement: file.datePaiement,
  paiementPartiel: file.paiementPartiel,
  montantDu: file.montantDu,
});

const sameState = (a: PaymentState, b: PaymentState) =>
  a.status === b.status &&
  (a.montantPaye ?? null) === (b.montantPaye ?? null) &&
  (a.datePaiement ?? null) === (b.datePaiement ?? null) &&
  a.paiementPartiel === b.paiementPartiel &&
  (a.montantDu ?? null) === (b.montantDu ?? null);

/** The earlier statement a line was applied by (already applied). */
interface AppliedIn {
  '@id': string;
  id: number;
  createdAt: string;
}

export interface EvaluatedLine extends StatementLine {
  outcome: PaymentOutcome;
  outcomeLabel: string;
  /** Partial: the amount still due; over-paid: the excess. */
  difference: number | null;
  /** What the insurer owes for the file (its complementary part). */
  expected: number | null;
  dossier: { '@id': string; id: number; numeroDossier: string } | null;
  /** Already applied: the statement that applied it (null when it is repeated within this statement). */
  appliedIn: AppliedIn | null;
  file?: PaymentFile;
  stateBefore: PaymentState | null;
  stateAfter: PaymentState | null;
}

/** The organisation's files the caller sees, named by PEC number or invoice number; locked when applying. */
async function filesFor(tx: DbOrTx, principal: Principal, references: string[], lock: boolean): Promise<PaymentFile[]> {
  if (references.length === 0) return [];
  const query = tx
    .select(paymentColumns)
    .from(pecDossiers)
    .where(
      and(
        eq(pecDossiers.holdingId, principal.holdingId!),
        pecReadScope(principal),
        or(inArray(sql`upper(${pecDossiers.numPec})`, references), inArray(sql`upper(${pecDossiers.numBilling})`, references)),
      ),
    )
    .orderBy(asc(pecDossiers.id));
  return lock ? query.for('update') : query;
}

/** The statement lines already paid on these files (their keys, by file), with the statement that paid each. */
async function appliedKeys(tx: DbOrTx, fileIds: number[]): Promise<Map<string, AppliedIn>> {
  const keys = new Map<string, AppliedIn>();
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
 * Each line's outcome, in the file's order: payments on one file add up line after line; a line a statement already
 * paid on its file (the same payer, reference, amount and date: an overlapping re-export), or repeated within this one,
 * is 'already applied' and counts once; a new payment on a file its payments settled already is 'over-paid', one on a
 * file marked paid by hand 'already paid', a file not billed yet 'not yet billed', a reference that names no file of the caller's organisation (or several) 'unknown'.
 */
export async function evaluateStatement(tx: DbOrTx, principal: Principal, lines: StatementLine[], lock = false): Promise<EvaluatedLine[]> {
  const references = [...new Set(lines.map((l) => normalReference(l.reference)))];
  const files = await filesFor(tx, principal, references, lock);
  const paidLines = await appliedKeys(
    tx,
    files.map((f) => f.id),
  );
  const byPec = new Map<string, PaymentFile[]>();
  const byInvoice = new Map<string, PaymentFile[]>();
  for (const file of files) {
    if (file.numPec) byPec.set(normalReference(file.numPec), [...(byPec.get(normalReference(file.numPec)) ?? []), file]);
    if (file.numBilling) byInvoice.set(normalReference(file.numBilling), [...(byInvoice.get(normalReference(file.numBilling)) ?? []), file]);
  }
  const states = new Map<number, PaymentState>();
  const appliedHere = new Map<string, number>();
  return lines.map((line) => {
    const ref = normalReference(line.reference);
    // A PEC number first (unique per insurer), then an invoice number; several files for one reference match none.
    const candidates = byPec.get(ref) ?? byInvoice.get(ref) ?? [];
    const file = candidates.length === 1 ? candidates[0] : undefined;
    const base = { ...line, difference: null, expected: null, dossier: null, appliedIn: null, stateBefore: null, stateAfter: null };
    if (!file) return { ...base, outcome: 'unknown', outcomeLabel: PAYMENT_OUTCOME_LABELS.unknown };
    const dossier = { '@id': iriOf('pec_dossiers', file.id), id: file.id, numeroDossier: file.numeroDossier };
    const expected = expectedAmount(file);
    const known = { ...base, dossier, expected, file };
    const key = `${file.id}|${statementLineKey(line)}`;
    const earlier = paidLines.get(key);
    if (earlier)
      return { ...known, outcome: 'already_applied', outcomeLabel: STATEMENT_MESSAGES.alreadyApplied(earlier.id, earlier.createdAt), appliedIn: earlier };
    const repeated = appliedHere.get(key);
    if (repeated !== undefined) return { ...known, outcome: 'already_applied', outcomeLabel: STATEMENT_MESSAGES.repeatedLine(repeated) };
    if (file.status !== 'billed' && file.status !== 'paid') return { ...known, outcome: 'not_billed', outcomeLabel: PAYMENT_OUTCOME_LABELS.not_billed };
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
  });
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** Count and amount per outcome, the total of the file and the part that goes to files. */
export function statementTotals(lines: Pick<EvaluatedLine, 'outcome' | 'amount'>[]) {
  const byOutcome = Object.fromEntries(PAYMENT_OUTCOMES.map((o) => [o, { count: 0, amount: 0 }])) as Record<PaymentOutcome, { count: number; amount: number }>;
  for (const line of lines) {
    byOutcome[line.outcome].count++;
    byOutcome[line.outcome].amount = cents(byOutcome[line.outcome].amount + line.amount);
  }
  const amount = cents(lines.reduce((sum, l) => sum + l.amount, 0));
  const applied = cents(lines.filter((l) => APPLIED_OUTCOMES.includes(l.outcome)).reduce((sum, l) => sum + l.amount, 0));
  return { lines: lines.length, amount, applied, byOutcome };
}

/** A line as the API shows it (preview and stored statement alike). */
export const presentLine = ({ file: _file, stateBefore: _b, stateAfter: _a, statementNumber: _n, period: _p, ...line }: EvaluatedLine) => ({
  '@type': 'PaymentStatementLine',
  ...line,
});

export function requireOrganisation(principal: Principal) {
  if (!principal.holdingId) throw new ApiError(422, STATEMENT_MESSAGES.noOrganisation);
}

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
async function syncPaymentState(tx: DbOrTx, principal: Principal, file: PaymentFile, action: string, extra: Record<string, unknown>): Promise<PaymentState> {
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

/** A file's row, locked for its payment (404 outside the caller's files). */
async function lockFile(tx: DbOrTx, principal: Principal, id: number): Promise<PaymentFile> {
  const [file] = await tx
    .select(paymentColumns)
    .from(pecDossiers)
    .where(and(eq(pecDossiers.id, id), pecReadScope(principal)))
    .for('update');
  if (!file) throw notFound('Demande de PEC introuvable.');
  return file;
}

// ---------- applying, undoing ----------

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

const uniqueViolation = (error: unknown): string | undefined => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  if ((e?.code ?? e?.cause?.code) !== '23505') return undefined;
  return e?.constraint ?? e?.cause?.constraint ?? String((error as Error)?.message ?? '');
};

/**
 * Applies a statement all or nothing, once; returns its id. Refused (409) while the same statement is applied: checked
 * after the files are locked (a second import sent at the same moment waits for the first, then finds it), and by the
 * database's unique indexes whatever the timing.
 */
export async function applyStatement(db: DbOrTx, principal: Principal, lines: StatementLine[], fileName: string | null): Promise<number> {
  requireOrganisation(principal);
  const holdingId = principal.holdingId!;
  const identity = statementIdentity(lines);
  try {
    return await db.transaction(async (tx) => {
      const evaluated = await evaluateStatement(tx, principal, lines, true);
      const twin = await appliedTwin(tx, holdingId, identity);
      if (twin) throw conflict(`${twin.message}. ${STATEMENT_MESSAGES.alreadyImportedApply}`);
      const totals = statementTotals(evaluated);
      if (totals.applied === 0) throw new ApiError(422, STATEMENT_MESSAGES.nothingToApply);
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
                lineKey: statementLineKey(l),
                createdById: principal.id,
              },
            ]
          : [],
      );
      await tx.insert(pecPayments).values(payments);
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
export async function undoStatement(db: DbOrTx, principal: Principal, id: number, scope: ReturnType<typeof pecReadScope> | undefined): Promise<void> {
  await db.transaction(async (tx) => {
    const [statement] = await tx
      .select({ id: paymentStatements.id, status: paymentStatements.status, holdingId: paymentStatements.holdingId })
      .from(paymentStatements)
      .where(and(eq(paymentStatements.id, id), scope))
      .for('update');
    if (!statement) throw notFound('Relevé de paiement introuvable.');
    if (statement.status === 'undone') throw conflict(STATEMENT_MESSAGES.alreadyUndone);
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
      .orderBy(asc(paymentStatementLines.lineNumber));
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
      const later = await tx
        .selectDistinct({ id: paymentStatements.id, createdAt: paymentStatements.createdAt, reference: paymentStatements.reference })
        .from(pecPayments)
        .innerJoin(paymentStatements, eq(paymentStatements.id, pecPayments.statementId))
        .where(
          and(
            inArray(
              pecPayments.dossierId,
              changed.map((f) => f.id),
            ),
            isNull(pecPayments.reversedAt),
            gt(pecPayments.statementId, id),
          ),
        )
        .orderBy(asc(paymentStatements.id));
      throw conflict(
        STATEMENT_MESSAGES.undoConflict(
          changed.map((f) => f.numeroDossier),
          later,
        ),
      );
    }
    await tx
      .update(pecPayments)
      .set({ reversedAt: new Date(), reversedById: principal.id, reversalReason: PAYMENT_CANCEL_MESSAGES.statementUndone })
      .where(and(eq(pecPayments.statementId, id), isNull(pecPayments.reversedAt)));
    for (const file of files) {
      await syncPaymentState(tx, principal, file, 'payment_undo', { paymentStatement: { before: iriOf('payment_statements', id) } });
    }
    await tx
      .update(paymentStatements)
      .set({ status: 'undone', undoneAt: new Date(), undoneById: principal.id, updatedAt: new Date() })
      .where(eq(paymentStatements.id, id));
    await recordAudit(tx, principal, {
      action: 'payment_statement.undo',
      entity: 'payment_statements',
      entityId: id,
      holdingId: statement.holdingId,
      changes: { status: { before: 'applied', after: 'undone' }, files: files.length },
    });
  });
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
 * Cancels a payment entered by hand, with its reason: the row stays in the history, reversed, and the file's state is
 * derived again (the amount due comes back). Refused (409) for a statement's line (its statement is undone instead),
 * a payment already cancelled, or one followed by a statement on the same file (undo that statement first, as an undo
 * is refused once its files changed). Returns the file's id.
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
