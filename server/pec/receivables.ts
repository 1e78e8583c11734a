// What the insurers still owe (issue 15): the PEC list's payment filter and the dashboard's receivables, counted with
// the same conditions as the list behind each figure (status billed + billing date range, or the payment filter).
import { and, count, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { pecDossiers } from '../db/schema';
import { PAYMENT_FILTERS, RECEIVABLE_AGES, receivableAgeRange, type PaymentFilter, type ReceivableAge } from '#domain/payments';

const billed = eq(pecDossiers.status, 'billed');

/** `payment=unpaid|partial|overpaid` on the PEC list; an unknown value matches nothing. */
export function paymentFilter(value: string): SQL {
  if (!(PAYMENT_FILTERS as readonly string[]).includes(value)) return sql`false`;
  switch (value as PaymentFilter) {
    case 'unpaid':
      return and(billed, sql`${pecDossiers.montantPaye} is null`)!;
    case 'partial':
      return and(billed, eq(pecDossiers.paiementPartiel, true))!;
    case 'overpaid':
      return sql`${pecDossiers.montantPaye} > ${pecDossiers.partComplementaire}`;
  }
}

/** What is still owed on a billed file: the amount due after a partial payment, else its complementary part. */
const due = sql<string | null>`sum(coalesce(${pecDossiers.montantDu}, ${pecDossiers.partComplementaire}))`;
const amount = (value: string | null | undefined) => Math.round(Number(value ?? 0) * 100) / 100;

function ageCondition(today: string, age: ReceivableAge): SQL | undefined {
  const { after, before } = receivableAgeRange(today, age);
  return and(after ? gte(pecDossiers.dateFacturationEffective, after) : undefined, before ? lte(pecDossiers.dateFacturationEffective, before) : undefined);
}

/**
 * The dashboard's receivables within `scope` (the files the reader sees) on `today` (Paris). `db`: the pool, never a
 * transaction: its counts go out together, which a transaction's one connection does not take.
 */
export async function receivables(db: Db, scope: SQL | undefined, today: string) {
  const figures = (where: SQL | undefined, total = due) =>
    db
      .select({ n: count(), amount: total })
      .from(pecDossiers)
      .where(and(scope, where))
      .then(([row]) => ({ count: Number(row?.n ?? 0), amount: amount(row?.amount) }));
  const [all, ages, partial, overpaid] = await Promise.all([
    figures(billed),
    Promise.all(RECEIVABLE_AGES.map(async (age) => ({ key: age.key, ...(await figures(and(billed, ageCondition(today, age.key)))) }))),
    figures(paymentFilter('partial'), sql<string | null>`sum(${pecDossiers.montantDu})`),
    figures(paymentFilter('overpaid'), sql<string | null>`sum(${pecDossiers.montantPaye} - ${pecDossiers.partComplementaire})`),
  ]);
  return { today, ...all, byAge: ages, partial, overpaid };
}
