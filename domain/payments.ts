// Payments reconciled (issue 15, part 4; issue 25): what an insurer owes for a billed file, the one rule that turns
// what was paid into the file's payment state, the payment history's sources, the CSV of a payment statement (columns,
// French numbers and dates, the fingerprint of a line), the manual payment form and its cancellation, the statuses of a
// statement and the dashboard's receivables by age (the zod schemas: ./pecSchemas). Shared by the browser and the
// server: one rule, one message.
import { decimalComma, formatAmount, formatDate, formatEuros, formatIsoDay, headerKey } from './format';
import { addDays, parseDateInput, parsePrice, PRICE_MAX, todayInFrance } from './pec';
import { AMOUNTS_CHECKED_PARAM } from './confirmations';
import { PAYMENT_OUTCOME_LABELS, type PaymentOutcome } from './paymentOutcomes';

// ---------- what an insurer owes ----------

/**
 * The amount expected from the insurer for a file: its complementary part (`partComplementaire`), what the mutual pays
 * the centre under tiers payant (the Sécurité sociale part is paid by the CPAM, the reste à charge by the patient).
 * null when the insurer's answer gave none: any payment then settles the file.
 */
export const expectedAmount = (file: { partComplementaire: number | null }) => file.partComplementaire;

/** A file's payment as stored on it: derived from its payment history (paymentStateOf), compared before an undo. */
export interface PaymentState {
  status: string;
  montantPaye: number | null;
  datePaiement: string | null;
  paiementPartiel: boolean;
  montantDu: number | null;
}

// The outcomes and their labels live apart (./paymentOutcomes), so that the audit trail shows them without these rules.
export { PAYMENT_OUTCOMES, PAYMENT_OUTCOME_LABELS, type PaymentOutcome } from './paymentOutcomes';

/** The outcomes that change a file when the statement is applied. */
export const APPLIED_OUTCOMES: readonly PaymentOutcome[] = ['paid', 'partial', 'overpaid'];

/**
 * Money received that reached no file ('À traiter'): a reference no file has (or several), a file not billed yet, a file marked paid
 * by hand, a payment dated before the file's invoice (an insurer pays what was invoiced: the reference is likely wrong,
 * as 'Rattacher' and 'Enregistrer un paiement' judge it). Each such line stays to be handled until it is attached to a file (a payment of that file) or set aside
 * with a reason; a line applied twice ('Déjà appliquée') is not money and is never to be handled.
 */
export const PENDING_OUTCOMES: readonly PaymentOutcome[] = ['unknown', 'ambiguous', 'not_billed', 'already_paid', 'before_invoice', 'archived'];

/**
 * How a line was handled after its import: one to be handled attached to a file by hand, or set aside with its reason;
 * one taken for a payment already counted ('Déjà appliquée'…) counted all the same, as a distinct payment of its file,
 * with its reason (isCountableLine).
 */
export const LINE_RESOLUTIONS = ['attached', 'dismissed', 'counted'] as const;
export type LineResolution = (typeof LINE_RESOLUTIONS)[number];

/**
 * A line taken for a payment its file already counts (the same amount on the same day: a line repeated in the
 * statement, a statement's payment, one entered by hand) that the office can count as a second, distinct payment
 * (two ears paid the same day): it names a file and nobody handled it yet.
 */
export const isCountableLine = (line: { outcome: string; resolution?: string | null; dossier?: unknown }) =>
  line.outcome === 'already_applied' && !line.resolution && !!line.dossier;

/**
 * A line attached to a file by hand, or counted as a distinct payment of its file, that « Détacher » puts back as it was
 * (its payment reversed with the reason): the server's rule and the button's.
 */
export const isDetachableLine = (line: { resolution?: string | null; dossier?: unknown }) =>
  (line.resolution === 'attached' || line.resolution === 'counted') && !!line.dossier;

/**
 * The 409's `conflict` when a file already holds a payment of that amount on that day: the manual payment can then be
 * sent again as a second, distinct payment, with its reason (`motifDistinct`) and the number of such payments the
 * office saw (`paiementsDuJour`, the 409's `sameDayPayments`), so that a second click records nothing more.
 */
export const SAME_DAY_CONFLICT = 'sameDayPayment';

/** The statements list's filter (`aTraiter=true`): the statements with lines still to be handled. */
export const PENDING_STATEMENT_FILTER = 'aTraiter';

/** A statement line is to be handled: its money reached no file, and nobody handled it yet. */
export const isPendingLine = (line: { outcome: string; resolution?: string | null }) =>
  PENDING_OUTCOMES.includes(line.outcome as PaymentOutcome) && !line.resolution;

const cents = (value: number) => Math.round(value * 100) / 100;

/** Whether `paid` settles a file that owes `expected` (anything settles a file whose insurer gave no amount). */
const settles = (expected: number | null, paid: number | null) => paid !== null && paid > 0 && (expected === null || paid >= expected);

/**
 * The one rule of a billed file's payment: what was paid in total (null: nothing yet) and the day of the last payment
 * give the stored state. Below what is owed the file stays billed with 'Paiement partiel' and the amount still due; at
 * or above it the file is paid ('Payé'), an excess being an over-payment. `paidByHand`: the file was marked 'Payé' by
 * hand (a status change) without its payments settling it; it stays paid, owing nothing.
 */
export function paymentStateOf(expected: number | null, paid: number | null, lastDate: string | null, paidByHand = false): PaymentState {
  const total = paid === null || paid <= 0 ? null : cents(paid);
  const date = total === null ? null : lastDate;
  if (settles(expected, total) || paidByHand)
    return { status: 'paid', montantPaye: total, datePaiement: date, paiementPartiel: false, montantDu: total === null ? null : 0 };
  if (total === null) return { status: 'billed', montantPaye: null, datePaiement: null, paiementPartiel: false, montantDu: null };
  return { status: 'billed', montantPaye: total, datePaiement: date, paiementPartiel: true, montantDu: cents(expected! - total) };
}

/** Whether a paid file was marked 'Payé' by hand: its payments (its stored amount paid) do not settle it. */
export const isPaidByHand = (state: Pick<PaymentState, 'status' | 'montantPaye'>, expected: number | null) =>
  state.status === 'paid' && !settles(expected, state.montantPaye);

/** One payment of a file's history as the rule reads it: a cancelled one (reversed) no longer counts. */
export interface PaymentEntry {
  amount: number;
  paymentDate: string;
  reversedAt?: string | Date | null;
}

/** The payments that count: those not cancelled. */
export const activePayments = <T extends PaymentEntry>(payments: readonly T[]) => payments.filter((p) => !p.reversedAt);

/** A file's paid amount: the sum of its payments that count, null when none. */
export function paidAmount(payments: readonly PaymentEntry[]): number | null {
  const active = activePayments(payments);
  return active.length ? cents(active.reduce((sum, p) => sum + p.amount, 0)) : null;
}

/** The day of a file's last payment that counts, null when none. */
export const lastPaymentDate = (payments: readonly PaymentEntry[]) =>
  activePayments(payments).reduce<string | null>((last, p) => (last === null || p.paymentDate > last ? p.paymentDate : last), null);

/** A file's payment state from its payment history (the stored columns are always this). */
export const paymentStateFromHistory = (expected: number | null, payments: readonly PaymentEntry[], paidByHand = false) =>
  paymentStateOf(expected, paidAmount(payments), lastPaymentDate(payments), paidByHand);

/**
 * A payment of `amount` on a billed file whose state is `state` (a statement's preview, line after line): the same
 * rule with the new total. `difference`: the amount still due (partial) or the excess (over-paid).
 */
export function payFile(
  state: PaymentState,
  expected: number | null,
  amount: number,
  date: string,
): { outcome: 'paid' | 'partial' | 'overpaid'; difference: number | null; next: PaymentState } {
  const datePaiement = state.datePaiement && state.datePaiement > date ? state.datePaiement : date;
  const next = paymentStateOf(expected, cents((state.montantPaye ?? 0) + amount), datePaiement);
  if (next.paiementPartiel) return { outcome: 'partial', difference: next.montantDu, next };
  const excess = overpaymentOf({ montantPaye: next.montantPaye, partComplementaire: expected });
  return { outcome: excess ? 'overpaid' : 'paid', difference: excess, next };
}

/** What was paid beyond what the insurer owes ('Trop-perçu'), null when nothing was. */
export function overpaymentOf(file: { montantPaye?: number | null; partComplementaire: number | null }): number | null {
  const paid = file.montantPaye ?? null;
  if (paid === null || file.partComplementaire === null) return null;
  const excess = cents(paid - file.partComplementaire);
  return excess > 0 ? excess : null;
}

/**
 * A statement line that over-pays its file by far (a typo in the insurer's file: 99 999 999,99 € for 1 300,00 €) is
 * checked before it is applied: flagged in the preview, applied only once the office confirms it. Far: more than this
 * many times what the file was to receive, its expected amount (expectedAmount), the figure 'Trop-perçu' is judged
 * against; not the amount still due, which shrinks with each payment and would flag a balance the insurer paid twice.
 */
export const FAR_ABOVE_EXPECTED_FACTOR = 2;

/** Why a preview's line is to be checked before the statement is applied (the code the screens branch on). */
export const PAYMENT_LINE_WARNINGS = ['amountFarAboveExpected'] as const;
export type PaymentLineWarning = (typeof PAYMENT_LINE_WARNINGS)[number];

/**
 * The warning of a matched line, null when there is none: an over-payment above FAR_ABOVE_EXPECTED_FACTOR times its
 * file's expected amount. A line that pays no file (unknown reference…) or a file whose insurer gave no amount is not
 * concerned.
 */
export const paymentLineWarning = (line: { outcome: PaymentOutcome; amount: number; expected: number | null }): PaymentLineWarning | null =>
  line.outcome === 'overpaid' && line.expected !== null && line.amount > FAR_ABOVE_EXPECTED_FACTOR * line.expected ? 'amountFarAboveExpected' : null;

/** The 409's `conflict` when the apply is sent without its confirmation of the lines to be checked (AMOUNTS_CHECKED_PARAM). */
export const AMOUNTS_TO_CHECK_CONFLICT = 'amountsToCheck';

/**
 * The same check for one payment typed by hand or a line attached to a file ('Rattacher'): far above what the file was
 * to receive, it is recorded only once the office confirms it, by sending it again with this field set to true; until
 * then a 409 with AMOUNTS_TO_CHECK_CONFLICT and the file's `expected` amount, and nothing written.
 */
export const AMOUNT_CHECKED_FIELD = 'montantVerifie';

/**
 * What the insurer still owes on a file: on a billed file the amount due after its payments (its complementary part
 * when none came yet), nothing on a paid one; null before billing (nothing is owed yet).
 */
export function amountDue(file: { status: string; montantDu?: number | null; partComplementaire: number | null }): number | null {
  if (file.status === 'paid') return 0;
  if (file.status !== 'billed') return null;
  return file.montantDu ?? file.partComplementaire;
}

// ---------- the payment history of a file ----------

/** Where a payment of a file's history comes from: a statement's line, or 'Enregistrer un paiement'. */
export const PAYMENT_SOURCES = ['statement', 'manual'] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];
export const PAYMENT_SOURCE_LABELS: Record<PaymentSource, string> = { statement: 'Relevé de paiement', manual: 'Saisie manuelle' };

/** Only a payment entered by hand is cancelled on its own; a statement's line goes with its statement (undo). */
export const isCancellable = (payment: { source: string; reversedAt?: unknown }) => payment.source === 'manual' && !payment.reversedAt;

export const PAYMENT_CANCEL_MESSAGES = {
  reason: 'Le motif de l’annulation est requis',
  notFound: 'Paiement introuvable.',
  alreadyCancelled: 'Ce paiement a déjà été annulé.',
  fromStatement: (statementId: number | null) =>
    `Ce paiement vient du relevé n° ${statementId ?? '?'} : il ne s’annule qu’avec son relevé (Paiements, « Annuler le relevé »).`,
  laterStatement: (statementIds: number[]) =>
    `Annulation impossible : ${statementIds.length > 1 ? 'les relevés' : 'le relevé'} n° ${statementIds.join(', ')} ${statementIds.length > 1 ? 'ont' : 'a'} été appliqué${statementIds.length > 1 ? 's' : ''} à ce dossier depuis ce paiement. Annulez d’abord ${statementIds.length > 1 ? 'ces relevés' : 'ce relevé'}.`,
  /** Applied statements that counted this payment as theirs ('Déjà enregistrée'): cancelled, their money would be lost. */
  confirmedByStatement: (statements: { id: number; createdAt: string | Date }[]) =>
    `Annulation impossible : ${statements.length > 1 ? 'les relevés' : 'le relevé'} ${statements
      .map((s) => `n° ${s.id} du ${importDay(s.createdAt)}`)
      .join(
        ', ',
      )} ${statements.length > 1 ? 'confirment' : 'confirme'} ce paiement et ne l’${statements.length > 1 ? 'ont' : 'a'} pas compté une seconde fois (« Déjà enregistrée »). Annulez d’abord ${statements.length > 1 ? 'ces relevés' : 'ce relevé'}.`,
} as const;

/**
 * Why the server refuses to cancel a payment, by the rule of PAYMENT_CANCEL_MESSAGES that refuses it and the statements
 * it names: pec_payments' `cancelRefusal` (null when the payment can be cancelled), computed by the one rule of the
 * cancellation (the server's cancelRefusalJson), whose 409 says cancelRefusalMessage.
 */
export interface CancelRefusal {
  rule: 'fromStatement' | 'alreadyCancelled' | 'laterStatement' | 'confirmedByStatement';
  /** The statements it names: each one's day too for 'confirmedByStatement'. */
  statements: { id: number; createdAt?: string }[];
}

/** A refused cancellation in the office's words: the 409's message, and the history's before it is tried. */
export function cancelRefusalMessage({ rule, statements }: CancelRefusal): string {
  switch (rule) {
    case 'fromStatement':
      return PAYMENT_CANCEL_MESSAGES.fromStatement(statements[0]?.id ?? null);
    case 'alreadyCancelled':
      return PAYMENT_CANCEL_MESSAGES.alreadyCancelled;
    case 'laterStatement':
      return PAYMENT_CANCEL_MESSAGES.laterStatement(statements.map((s) => s.id));
    case 'confirmedByStatement':
      return PAYMENT_CANCEL_MESSAGES.confirmedByStatement(statements.map((s) => ({ id: s.id, createdAt: s.createdAt! })));
  }
}

// ---------- statements ----------

export const PAYMENT_STATEMENT_STATUSES = ['applied', 'undone'] as const;
export type PaymentStatementStatus = (typeof PAYMENT_STATEMENT_STATUSES)[number];
export const PAYMENT_STATEMENT_STATUS_LABELS: Record<PaymentStatementStatus, string> = { applied: 'Appliqué', undone: 'Annulé' };

/** A statement file: at most this many bytes (the upload is refused beyond) and data lines. */
export const PAYMENT_STATEMENT_LIMITS = { maxBytes: 2 * 1024 * 1024, maxLines: 5000 } as const;

export type StatementColumn = 'paymentDate' | 'payer' | 'reference' | 'amount' | 'label' | 'statementNumber' | 'period';

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
  // The statement's own reference, when the portal writes it on each line: its number, its period.
  statementNumber: {
    label: 'N° de relevé',
    required: false,
    aliases: [
      'N° de relevé',
      'N° relevé',
      'Numéro de relevé',
      'Numéro relevé',
      'Référence relevé',
      'Relevé',
      'N° bordereau',
      'Bordereau',
      'N° de remise',
      'Remise',
    ],
  },
  period: { label: 'Période', required: false, aliases: ['Période', 'Période du relevé', 'Période de paiement'] },
};

export const STATEMENT_TEMPLATE_NAME = 'modele-releve-paiements.csv';

/**
 * The statement file the import page offers to start from: its columns as Pecflow names them, in French Excel's CSV
 * (UTF-8 with a BOM, semicolons, CRLF), and one line to replace, dated `day` (yyyy-mm-dd).
 */
export function statementTemplate(day: string): string {
  const example: Record<StatementColumn, string> = {
    paymentDate: formatIsoDay(day),
    payer: 'Allianz',
    reference: 'FAC-2026-000123',
    amount: decimalComma(1420),
    label: 'Virement du relevé 2026-47',
    statementNumber: '2026-47',
    period: 'Novembre 2026',
  };
  const columns = Object.keys(STATEMENT_COLUMNS) as StatementColumn[];
  const row = (cells: string[]) => `${cells.join(';')}\r\n`;
  return `\uFEFF${row(columns.map((column) => STATEMENT_COLUMNS[column].label))}${row(columns.map((column) => example[column]))}`;
}

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

/**
 * A date as portals write it: 31/10/2026, 31-10-2026, 31.10.2026, 2026-10-31, or with two digits for the year (31/10/26:
 * 2026, a payment being never later than today); undefined otherwise.
 */
export function parseStatementDate(text: string): string | undefined {
  const french = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})$/.exec(text.trim());
  const year = french && (french[3]!.length === 2 ? `20${french[3]}` : french[3]);
  const value = parseDateInput(french ? `${french[1]}/${french[2]}/${year}` : text);
  return value ?? undefined;
}

/** A day as portals write it in a statement's period (parseStatementDate reads each). */
const PERIOD_DAY = String.raw`\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})`;
const PERIOD_RANGE = new RegExp(String.raw`^\s*(?:du\s+)?(${PERIOD_DAY})\s*(?:[-–/]|au)\s*(${PERIOD_DAY})\s*$`, 'i');
const DAY_IN_PERIOD = new RegExp(String.raw`(?<![\d./-])(?:${PERIOD_DAY})(?![\d./-])`, 'g');

/**
 * A statement's period as the screens show it (its preview, the statement): "2026-11-01 - 2026-11-15" or
 * "01/11/2026-15/11/2026" -> "du 01/11/2026 au 15/11/2026"; any other text keeps its words, each day in it written
 * dd/mm/yyyy ("Novembre 2026" as it is).
 */
export function statementPeriodText(period: string): string {
  const range = PERIOD_RANGE.exec(period);
  const [from, to] = range ? [parseStatementDate(range[1]!), parseStatementDate(range[2]!)] : [];
  if (from && to) return `du ${formatIsoDay(from)} au ${formatIsoDay(to)}`;
  return period.replace(DAY_IN_PERIOD, (day) => {
    const read = parseStatementDate(day);
    return read ? formatIsoDay(read) : day;
  });
}

/**
 * A payer or a reference as two lines, or a line and a file's number, are compared: its letters and digits, without
 * accents, case, spaces or punctuation ("Santéclair" = "SANTECLAIR" = "Santé-Clair", "pec 2026 000123" =
 * "PEC-2026-000123"): decomposed (NFD), everything but the ASCII letters and digits dropped (the accents with it), then
 * upper-cased. The database's pecflow_fold (migration 0037) takes the same steps, so that its indexes of the files'
 * numbers find what this fold names and the keys it computes for stored lines are the server's.
 */
export const foldForKey = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase();

const inCents = (amount: number) => String(Math.round(amount * 100));

/**
 * What makes two payments of a file the same: their amount and day. Once a line names a file, its reference said only
 * which one (a PEC number, an invoice number or the Pecflow ID all name the same file), and its payer how the insurer
 * names itself that day ("Allianz", "Allianz SA", its network): neither is part of the key. The database keeps it with
 * each payment of a statement (unique per file among those not cancelled); a payment entered by hand is compared by it
 * too (amountOnDayKey).
 */
export const filePaymentKey = (payment: { amount: number; paymentDate: string }) => [inCents(payment.amount), payment.paymentDate].join('|');

/** A payment of a given file (filePaymentKey), as the payments of several files are told apart. */
export const amountOnDayKey = (dossierId: number, payment: { amount: number; paymentDate: string }) => `${dossierId}|${filePaymentKey(payment)}`;

/**
 * A line as the insurer wrote it (payer, reference, amount, day), kept with every statement line: a line that reached no
 * file is recognised by it when an overlapping statement brings it again (already received, not to be handled twice),
 * and a statement's fingerprint is made of its lines' keys (statementIdentity).
 */
export const receivedLineKey = (line: { payer: string; reference: string; amount: number; paymentDate: string }) =>
  [foldForKey(line.payer), foldForKey(line.reference), inCents(line.amount), line.paymentDate].join('|');

/** The day a statement was imported, as a French reader says it (Paris). */
const importDay = (createdAt: string | Date) => formatDate(todayInFrance(new Date(createdAt)));

/** The amount the messages give as an example of what to type, as the formatter writes it: it never breaks a line. */
const AMOUNT_EXAMPLE = formatAmount(1234.56);

/** The lines to be checked an apply's refusal names, then how many more. */
const AMOUNTS_TO_CHECK_SHOWN = 10;

type NamedStatement = { id: number; createdAt: string | Date; reference?: string | null };
/** Statements as the refusals name them: « n° 12 du 20/11/2026 (réf. 2026-48), n° 14 du … ». */
const statementsNamed = (statements: NamedStatement[]) =>
  statements.map((l) => `n° ${l.id} du ${importDay(l.createdAt)}${l.reference ? ` (réf. ${l.reference})` : ''}`).join(', ');
/** The statements applied to a file since, which an undo or a detach waits for: named, and what to do. */
const laterStatements = (later: NamedStatement[]) =>
  `${later.length > 1 ? 'Relevés appliqués' : 'Relevé appliqué'} depuis : ${statementsNamed(later)}. Annulez d’abord ${later.length > 1 ? 'ces relevés' : 'ce relevé'}.`;

export const STATEMENT_MESSAGES = {
  empty: 'Le fichier est vide.',
  noLines: 'Le fichier ne contient aucune ligne de paiement.',
  tooManyLines: `Le fichier dépasse ${PAYMENT_STATEMENT_LIMITS.maxLines} lignes : découpez-le.`,
  /** A picture, a PDF, a workbook (its bytes say it, file-type): not a text file at all. */
  notCsv: (extension: string) =>
    `Ce fichier n’est pas un fichier CSV (c’est un fichier ${extension.toUpperCase()}) : exportez le relevé au format CSV depuis le portail de l’assureur ou votre tableur.`,
  unreadable: (line?: number) =>
    `Fichier CSV illisible${line ? ` à la ligne ${line}` : ''} : vérifiez les guillemets et le séparateur (point-virgule ou virgule).`,
  /** Each missing column with the headers it is recognised by: what the office can rename in its file. */
  missingColumns: (columns: StatementColumn[]) =>
    `Colonnes manquantes : ${columns.map((c) => STATEMENT_COLUMNS[c].label).join(', ')}. En-têtes reconnus ${columns
      .map((c) => `pour « ${STATEMENT_COLUMNS[c].label} » : ${STATEMENT_COLUMNS[c].aliases.join(', ')}`)
      .join(' ; ')}.`,
  cell: (column: StatementColumn, message: string) => `Colonne « ${STATEMENT_COLUMNS[column].label} » : ${message}`,
  date: (value: string) => (value ? `date illisible « ${value} » (jj/mm/aaaa attendu)` : 'la date est requise'),
  futureDate: (value: string) => `date « ${value} » postérieure à aujourd’hui (un paiement est daté du jour où il est reçu)`,
  amount: (value: string) => (value ? `montant illisible « ${value} » (un montant positif, ex : ${AMOUNT_EXAMPLE})` : 'le montant est requis'),
  required: 'valeur requise',
  noOrganisation: 'Un relevé de paiement s’importe dans une organisation : connectez-vous avec un compte de l’organisation.',
  nothingToApply: 'Toutes les lignes de ce relevé sont déjà appliquées ou reçues : rien à enregistrer.',
  /** The same statement (same content, or same payer and number) is applied already. */
  alreadyImported: (createdAt: string | Date, lines: number) => `Relevé déjà importé le ${importDay(createdAt)} (${lines} ligne${lines > 1 ? 's' : ''})`,
  alreadyImportedApply: 'Annulez d’abord le relevé importé pour l’appliquer à nouveau.',
  /** A line already applied to its file by another statement (or earlier in this one). */
  alreadyApplied: (statementId: number, createdAt: string | Date) => `Déjà appliquée (relevé n° ${statementId} du ${importDay(createdAt)})`,
  repeatedLine: (line: number) => `Déjà appliquée (ligne ${line} de ce relevé)`,
  /** A line that reached no file, brought again: it is handled (attached, set aside) in the statement that received it first. */
  alreadyReceived: (statementId: number, createdAt: string | Date) => `Déjà reçue (relevé n° ${statementId} du ${importDay(createdAt)})`,
  repeatedReceived: (line: number) => `Déjà reçue (ligne ${line} de ce relevé)`,
  /** A line whose payment the office entered by hand on its file (the same amount on the same day). */
  alreadyTyped: (paymentDate: string, recordedAt: string | Date) =>
    `Déjà enregistrée (paiement du ${formatIsoDay(paymentDate)} saisi à la main le ${importDay(recordedAt)})`,
  concurrentLines: 'Un autre import vient de payer les mêmes lignes sur ces dossiers : relancez l’aperçu du relevé.',
  /** An apply that carries its preview's fingerprint (`apercu`) when the statement would now do something else. */
  previewChanged:
    'Le relevé ne donne plus le même résultat que son aperçu (un paiement enregistré ou un relevé appliqué entre-temps) : vérifiez le nouvel aperçu, puis appliquez-le.',
  /** A preview's line far above what its file was to receive (paymentLineWarning): `expected`, what it was to receive. */
  amountFarAboveExpected: (expected: number) => `Montant très supérieur à ce que la demande devait recevoir (${formatEuros(expected)}) : vérifiez la ligne`,
  /** One payment far above what its file was to receive (AMOUNT_CHECKED_FIELD), refused until it is confirmed. */
  paymentFarAboveExpected: (amount: number, expected: number) =>
    `${formatEuros(amount)}, c’est très supérieur à ce que la demande devait recevoir (${formatEuros(expected)}) : vérifiez le montant, puis confirmez-le.`,
  /** An apply refused while lines to be checked are not confirmed (AMOUNTS_CHECKED_PARAM): the first of them named. */
  amountsToCheck: (lines: number[]) => {
    const shown = lines.slice(0, AMOUNTS_TO_CHECK_SHOWN).join(', ');
    const more =
      lines.length > AMOUNTS_TO_CHECK_SHOWN ? ` et ${lines.length - AMOUNTS_TO_CHECK_SHOWN} autre${lines.length - AMOUNTS_TO_CHECK_SHOWN > 1 ? 's' : ''}` : '';
    return lines.length > 1
      ? `Relevé non appliqué : les lignes ${shown}${more} paient bien plus que ce que leur demande devait recevoir. Vérifiez ces montants, puis confirmez-les pour appliquer le relevé.`
      : `Relevé non appliqué : la ligne ${shown} paie bien plus que ce que sa demande devait recevoir. Vérifiez ce montant, puis confirmez-le pour appliquer le relevé.`;
  },
  amountsCheckedInvalid: `Confirmation des montants invalide : ${AMOUNTS_CHECKED_PARAM}=1 attendu.`,
  alreadyUndone: 'Ce relevé a déjà été annulé.',
  undoReason: 'Le motif de l’annulation est requis',
  /** The reason kept on each payment the undo reverses. */
  undoneWith: (motif: string) => `Relevé annulé : ${motif}`,
  undoOutOfScope:
    'Annulation impossible : ce relevé a été appliqué à des dossiers de centres que vous ne voyez pas. Demandez à un responsable de l’organisation de l’annuler.',
  /** A line of a statement on a file of a centre the reader does not see: its reference is not shown. */
  hiddenReference: 'Dossier d’un centre non visible',
  /** `later`: the statements applied to those files since, which block the undo (named by number and day). */
  undoConflict: (numeros: string[], later: { id: number; createdAt: string | Date; reference: string | null }[] = []) =>
    `Annulation impossible : le paiement de ${numeros.length > 1 ? 'ces dossiers a' : 'ce dossier a'} changé depuis l’import (${numeros.join(', ')}). ${
      later.length ? laterStatements(later) : 'Annulez d’abord les changements plus récents.'
    }`,
  /** Files marked 'Payé' by hand since the import: a final status, which no undo takes back. */
  undoPaidByHand: (numeros: string[]) =>
    `Annulation impossible : ${numeros.length > 1 ? 'ces dossiers ont été marqués' : 'ce dossier a été marqué'} « Payé » à la main depuis l’import (${numeros.join(', ')}). « Payé » est un état final : ce relevé ne peut plus être annulé.`,
  /** Later statements whose lines are copies of this one's (already applied or received here): they would lose them. */
  undoCopied: (later: { id: number; createdAt: string | Date }[]) =>
    `Annulation impossible : ${later.length > 1 ? 'les relevés' : 'le relevé'} ${statementsNamed(later.map(({ id, createdAt }) => ({ id, createdAt })))} ${
      later.length > 1 ? 'reprennent' : 'reprend'
    } des lignes comptées dans celui-ci. Annulez d’abord ${later.length > 1 ? 'ces relevés' : 'ce relevé'}.`,
  notBillable: 'Seule une demande facturée et pas encore soldée peut recevoir un paiement.',
  /** A payment the file holds already (the same amount on the same day, entered or from a statement): `count` of them. */
  sameDayPayment: (amount: number, isoDay: string, count = 1) =>
    count > 1
      ? `${count} paiements de ${formatEuros(amount)} du ${formatIsoDay(isoDay)} sont déjà enregistrés sur cette demande : voyez son historique des paiements.`
      : `Un paiement de ${formatEuros(amount)} du ${formatIsoDay(isoDay)} est déjà enregistré sur cette demande : voyez son historique des paiements.`,
  /** Why a second payment of the same amount on the same day is a payment of its own (kept on it, audited). */
  distinctReason: 'Indiquez ce qui distingue ce paiement de celui déjà enregistré (ex : oreille gauche)',
  lineNotCountable:
    'Seule une ligne reconnue comme un paiement déjà compté sur une demande peut être comptée comme un paiement distinct : rechargez le relevé.',
  /** A file that takes no payment from a statement line counted by hand. */
  countNotBillable: 'Cette demande ne reçoit plus de paiement de relevé (pas facturée, ou marquée « Payé » à la main).',
  // A line to be handled ('À traiter'): attached to a file, or set aside with its reason.
  lineNotFound: 'Ligne de relevé introuvable.',
  lineNotPending: 'Cette ligne n’est pas à traiter : son paiement est déjà compté, sur un dossier ou dans un autre relevé.',
  // Said where the page reads the statement again by itself (the statements' page does): no « rechargez ».
  lineResolved: 'Cette ligne a déjà été traitée entre-temps (par un collègue, ou dans un autre onglet).',
  lineOfUndone: 'Ce relevé a été annulé : ses lignes ne se traitent plus. Importez-le à nouveau.',
  attachFile: 'Choisissez la demande facturée à laquelle rattacher ce paiement',
  attachBeforeInvoice: 'Ce paiement est daté d’avant la facture de cette demande : choisissez une autre demande.',
  dismissReason: 'Le motif est requis',
  lineNotDismissed: 'Seule une ligne classée peut être remise à traiter.',
  lineReopened: 'Cette ligne a déjà été remise à traiter entre-temps (par un collègue, ou dans un autre onglet).',
  /** The label of a line attached by hand, and of one set aside. */
  attached: (outcome: PaymentOutcome, day: string, distinctReason?: string | null) =>
    `${PAYMENT_OUTCOME_LABELS[outcome]} (rattachée le ${formatDate(day)}${distinctReason ? ` comme paiement distinct : ${distinctReason}` : ''})`,
  dismissed: (reason: string) => `Classée : ${reason}`,
  /** A line of a cancelled statement: what it had done, no longer in force. */
  undoneLine: (label: string) => `Annulée avec le relevé — était : ${label}`,
  // A line attached or counted by hand, detached: its payment reversed, the line as it was before it ('Détacher').
  detachReason: 'Le motif du détachement est requis',
  /** The reason kept on the payment a detach reverses. */
  detachedWith: (motif: string) => `Détachée du relevé : ${motif}`,
  lineNotDetachable: 'Seule une ligne rattachée à une demande ou comptée en plus se détache : une ligne appliquée à l’import s’annule avec son relevé.',
  lineDetached: 'Cette ligne a déjà été détachée entre-temps (par un collègue, ou dans un autre onglet).',
  /** A line handled before its state before the payment was kept (migration 0041): nothing to put back, nothing guessed. */
  detachUnknownBefore:
    'Cette ligne a été traitée avant que Pecflow garde son état d’avant : elle ne peut pas être détachée seule. Annulez le relevé entier, puis importez-le à nouveau.',
  detachOutOfScope: 'Détachement impossible : cette ligne a payé une demande d’un centre que vous ne voyez pas. Demandez à un responsable de l’organisation.',
  /**
   * The file the line paid changed since (`laterLines`: lines of this statement handled since on it; `later`: statements
   * applied to it since; `byHand`: payments entered by hand on it since): what to undo first, named.
   */
  detachConflict: (numero: string, laterLines: number[], later: NamedStatement[], byHand: { amount: number; paymentDate: string }[]) =>
    `Détachement impossible : le paiement de la demande ${numero} a changé depuis que cette ligne l’a payée.${
      laterLines.length ? ` Détachez d’abord ${laterLines.length > 1 ? `les lignes ${laterLines.join(', ')}` : `la ligne ${laterLines[0]}`} de ce relevé.` : ''
    }${later.length ? ` ${laterStatements(later)}` : ''}${
      byHand.length
        ? ` ${byHand.length > 1 ? 'Paiements saisis' : 'Paiement saisi'} à la main depuis : ${byHand
            .map((payment) => `${formatEuros(payment.amount)} du ${formatIsoDay(payment.paymentDate)}`)
            .join(', ')}. Annulez-${byHand.length > 1 ? 'les' : 'le'} d’abord dans l’historique des paiements de la demande.`
        : ''
    }${laterLines.length || later.length || byHand.length ? '' : ' Annulez d’abord les changements plus récents.'}`,
  detachPaidByHand: (numero: string) =>
    `Détachement impossible : la demande ${numero} a été marquée « Payé » à la main depuis. « Payé » est un état final : cette ligne ne peut plus être détachée.`,
  /** Later statements whose lines were taken for this line's payment ('Déjà appliquée'): they would count nowhere. */
  detachCopied: (later: NamedStatement[]) =>
    `Détachement impossible : ${later.length > 1 ? 'les relevés' : 'le relevé'} ${statementsNamed(later)} ${
      later.length > 1 ? 'reprennent' : 'reprend'
    } le paiement de cette ligne comme déjà appliqué. Annulez d’abord ${later.length > 1 ? 'ces relevés' : 'ce relevé'}.`,
  /** The label of a line counted as a distinct payment of its file. */
  counted: (outcome: PaymentOutcome, day: string, reason: string) =>
    `${PAYMENT_OUTCOME_LABELS[outcome]} (paiement distinct compté le ${formatDate(day)} : ${reason})`,
  /** A cell's amount read, but beyond what a file can hold. */
  amountTooLarge: (value: string) => `montant « ${value} » trop élevé (${formatEuros(PRICE_MAX)} au plus)`,
  /** A control character in a cell (the tab and line breaks a quoted cell may hold aside), by its code. */
  controlCharacter: (character: string) =>
    `caractère de contrôle invalide (U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}) : retirez-le du fichier`,
} as const;

// ---------- the manual payment (drawer: 'Enregistrer un paiement') ----------

export const PAYMENT_FORM_MESSAGES = {
  date: 'La date de paiement est requise',
  amount: 'Le montant est requis',
  amountPositive: 'Le montant doit être supérieur à 0',
  amountInvalid: `Montant illisible : un montant positif avec 2 décimales au plus (ex : ${AMOUNT_EXAMPLE})`,
  amountTooLarge: `Le montant ne peut pas dépasser ${formatEuros(PRICE_MAX)}`,
  future: 'La date de paiement ne peut pas être postérieure à aujourd’hui',
} as const;

// ---------- the dashboard's receivables ----------

// ---------- the payment API's answers, typed once for the server and the browser ----------

/** A line of a statement as its file gives it. */
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

/** A statement line as the API shows it (preview and stored statement alike): matched to a file, with its outcome. */
export interface PaymentLine extends Omit<StatementLine, 'statementNumber' | 'period'> {
  outcome: PaymentOutcome;
  outcomeLabel: string;
  /** A stored line handled after the import: attached to a file by hand, set aside, or counted as a distinct payment (null: not handled). */
  resolution?: LineResolution | null;
  /** Its money reached no file and nobody handled it yet ('À traiter'); a kept statement's line only. */
  pending?: boolean;
  /** Partial: the amount still due; over-paid: the excess. */
  difference: number | null;
  /** What the insurer owes for the file (its complementary part). */
  expected: number | null;
  /** The file it names; `archived`: it takes no new money (takesNewMoney, ./archive), so nothing is counted or attached there. */
  dossier: { '@id': string; id: number; numeroDossier: string; archived: boolean } | null;
  /** Already applied: the statement that applied it before (null when it is repeated within this statement). */
  appliedIn: { '@id': string; id: number; createdAt: string } | null;
  /** A preview's line only: to be checked before the statement is applied (paymentLineWarning), and why in words. */
  warning?: PaymentLineWarning | null;
  warningText?: string | null;
}

/** Count and amount per outcome, the statement's total and the part that goes to files. */
export interface PaymentTotals {
  lines: number;
  amount: number;
  applied: number;
  /** The lines still to be handled ('À traiter') and their amount. */
  pending: { count: number; amount: number };
  /** The lines set aside ('Classée') and their amount: no longer counted under their outcome. */
  dismissed: { count: number; amount: number };
  byOutcome: Record<PaymentOutcome, { count: number; amount: number }>;
}

/**
 * A statement records something when it pays files or brings lines to be handled; one whose every line is already
 * applied or received records nothing, and is not applied (STATEMENT_MESSAGES.nothingToApply).
 */
export const recordsSomething = (totals: Pick<PaymentTotals, 'applied' | 'pending'>) => totals.applied > 0 || totals.pending.count > 0;

/** The PEC list's payment filter (`payment=`): its values. */
export const PAYMENT_FILTERS = ['unpaid', 'partial', 'paid', 'overpaid'] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];
export const PAYMENT_FILTER_LABELS: Record<PaymentFilter, string> = {
  unpaid: 'Facturé, aucun paiement',
  partial: 'Paiement partiel',
  paid: 'Payé (hors trop-perçu)',
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

/**
 * The billing dates of an age bucket on `today` (Paris), both days included: the range filter of the list behind the
 * figure (`dateFacturationEffective[after]`/`[before]`) and the stats' own condition.
 */
export function receivableAgeRange(today: string, age: ReceivableAge): { after?: string; before?: string } {
  const bucket = RECEIVABLE_AGES.find((a) => a.key === age)!;
  return {
    ...(bucket.toDays !== undefined ? { after: addDays(today, -bucket.toDays) } : {}),
    ...(bucket.fromDays > 0 ? { before: addDays(today, -bucket.fromDays) } : {}),
  };
}

/** The age bucket of a file billed on `billedOn` (yyyy-mm-dd), on `today`: the same ranges as the dashboard's figures. */
export function receivableAgeOf(today: string, billedOn: string | null): ReceivableAge | undefined {
  if (!billedOn) return undefined;
  return RECEIVABLE_AGES.find((age) => {
    const { after, before } = receivableAgeRange(today, age.key);
    return (!after || billedOn >= after) && (!before || billedOn <= before);
  })?.key;
}

/** Days from a file's billing to `today`, both yyyy-mm-dd. */
export const daysSince = (today: string, day: string) => Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000);
