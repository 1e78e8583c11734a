// An insurer's payment statement (CSV) read into lines, and what makes two statements the same one (issues 15 and 25):
// its fingerprint and its own reference.
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { fileTypeFromBuffer } from 'file-type';
import { and, asc, eq, isNotNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { paymentStatements } from '../db/schema';
import { ApiError, ValidationError, type Violation } from '../http/errors';
import { assertAmountFits, NUL_MESSAGE } from '../http/body';
import { compactPrice, PRICE_MAX, todayInFrance } from '#domain/pec';
import { iriOf } from '#domain/iri';
import type { ImportLineErrors } from '#domain/pecAnswers';
import {
  APPLIED_OUTCOMES,
  foldForKey,
  isPendingLine,
  PAYMENT_OUTCOMES,
  PAYMENT_STATEMENT_LIMITS,
  parseStatementAmount,
  parseStatementDate,
  STATEMENT_COLUMNS,
  receivedLineKey,
  STATEMENT_MESSAGES,
  statementColumnOf,
  type PaymentLine,
  type PaymentOutcome,
  type PaymentTotals,
  type StatementColumn,
  type StatementLine,
} from '#domain/payments';

// ---------- reading the file ----------

/** UTF-16 by its byte-order mark (Excel's « Texte Unicode », some portals), or undefined. */
function utf16Of(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The text of the file: UTF-16 when it starts with its byte-order mark, UTF-8 when its bytes are valid UTF-8, otherwise
 * Windows-1252 (what French Excel and most portals write); a byte-order mark is dropped.
 */
export function decodeStatement(bytes: Uint8Array): string {
  const utf16 = utf16Of(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const fileError = (message: string) => new ValidationError([{ propertyPath: 'fichier', message }]);

/**
 * A control character, but the tab and the line breaks a quoted cell may hold (csv-parse keeps them): a portal writes
 * none in a payment (NUL is refused before, with the JSON bodies' message).
 */
const controlCharacterIn = (value: string) =>
  [...value].find((character) => {
    const code = character.codePointAt(0)!;
    return (code < 0x20 && !['\t', '\n', '\r'].includes(character)) || (code >= 0x7f && code <= 0x9f);
  });

/** An amount parseStatementAmount refuses only for its size: a number, written alike, beyond what a file can hold. */
function beyondLimit(text: string): boolean {
  const compact = compactPrice(text);
  const value = Number((compact.includes(',') && compact.includes('.') ? compact.replace(/\./g, '') : compact).replace(',', '.'));
  return /^\d+([.,]\d+)*$/.test(compact) && Number.isFinite(value) && value > PRICE_MAX;
}

/** The lines of a statement, or a 422 naming every line and column in error (nothing is read half). */
export async function readStatement(bytes: Uint8Array): Promise<StatementLine[]> {
  // A UTF-16 text's bytes look like no text to the sniffer (its two first bytes are an MPEG audio frame's).
  const binary = utf16Of(bytes) ? undefined : await fileTypeFromBuffer(bytes);
  if (binary) throw fileError(STATEMENT_MESSAGES.notCsv(binary.ext));
  const text = decodeStatement(bytes).replace(/^\uFEFF/, '');
  if (!text.trim()) throw fileError(STATEMENT_MESSAGES.empty);
  // The separator of the header line: portals write semicolons (French Excel) or commas, Excel's « Texte Unicode » tabs;
  // the most used one, a tie going to the first of these.
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const uses = (separator: string) => header.split(separator).length - 1;
  const delimiter = [';', ',', '\t'].reduce((best, separator) => (uses(separator) > uses(best) ? separator : best));
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

  const errors: ImportLineErrors[] = [];
  const lines: StatementLine[] = [];
  const today = todayInFrance();
  for (const { record, info } of data) {
    const cell = (column: StatementColumn) => {
      const index = columns.get(column);
      return index === undefined ? '' : (record[index] ?? '').trim();
    };
    // PostgreSQL text cannot hold a NUL character: the same refusal as for JSON bodies, on the line and column; nor is
    // any other control character a payment's text.
    const refused = [...columns.keys()].flatMap((column) => {
      const value = cell(column);
      const control = controlCharacterIn(value);
      if (value.includes('\u0000')) return [STATEMENT_MESSAGES.cell(column, NUL_MESSAGE)];
      return control ? [STATEMENT_MESSAGES.cell(column, STATEMENT_MESSAGES.controlCharacter(control))] : [];
    });
    if (refused.length) {
      errors.push({ line: info.lines, messages: refused });
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
    if (amount === undefined)
      messages.push(
        STATEMENT_MESSAGES.cell(
          'amount',
          beyondLimit(cell('amount')) ? STATEMENT_MESSAGES.amountTooLarge(cell('amount')) : STATEMENT_MESSAGES.amount(cell('amount')),
        ),
      );
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
 * The fingerprint is sha256 of its lines' keys (receivedLineKey, each kept with its line) in byte order, one per line:
 * the same payments make the same statement whatever the file's encoding, separator, headers, line order or labels,
 * and however the insurer writes its name and the references ("SANTÉCLAIR" and "Santeclair"). Migration 0037 computes
 * the same in SQL from the stored lines' keys for the statements applied before it.
 */
export function statementIdentity(lines: StatementLine[]): StatementIdentity {
  const keys = lines.map(receivedLineKey).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return {
    contentHash: createHash('sha256').update(keys.join('\n')).digest('hex'),
    payer: joined(lines.map((l) => l.payer)),
    reference: joined(lines.map((l) => l.statementNumber)) || null,
    period: joined(lines.map((l) => l.period)) || null,
  };
}

/**
 * The statement of the organisation applied with the same content, or the same payer's same number as the insurer
 * writes them in either file ("Santéclair" and "SANTECLAIR", "2026-48" and "2026 48": foldForKey), if any.
 */
export async function appliedTwin(tx: DbOrTx, holdingId: number, identity: StatementIdentity) {
  const sameNumber = (row: { payer: string | null; reference: string | null }) =>
    !!identity.reference &&
    !!row.reference &&
    foldForKey(row.reference) === foldForKey(identity.reference) &&
    foldForKey(row.payer ?? '') === foldForKey(identity.payer);
  // An organisation applies a few hundred numbered statements a year: they are compared here by the one fold rather
  // than by a second copy of it in SQL.
  const candidates = await tx
    .select({
      id: paymentStatements.id,
      createdAt: paymentStatements.createdAt,
      linesCount: paymentStatements.linesCount,
      contentHash: paymentStatements.contentHash,
      payer: paymentStatements.payer,
      reference: paymentStatements.reference,
    })
    .from(paymentStatements)
    .where(
      and(
        eq(paymentStatements.holdingId, holdingId),
        eq(paymentStatements.status, 'applied'),
        or(eq(paymentStatements.contentHash, identity.contentHash), identity.reference ? isNotNull(paymentStatements.reference) : undefined),
      ),
    )
    .orderBy(asc(paymentStatements.createdAt));
  const twin = candidates.find((row) => row.contentHash === identity.contentHash || sameNumber(row));
  return (
    twin && {
      '@id': iriOf('payment_statements', twin.id),
      id: twin.id,
      createdAt: twin.createdAt,
      linesCount: twin.linesCount,
      message: STATEMENT_MESSAGES.alreadyImported(twin.createdAt, twin.linesCount),
    }
  );
}

const cents = (value: number) => Math.round(value * 100) / 100;

type TotalledLine = { outcome: PaymentOutcome; amount: number; resolution?: string | null };

const countAndAmount = (lines: TotalledLine[]) => ({ count: lines.length, amount: cents(lines.reduce((sum, l) => sum + l.amount, 0)) });

/**
 * Count and amount per outcome, the total of the file and the part that goes to files, the lines to be handled and
 * those set aside ('Classée'): a line set aside is counted there, no longer under the outcome that left it to be handled.
 */
export function statementTotals(lines: TotalledLine[]): PaymentTotals {
  const dismissed = lines.filter((l) => l.resolution === 'dismissed');
  const byOutcome = Object.fromEntries(
    PAYMENT_OUTCOMES.map((o) => [o, countAndAmount(lines.filter((l) => l.outcome === o && l.resolution !== 'dismissed'))]),
  ) as Record<PaymentOutcome, { count: number; amount: number }>;
  return {
    lines: lines.length,
    amount: countAndAmount(lines).amount,
    applied: countAndAmount(lines.filter((l) => APPLIED_OUTCOMES.includes(l.outcome))).amount,
    pending: countAndAmount(lines.filter((l) => isPendingLine(l))),
    dismissed: countAndAmount(dismissed),
    byOutcome,
  };
}

/**
 * What a preview said each line would do (its outcome, the file it pays, the difference, the statement it copies), as a
 * short hash: the apply that carries it (`apercu`) is refused when the statement would now do something else (a payment
 * entered by hand, another statement applied meanwhile), rather than applying what nobody saw.
 */
export function previewFingerprint(lines: Pick<PaymentLine, 'line' | 'outcome' | 'dossier' | 'difference' | 'appliedIn'>[]): string {
  const outcomes = lines.map((l) => [l.line, l.outcome, l.dossier?.id ?? '', l.difference ?? '', l.appliedIn?.id ?? ''].join('|'));
  return createHash('sha256').update(outcomes.join('\n')).digest('hex').slice(0, 32);
}
