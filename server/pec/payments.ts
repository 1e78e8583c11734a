// Payments reconciled (issue 15): reading an insurer's payment statement (CSV), matching its lines to the billed files
// of the caller's organisation, applying it all or nothing, undoing it, and a manual payment on one file. The rules
// (what is owed, how payments add up, the messages) are domain/payments.ts.
import { parse } from 'csv-parse/sync';
import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import { paymentStatementLines, paymentStatements, pecDossiers } from '../db/schema';
import { recordAudit } from '../audit/audit';
import { publish } from '../events/bus';
import { ApiError, conflict, forbidden, notFound, ValidationError, type Violation } from '../http/errors';
import { dossierEvent } from '../robot/runs';
import { pecReadScope } from './visibility';
import { assertAmountFits, NUL_MESSAGE } from '../http/body';
import { todayInFrance } from '#domain/pec';
import { iriOf } from '#domain/iri';
import {
  APPLIED_OUTCOMES,
  expectedAmount,
  PAYMENT_OUTCOME_LABELS,
  PAYMENT_OUTCOMES,
  PAYMENT_STATEMENT_LIMITS,
  payFile,
  parseStatementAmount,
  parseStatementDate,
  STATEMENT_COLUMNS,
  STATEMENT_MESSAGES,
  statementColumnOf,
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
  if (missing.length) throw fileError(STATEMENT_MESSAGES.missingColumns(missing.map((c) => STATEMENT_COLUMNS[c].label)));

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
    else lines.push({ line: info.lines, paymentDate: paymentDate!, payer, reference, amount: amount!, label: cell('label').slice(0, 500) || null });
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

const normalRef = (reference: string) => reference.trim().toUpperCase();

export interface EvaluatedLine extends StatementLine {
  outcome: PaymentOutcome;
  outcomeLabel: string;
  /** Partial: the amount still due; over-paid: the excess. */
  difference: number | null;
  /** What the insurer owes for the file (its complementary part). */
  expected: number | null;
  dossier: { '@id': string; id: number; numeroDossier: string } | null;
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

/**
 * Each line's outcome, in the file's order: payments on one file add up line after line; a file paid before the
 * statement is 'already paid', a file not billed yet 'not yet billed', a reference that names no file of the caller's
 * organisation (or several) 'unknown'.
 */
export async function evaluateStatement(tx: DbOrTx, principal: Principal, lines: StatementLine[], lock = false): Promise<EvaluatedLine[]> {
  const references = [...new Set(lines.map((l) => normalRef(l.reference)))];
  const files = await filesFor(tx, principal, references, lock);
  const byPec = new Map<string, PaymentFile[]>();
  const byInvoice = new Map<string, PaymentFile[]>();
  for (const file of files) {
    if (file.numPec) byPec.set(normalRef(file.numPec), [...(byPec.get(normalRef(file.numPec)) ?? []), file]);
    if (file.numBilling) byInvoice.set(normalRef(file.numBilling), [...(byInvoice.get(normalRef(file.numBilling)) ?? []), file]);
  }
  const states = new Map<number, PaymentState>();
  return lines.map((line) => {
    const ref = normalRef(line.reference);
    // A PEC number first (unique per insurer), then an invoice number; several files for one reference match none.
    const candidates = byPec.get(ref) ?? byInvoice.get(ref) ?? [];
    const file = candidates.length === 1 ? candidates[0] : undefined;
    const base = { ...line, difference: null, expected: null, dossier: null, stateBefore: null, stateAfter: null };
    if (!file) return { ...base, outcome: 'unknown', outcomeLabel: PAYMENT_OUTCOME_LABELS.unknown };
    const dossier = { '@id': iriOf('pec_dossiers', file.id), id: file.id, numeroDossier: file.numeroDossier };
    const expected = expectedAmount(file);
    const known = { ...base, dossier, expected, file };
    if (file.status === 'paid') return { ...known, outcome: 'already_paid', outcomeLabel: PAYMENT_OUTCOME_LABELS.already_paid };
    if (file.status !== 'billed') return { ...known, outcome: 'not_billed', outcomeLabel: PAYMENT_OUTCOME_LABELS.not_billed };
    const before = states.get(file.id) ?? stateOf(file);
    const paid = payFile(before, expected, line.amount, line.paymentDate);
    states.set(file.id, paid.next);
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
export const presentLine = ({ file: _file, stateBefore: _b, stateAfter: _a, ...line }: EvaluatedLine) => ({ '@type': 'PaymentStatementLine', ...line });

export function requireOrganisation(principal: Principal) {
  if (!principal.holdingId) throw new ApiError(422, STATEMENT_MESSAGES.noOrganisation);
}

// ---------- applying, undoing ----------

const stateColumns = (state: PaymentState) => ({
  status: state.status,
  montantPaye: state.montantPaye,
  datePaiement: state.datePaiement,
  paiementPartiel: state.paiementPartiel,
  montantDu: state.montantDu,
  updatedAt: new Date(),
});

const stateChanges = (before: PaymentState, after: PaymentState) =>
  Object.fromEntries(
    (Object.keys(before) as (keyof PaymentState)[])
      .filter((key) => (before[key] ?? null) !== (after[key] ?? null))
      .map((key) => [key, { before: before[key] ?? null, after: after[key] ?? null }]),
  );

/** Writes a file's new payment state with its audit entry and live event (in the caller's transaction). */
async function writeState(
  tx: DbOrTx,
  principal: Principal,
  file: PaymentFile,
  before: PaymentState,
  after: PaymentState,
  action: string,
  extra: Record<string, unknown>,
) {
  assertAmountFits(after.montantPaye, 'montant', `le montant payé du dossier ${file.numeroDossier}`);
  await tx.update(pecDossiers).set(stateColumns(after)).where(eq(pecDossiers.id, file.id));
  await recordAudit(tx, principal, {
    action: `pec_dossier.${action}`,
    entity: 'pec_dossiers',
    entityId: file.id,
    holdingId: file.holdingId,
    changes: { ...stateChanges(before, after), ...extra },
  });
  await publish(tx, dossierEvent('dossier.updated', file, after.status));
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

/** Applies a statement all or nothing; returns its id. */
export async function applyStatement(db: DbOrTx, principal: Principal, lines: StatementLine[], fileName: string | null): Promise<number> {
  requireOrganisation(principal);
  return db.transaction(async (tx) => {
    const evaluated = await evaluateStatement(tx, principal, lines, true);
    const totals = statementTotals(evaluated);
    if (totals.applied === 0) throw new ApiError(422, STATEMENT_MESSAGES.nothingToApply);
    const payers = [...new Set(evaluated.map((l) => l.payer))];
    const [statement] = await tx
      .insert(paymentStatements)
      .values({
        holdingId: principal.holdingId!,
        payer: payers.join(', ').slice(0, 200),
        fileName: fileName?.slice(0, 200) ?? null,
        status: 'applied',
        linesCount: totals.lines,
        totalAmount: totals.amount,
        appliedAmount: totals.applied,
        createdById: principal.id,
      })
      .returning({ id: paymentStatements.id });
    const id = statement!.id;
    await tx.insert(paymentStatementLines).values(
      evaluated.map((l) => ({
        statementId: id,
        holdingId: principal.holdingId!,
        lineNumber: l.line,
        paymentDate: l.paymentDate,
        payer: l.payer,
        reference: l.reference,
        amount: l.amount,
        label: l.label,
        dossierId: l.dossier?.id ?? null,
        outcome: l.outcome,
        difference: l.difference,
        stateBefore: l.stateBefore,
        stateAfter: l.stateAfter,
      })),
    );
    const files = new Map(evaluated.filter((l) => l.file).map((l) => [l.file!.id, l.file!]));
    for (const [fileId, { before, after }] of fileStates(evaluated.map((l) => ({ dossierId: l.dossier?.id ?? null, ...l })))) {
      await writeState(tx, principal, files.get(fileId)!, before, after, 'payment', { paymentStatement: { after: iriOf('payment_statements', id) } });
    }
    await recordAudit(tx, principal, {
      action: 'payment_statement.apply',
      entity: 'payment_statements',
      entityId: id,
      holdingId: principal.holdingId,
      changes: { lines: totals.lines, amount: totals.amount, applied: totals.applied, files: files.size },
    });
    return id;
  });
}

/**
 * Puts every file a statement changed back to its state before it, or refuses (409) when one of them changed since
 * (a later statement, a manual payment, a status changed by hand): an undo never overwrites a later change.
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
    if (changed.length) throw conflict(STATEMENT_MESSAGES.undoConflict(changed.map((f) => f.numeroDossier)));
    for (const file of files) {
      await writeState(tx, principal, file, stateOf(file), states.get(file.id)!.before, 'payment_undo', {
        paymentStatement: { before: iriOf('payment_statements', id) },
      });
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

/** 'Enregistrer un paiement' on one billed file (date, amount, optional label); 404 outside the caller's files. */
export async function recordManualPayment(
  db: DbOrTx,
  principal: Principal,
  id: number,
  payment: { datePaiement: string; montant: number; libelle: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [file] = await tx
      .select(paymentColumns)
      .from(pecDossiers)
      .where(and(eq(pecDossiers.id, id), pecReadScope(principal)))
      .for('update');
    if (!file) throw notFound('Demande de PEC introuvable.');
    if (file.status !== 'billed') throw conflict(STATEMENT_MESSAGES.notBillable);
    const before = stateOf(file);
    const paid = payFile(before, expectedAmount(file), payment.montant, payment.datePaiement);
    await writeState(tx, principal, file, before, paid.next, 'payment', {
      paiement: { after: { date: payment.datePaiement, montant: payment.montant, libelle: payment.libelle, resultat: paid.outcome } },
    });
  });
}
