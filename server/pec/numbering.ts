// Readable file numbers, unique per organisation: PEC-2026-000123 (one counter per organisation and year).
import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { pecCounters, pecDossiers } from '../db/schema';
import { invalidField } from '../http/errors';
import { PEC_MESSAGES, todayInFrance } from '#domain/pec';
import { foldForKey } from '#domain/payments';

export const formatNumero = (year: number, value: number) => `PEC-${year}-${String(value).padStart(6, '0')}`;

export function parisYear(now = new Date()): number {
  return Number(todayInFrance(now).slice(0, 4));
}

/**
 * The next free number of the organisation (skipping numbers typed by hand that happen to match). Each try takes the
 * counter's next value and checks whether that number is taken in one statement: one round trip per created file.
 */
export async function nextNumero(tx: DbOrTx, holdingId: number, now = new Date()): Promise<string> {
  const year = parisYear(now);
  for (;;) {
    // The number as formatNumero writes it: six digits at least (lpad alone would cut a seventh).
    const result = await tx.execute(sql`
      with next as (
        insert into ${pecCounters} (holding_id, year, last_value) values (${holdingId}, ${year}, 1)
        on conflict (holding_id, year) do update set last_value = ${pecCounters}.last_value + 1
        returning last_value)
      select last_value as value, exists(select 1 from ${pecDossiers} where holding_id = ${holdingId}
        and numero_dossier = 'PEC-' || ${year}::int || '-' || case when last_value < 100000 then lpad(last_value::text, 6, '0') else last_value::text end) as taken
      from next`);
    const [row] = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as { value: number; taken: boolean }[];
    if (!row!.taken) return formatNumero(year, Number(row!.value));
  }
}

export async function numeroTaken(tx: DbOrTx, holdingId: number, numero: string, exceptId?: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: pecDossiers.id })
    .from(pecDossiers)
    .where(and(eq(pecDossiers.holdingId, holdingId), eq(pecDossiers.numeroDossier, numero), exceptId ? ne(pecDossiers.id, exceptId) : undefined))
    .limit(1);
  return Boolean(row);
}

export async function assertNumeroFree(tx: DbOrTx, holdingId: number, numero: string, exceptId?: number) {
  if (await numeroTaken(tx, holdingId, numero, exceptId)) throw invalidField('numeroDossier', PEC_MESSAGES.numeroTaken);
}

/** The search term as the search_text column stores text: accents removed, then lower-cased (migration 0003). */
export function normaliseSearch(term: string): string {
  return term
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/œ/g, 'oe')
    .replace(/Œ/g, 'OE')
    .replace(/æ/g, 'ae')
    .replace(/Æ/g, 'AE')
    .replace(/ß/g, 'ss')
    .toLowerCase();
}

/**
 * What the search text is searched for, each as LIKE '%…%': the term as normaliseSearch writes it and, when it differs,
 * the term folded (foldForKey, lower-cased), as the search text also holds the PEC number, invoice number and Pecflow ID
 * (migration 0038): "pec 2026 000123" or "santeclair/972783118" finds PEC-2026-000123 or SANTECLAIR-972783118, as a
 * statement names them. A term that folds to nothing adds nothing ("%%" would match every file).
 */
export function searchTerms(term: string): string[] {
  const words = normaliseSearch(term);
  const folded = foldForKey(words).toLowerCase();
  return folded && folded !== words ? [words, folded] : [words];
}

/**
 * The file of the organisation that already has this invoice number as a statement reads it: folded (foldForKey; in SQL
 * pecflow_fold, through its index), so "FAC 1" is "FAC-1". A number that folds to nothing names no file in a statement
 * (statementMatching): it has no holder.
 */
export async function invoiceNumberHolder(tx: DbOrTx, holdingId: number, numBilling: string, exceptId: number): Promise<string | undefined> {
  const folded = foldForKey(numBilling);
  if (!folded) return undefined;
  const [row] = await tx
    .select({ numero: pecDossiers.numeroDossier })
    .from(pecDossiers)
    .where(and(eq(pecDossiers.holdingId, holdingId), sql`pecflow_fold(${pecDossiers.numBilling}) = ${folded}`, ne(pecDossiers.id, exceptId)))
    .limit(1);
  return row?.numero;
}
