// Payments reconciled (issue 15, part 4): what an insurer owes for a billed file, the outcome of a payment on it, the
// CSV of a payment statement (columns, French numbers and dates), the manual payment form, the statuses of a statement
// and the dashboard's receivables by age (the manual payment's zod schema: ./pecSchemas). Shared by the browser and the
// server: one rule, one message.
import { parseDateInput, parsePrice } from './pec';

// ---------- what an insurer owes ----------

/**
 * The amount expected from the insurer for a file: its complementary part (`partComplementaire`), what the mutual pays
 * the centre under tiers payant (the Sécurité sociale part is paid by the CPAM, the reste à charge by the patient).
 * null when the insurer's answer gave none: any payment then settles the file.
 */
export const expectedAmount = (file: { partComplementaire: number | null }) => file.partComplementaire;

/** A file's payment as stored on it: compared before an undo, restored by it. */
export interface PaymentState {
  status: string;
  montantPaye: number | null;
  datePaiement: string | null;
  paiementPartiel: boolean;
  montantDu: number | null;
}

export const PAYMENT_OUTCOMES = ['paid', 'partial', 'overpaid', 'unknown', 'already_paid', 'not_billed'] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

export const PAYMENT_OUTCOME_LABELS: Record<PaymentOutcome, string> = {
  paid: 'Payé intégralement',
  partial: 'Paiement partiel',
  overpaid: 'Trop-perçu',
  unknown: 'Référence inconnue',
  already_paid: 'Déjà payé',
  not_billed: 'Pas encore facturé',
};

/** The outcomes that change a file when the statement is applied. */
export const APPLIED_OUTCOMES: readonly PaymentOutcome[] = ['paid', 'partial', 'overpaid'];

const cents = (value: number) => Math.round(value * 100) / 100;

/**
 * A payment of `amount` on a billed file whose state is `state`: payments add up; below what is owed the file stays
 * billed with 'Paiement partiel' and the amount still due; at or above it the file is paid ('Payé'), an excess being
 * over-paid. `difference`: the amount still due (partial) or the excess (over-paid).
 */
export function payFile(
  state: PaymentState,
  expected: number | null,
  amount: number,
  date: string,
): { outcome: 'paid' | 'partial' | 'overpaid'; difference: number | null; next: PaymentState } {
  const paid = cents((state.montantPaye ?? 0) + amount);
  const datePaiement = state.datePaiement && state.datePaiement > date ? state.datePaiement : date;
  if (expected !== null && paid < expected) {
    const due = cents(expected - paid);
    return { outcome: 'partial', difference: due, next: { status: 'billed', montantPaye: paid, datePaiement, paiementPartiel: true, montantDu: due } };
  }
  const excess = expected === null ? 0 : cents(paid - expected);
  return {
    outcome: excess > 0 ? 'overpaid' : 'paid',
    difference: excess > 0 ? excess : null,
    next: { status: 'paid', montantPaye: paid, datePaiement, paiementPartiel: false, montantDu: 0 },
  };
}

// ---------- statements ----------

export const PAYMENT_STATEMENT_STATUSES = ['applied', 'undone'] as const;
export type PaymentStatementStatus = (typeof PAYMENT_STATEMENT_STATUSES)[number];
export const PAYMENT_STATEMENT_STATUS_LABELS: Record<PaymentStatementStatus, string> = { applied: 'Appliqué', undone: 'Annulé' };

/** A statement file: at most this many bytes (the upload is refused beyond) and data lines. */
export const PAYMENT_STATEMENT_LIMITS = { maxBytes: 2 * 1024 * 1024, maxLines: 5000 } as const;

export type StatementColumn = 'paymentDate' | 'payer' | 'reference' | 'amount' | 'label';

/**
 * The accepted headers of a statement, compared without accents, case, spaces or punctuation ("Date de paiement" =
 * "DATE_PAIEMENT"), as insurers' portals name them. The README lists them.
 */
export const STATEMENT_COLUMNS: Record<StatementColumn, { label: string; required: boolean; aliases: string[] }> = {
  paymentDate: {
    label: 'Date de paiement',
    required: true,
    aliases: ['Date de paiement', 'Date paiement', 'Date de règlement', 'Date règlement', 'Date du virement', 'Date virement', 'Date valeur', 'Date'],
  },
  payer: {
    label: 'Payeur',
    required: true,
    aliases: ['Payeur', 'Organisme payeur', 'Organisme', 'Assureur', 'Mutuelle', 'Complémentaire', 'Émetteur'],
  },
  reference: {
    label: 'Référence',
    required: true,
    aliases: ['Référence', 'Réf', 'Référence dossier', 'N° PEC', 'Numéro PEC', 'N° prise en charge', 'N° facture', 'Numéro de facture', 'Facture'],
  },
  amount: {
    label: 'Montant',
    required: true,
    aliases: ['Montant', 'Montant payé', 'Montant réglé', 'Montant versé', 'Montant remboursé', 'Montant (€)', 'Montant EUR', 'Somme'],
  },
  label: { label: 'Libellé', required: false, aliases: ['Libellé', 'Commentaire', 'Motif', 'Observations', 'Désignation'] },
};

/** Header text compared without accents, case, spaces or punctuation ("N° PEC" = "n pec" = "NPEC"). */
export const headerKey = (header: string) =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[°€]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The column a header names, if any. */
export function statementColumnOf(header: string): StatementColumn | undefined {
  const key = headerKey(header);
  if (!key) return undefined;
  return (Object.keys(STATEMENT_COLUMNS) as StatementColumn[]).find((column) => STATEMENT_COLUMNS[column].aliases.some((alias) => headerKey(alias) === key));
}

/**
 * An amount as portals write it: "1 234,56", "1234.56", "1.234,56", "1 234,56 €" (with a comma and dots, the dots
 * group thousands). Strictly positive, 2 decimals at most; undefined otherwise.
 */
export function parseStatementAmount(text: string): number | undefined {
  let compact = text.replace(/[\s\u00a0\u202f€]/g, '');
  if (compact.includes(',') && compact.includes('.')) compact = compact.replace(/\./g, '');
  const amount = parsePrice(compact);
  return typeof amount === 'number' && amount > 0 ? amount : undefined;
}

/** A date as portals write it: 31/10/2026, 31-10-2026, 31.10.2026 or 2026-10-31; undefined otherwise. */
export function parseStatementDate(text: string): string | undefined {
  const french = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(text.trim());
  const value = parseDateInput(french ? `${french[1]}/${french[2]}/${french[3]}` : text);
  return value ?? undefined;
}

export const STATEMENT_MESSAGES = {
  empty: 'Le fichier est vide.',
  noLines: 'Le fichier ne contient aucune ligne de paiement.',
  tooManyLines: `Le fichier dépasse ${PAYMENT_STATEMENT_LIMITS.maxLines} lignes : découpez-le.`,
  unreadable: (line?: number) =>
    `Fichier CSV illisible${line ? ` à la ligne ${line}` : ''} : vérifiez les guillemets et le séparateur (point-virgule ou virgule).`,
  missingColumns: (labels: string[]) => `Colonnes manquantes : ${labels.join(', ')}. En-têtes acceptés : voir le README (relevés de paiement).`,
  cell: (column: StatementColumn, message: string) => `Colonne « ${STATEMENT_COLUMNS[column].label} » : ${message}`,
  date: (value: string) => (value ? `date illisible « ${value} » (jj/mm/aaaa attendu)` : 'la date est requise'),
  futureDate: (value: string) => `date « ${value} » postérieure à aujourd’hui (un paiement est daté du jour où il est reçu)`,
  amount: (value: string) => (value ? `montant illisible « ${value} » (un montant positif, ex : 1 234,56)` : 'le montant est requis'),
  required: 'valeur requise',
  noOrganisation: 'Un relevé de paiement s’importe dans une organisation : connectez-vous avec un compte de l’organisation.',
  nothingToApply: 'Aucune ligne de ce relevé ne correspond à une demande facturée : rien à appliquer.',
  alreadyUndone: 'Ce relevé a déjà été annulé.',
  undoOutOfScope:
    'Annulation impossible : ce relevé a été appliqué à des dossiers de centres que vous ne voyez pas. Demandez à un responsable de l’organisation de l’annuler.',
  /** A line of a statement on a file of a centre the reader does not see: its reference is not shown. */
  hiddenReference: 'Dossier d’un centre non visible',
  undoConflict: (numeros: string[]) =>
    `Annulation impossible : le paiement de ${numeros.length > 1 ? 'ces dossiers a' : 'ce dossier a'} changé depuis l’import (${numeros.join(', ')}). Annulez d’abord les changements plus récents.`,
  notBillable: 'Seule une demande facturée et pas encore soldée peut recevoir un paiement.',
} as const;

// ---------- the manual payment (drawer: 'Enregistrer un paiement') ----------

export const PAYMENT_FORM_MESSAGES = {
  date: 'La date de paiement est requise',
  amount: 'Le montant est requis',
  amountPositive: 'Le montant doit être supérieur à 0',
  future: 'La date de paiement ne peut pas être postérieure à aujourd’hui',
} as const;

// ---------- the dashboard's receivables ----------

/** The PEC list's payment filter (`payment=`): its values. */
export const PAYMENT_FILTERS = ['unpaid', 'partial', 'overpaid'] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];
export const PAYMENT_FILTER_LABELS: Record<PaymentFilter, string> = {
  unpaid: 'Facturé, aucun paiement',
  partial: 'Paiement partiel',
  overpaid: 'Trop-perçu',
};

/** Billed files not yet paid, by days since their billing (`dateFacturationEffective`). */
export const RECEIVABLE_AGES = [
  { key: 'under30', label: 'Moins de 30 jours', fromDays: 0, toDays: 29 },
  { key: 'from30to60', label: '30 à 60 jours', fromDays: 30, toDays: 59 },
  { key: 'from60to90', label: '60 à 90 jours', fromDays: 60, toDays: 89 },
  { key: 'over90', label: 'Plus de 90 jours', fromDays: 90, toDays: undefined },
] as const;
export type ReceivableAge = (typeof RECEIVABLE_AGES)[number]['key'];

const minusDays = (isoDay: string, days: number) => {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
};

/**
 * The billing dates of an age bucket on `today` (Paris), both days included: the range filter of the list behind the
 * figure (`dateFacturationEffective[after]`/`[before]`) and the stats' own condition.
 */
export function receivableAgeRange(today: string, age: ReceivableAge): { after?: string; before?: string } {
  const bucket = RECEIVABLE_AGES.find((a) => a.key === age)!;
  return {
    ...(bucket.toDays !== undefined ? { after: minusDays(today, bucket.toDays) } : {}),
    ...(bucket.fromDays > 0 ? { before: minusDays(today, bucket.fromDays) } : {}),
  };
}
