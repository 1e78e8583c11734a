// What the insurers still owe (issues 15 and 25): the PEC list's payment filter, the dashboard's receivables, counted
// with the same conditions as the list behind each figure (status billed + billing date range, or the payment filter),
// and the accountant's export of them, one line per file in the dashboard's age buckets.
import { and, count, desc, eq, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { mutuals, paymentStatementLines, paymentStatements, pecDossiers, shops } from '../db/schema';
import { formatDate } from '#domain/format';
import {
  amountDue,
  daysSince,
  expectedAmount,
  PAYMENT_FILTERS,
  PENDING_OUTCOMES,
  RECEIVABLE_AGES,
  receivableAgeOf,
  receivableAgeRange,
  type PaymentFilter,
  type ReceivableAge,
} from '#domain/payments';
import { safeText } from './csv';
import { decimalComma } from '#domain/format';

const billed = eq(pecDossiers.status, 'billed');

/** `payment=unpaid|partial|paid|overpaid` on the PEC list; an unknown value matches nothing. */
export function paymentFilter(value: string): SQL {
  if (!(PAYMENT_FILTERS as readonly string[]).includes(value)) return sql`false`;
  switch (value as PaymentFilter) {
    case 'unpaid':
      return and(billed, sql`${pecDossiers.montantPaye} is null`)!;
    case 'partial':
      return and(billed, eq(pecDossiers.paiementPartiel, true))!;
    case 'paid':
      // Paid in full, the over-paid files aside (their own filter).
      return sql`${pecDossiers.status} = 'paid' and coalesce(${pecDossiers.montantPaye}, 0) <= coalesce(${pecDossiers.partComplementaire}, 0)`;
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

/**
 * Money received and placed nowhere yet: the lines to be handled ('À traiter') of the organisation's applied statements
 * (lines, amount), the statements list behind them filtered `aTraiter=true`. `scope`: the statements the reader sees.
 */
export async function unplacedPayments(db: Db, scope: SQL | undefined) {
  const [row] = await db
    .select({ n: count(), amount: sql<string | null>`sum(${paymentStatementLines.amount})` })
    .from(paymentStatementLines)
    .innerJoin(paymentStatements, eq(paymentStatements.id, paymentStatementLines.statementId))
    .where(
      and(
        scope,
        eq(paymentStatements.status, 'applied'),
        isNull(paymentStatementLines.resolution),
        inArray(paymentStatementLines.outcome, [...PENDING_OUTCOMES]),
      ),
    );
  return { count: Number(row?.n ?? 0), amount: amount(row?.amount) };
}

/** The receivables export's columns (CSV for French Excel, as the PEC export). */
export const RECEIVABLES_HEADER = [
  'Ancienneté',
  'N° dossier',
  'Centre',
  'Mutuelle',
  'N° PEC',
  'N° facture',
  'Date de facturation',
  'Jours depuis la facturation',
  'Montant attendu',
  'Montant payé',
  'Date du dernier paiement',
  'Montant restant dû',
];

const AGE_LABELS = new Map(RECEIVABLE_AGES.map((age) => [age.key as string, age.label as string]));

/**
 * A page of the receivables within `scope` on `today`: the billed files, the most recently billed first (the
 * dashboard's buckets in its order), as CSV records. `db`: the pool (one query).
 */
export async function receivablesPage(db: Db, scope: SQL | undefined, today: string, page: number, size: number): Promise<string[][]> {
  const rows = await db
    .select({
      numeroDossier: pecDossiers.numeroDossier,
      shop: shops.name,
      mutual: mutuals.name,
      numPec: pecDossiers.numPec,
      numBilling: pecDossiers.numBilling,
      billedOn: pecDossiers.dateFacturationEffective,
      status: pecDossiers.status,
      partComplementaire: pecDossiers.partComplementaire,
      montantPaye: pecDossiers.montantPaye,
      datePaiement: pecDossiers.datePaiement,
      montantDu: pecDossiers.montantDu,
    })
    .from(pecDossiers)
    .innerJoin(shops, eq(shops.id, pecDossiers.shopId))
    .leftJoin(mutuals, eq(mutuals.id, pecDossiers.mutualId))
    .where(and(scope, billed))
    .orderBy(sql`${pecDossiers.dateFacturationEffective} desc nulls last`, desc(pecDossiers.id))
    .limit(size)
    .offset((page - 1) * size);
  return rows.map((r) => {
    const age = receivableAgeOf(today, r.billedOn);
    return [
      age ? AGE_LABELS.get(age)! : '',
      safeText(r.numeroDossier),
      safeText(r.shop),
      safeText(r.mutual),
      safeText(r.numPec),
      safeText(r.numBilling),
      r.billedOn ? formatDate(r.billedOn) : '',
      r.billedOn ? String(daysSince(today, r.billedOn)) : '',
      decimalComma(expectedAmount(r)),
      decimalComma(r.montantPaye),
      r.datePaiement ? formatDate(r.datePaiement) : '',
      decimalComma(amountDue(r)),
    ];
  });
}
