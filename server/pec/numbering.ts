// Readable file numbers, unique per organisation: PEC-2026-000123 (one counter per organisation and year).
import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { pecCounters, pecDossiers } from '../db/schema';
import { invalidField } from '../http/errors';
import { PEC_MESSAGES, todayInFrance } from '#domain/pec';
import { foldForKey } from '#domain/payments';
import { SEARCH_WORDS } from '#domain/limits';

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

const QUOTED_OR_WORD = /"([^"]*)"?|[^\s"]+/g;

/** A word of the search: any of its texts is enough; `short`, fewer characters than a trigram (see searchWords). */
interface SearchWord {
  texts: string[];
  short: boolean;
}

/**
 * What the PEC list's search looks for in the search text: every word of the term, in any field and any order
 * ("Bastille MACIF Dupont": a centre, a mutual, a patient), split on spaces, a "quoted phrase" as one word. A word is
 * found as normaliseSearch writes it or, when it differs, folded (foldForKey, lower-cased), as the search text also holds
 * the PEC number, invoice number and Pecflow ID folded (migration 0038): "santeclair/972783118" finds
 * SANTECLAIR-972783118, and a number typed with spaces ("pec 2026 000123", "zq 2026 04") is found by its parts.
 * Words of 1 or 2 characters (folded) give the trigram index nothing to look up: as an index condition each would read
 * every file of the organisation, so they are `short`, checked only on the files the longer words found. A term with no
 * longer word is one word, whole ("zq 04" in FAC-ZQ-2026-0457, a patient named "Vu"), read without the index as the
 * search always was for such a term. Punctuation alone ("-" between parts) is no word. More than SEARCH_WORDS.maxWords words: 422.
 */
export function searchWords(term: string): SearchWord[] {
  const texts = [...normaliseSearch(term).matchAll(QUOTED_OR_WORD)].map((m) => (m[1] ?? m[0]).replace(/\s+/g, ' ').trim());
  const word = (text: string) => {
    const folded = foldForKey(text).toLowerCase();
    return folded ? [{ texts: folded === text ? [text] : [text, folded], short: folded.length < SEARCH_WORDS.minLength }] : [];
  };
  const words = [...new Set(texts)].flatMap(word);
  if (words.length > SEARCH_WORDS.maxWords) throw invalidField('search', SEARCH_WORDS.tooMany);
  if (words.some((w) => !w.short)) return words;
  // Only short words: the whole term, looked for as before (a patient named « Vu » is found; the index cannot help).
  return word(texts.join(' ')).map((w) => ({ ...w, short: false }));
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
