// Readable file numbers, unique per organisation: PEC-2026-000123 (one counter per organisation and year).
import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { pecCounters, pecDossiers } from '../db/schema';
import { invalidField } from '../http/errors';
import { PEC_MESSAGES } from '../../src/domain/pec';

export const formatNumero = (year: number, value: number) => `PEC-${year}-${String(value).padStart(6, '0')}`;

export function parisYear(now = new Date()): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', year: 'numeric' }).format(now));
}

/** The next free number of the organisation (skipping numbers typed by hand that happen to match). */
export async function nextNumero(tx: DbOrTx, holdingId: number, now = new Date()): Promise<string> {
  const year = parisYear(now);
  for (;;) {
    const [row] = await tx
      .insert(pecCounters)
      .values({ holdingId, year, lastValue: 1 })
      .onConflictDoUpdate({ target: [pecCounters.holdingId, pecCounters.year], set: { lastValue: sql`${pecCounters.lastValue} + 1` } })
      .returning({ value: pecCounters.lastValue });
    const numero = formatNumero(year, row!.value);
    if (!(await numeroTaken(tx, holdingId, numero))) return numero;
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
