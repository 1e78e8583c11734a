// PEC files: statuses and their labels, the lifecycle, prices and dates as typed, the messages of the forms and of the
// robot callbacks, the state of the DPEC and billing buttons, and the shaping of robot errors (spec sections 3, 4, 5,
// 7 and 8; domain.md). Their zod schemas are in ./pecSchemas: the screens that only list files do not build them.
// Shared by the browser and the server: one rule, one message.
import type { FileKind } from './fileKinds';
import { formatAmount, formatEuros, formatIsoDay, once } from './format';
import { EXPIRY_WARNING_DAYS } from './limits';
import { PEC_STATUS_LABELS, isPecStatus, pecStatusLabel, type PecStatus } from './pecStatus';

// ---------- statuses and lifecycle ----------

export { PEC_STATUSES, PEC_STATUS_LABELS, PULSING_STATUSES, isPecStatus, pecStatusLabel, type PecStatus } from './pecStatus';

/**
 * Status changes a user may make by hand (domain.md: along the lifecycle order, or back to draft from rejected).
 * `processing` belongs to the robot: it is entered when a DPEC run starts and left when it ends.
 */
export const MANUAL_TRANSITIONS: Record<PecStatus, readonly PecStatus[]> = {
  draft: ['pending'],
  processing: [],
  pending: ['approved', 'rejected'],
  approved: ['billed'],
  rejected: ['draft'],
  billed: ['paid'],
  paid: [],
};

// Recording a payment's permission, with the other keys (domain/permissions.ts), and here with the files' rules.
export { PAYMENT_PERMISSION } from './permissions';

/** Why `from` -> `to` is refused, in French; undefined when the change is allowed (or is no change). */
export function transitionError(from: string, to: string): string | undefined {
  if (from === to) return undefined;
  if (!isPecStatus(to)) return 'État invalide';
  if (!isPecStatus(from)) return undefined;
  if (from === 'processing') return 'Changement d’état impossible : un appel robot est en cours sur ce dossier.';
  const allowed = MANUAL_TRANSITIONS[from];
  if (allowed.includes(to)) return undefined;
  const choices = allowed.length
    ? `Depuis « ${PEC_STATUS_LABELS[from]} », seul${allowed.length > 1 ? 's' : ''} ${allowed.map((s) => `« ${PEC_STATUS_LABELS[s]} »`).join(' ou ')} ${allowed.length > 1 ? 'sont possibles' : 'est possible'}.`
    : `« ${PEC_STATUS_LABELS[from]} » est un état final.`;
  return `Changement d’état impossible : de « ${PEC_STATUS_LABELS[from]} » vers « ${PEC_STATUS_LABELS[to]} ». ${choices}`;
}

/** Statuses from which a DPEC run may start (a retry after a refusal or a pending answer included). */
export const DPEC_START_STATUSES: readonly PecStatus[] = ['draft', 'pending', 'rejected'];

// ---------- prerequisites of a DPEC run (spec section 2, "Prérequis manquants") ----------

export const PREREQUISITE_MESSAGES = {
  numeroDossierAssure: 'Le numéro de dossier patient est requis',
  numeroDevisAssure: 'Le numéro de devis est requis',
  mutual: 'Une mutuelle doit être sélectionnée',
  prescriber: 'Le prescripteur est requis pour un dossier optique',
  datePrescription: 'La date de prescription est requise pour un dossier optique',
} as const;

export const PREREQUISITE_LABELS = {
  numeroDossierAssure: 'Patient lié avec numéro de dossier patient',
  numeroDevisAssure: 'N° Devis Assuré',
  mutual: 'Mutuelle sélectionnée',
  prescriber: 'Prescripteur',
  datePrescription: 'Date de prescription',
} as const;

export type Prerequisite = keyof typeof PREREQUISITE_MESSAGES;

/**
 * Whether a DPEC run needs the prescription (prescriber and date), per kind of file (README, "Prescriptions"): an
 * optical request is judged on the prescription (its age sets the renewal and validity rules of the optical LPP);
 * hearing-aid and generic files keep the spec's three prerequisites.
 */
export const PRESCRIPTION_REQUIRED: Record<FileKind, boolean> = { audio: false, optical: true, generic: false };

interface PrerequisiteInput {
  numeroDossierAssure?: string | null;
  numeroDevisAssure?: string | null;
  mutual?: unknown;
  prescriber?: unknown;
  datePrescription?: string | null;
}

const blank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/** What a file lacks before a DPEC run, in the order of the warning; the prescription only where its kind needs it. */
export function missingPrerequisites(dossier: PrerequisiteInput, kind: FileKind = 'audio'): Prerequisite[] {
  const missing: Prerequisite[] = [];
  if (blank(dossier.numeroDossierAssure)) missing.push('numeroDossierAssure');
  if (blank(dossier.numeroDevisAssure)) missing.push('numeroDevisAssure');
  if (blank(dossier.mutual)) missing.push('mutual');
  if (PRESCRIPTION_REQUIRED[kind]) {
    if (blank(dossier.prescriber)) missing.push('prescriber');
    if (blank(dossier.datePrescription)) missing.push('datePrescription');
  }
  return missing;
}

// ---------- whether a DPEC run may start on a file (the single start, the bulk's confirmation) ----------

/** A file with a run open (its DPEC's status is « En cours »): said by the start's refusal and by the bulk's preview. */
export const RUN_IN_PROGRESS = 'Un appel robot est déjà en cours pour ce dossier.';

/** What a start refused for missing fields says, by their labels (PREREQUISITE_LABELS, or the billing's). */
export const prerequisitesMessage = (labels: readonly string[]) => `Prérequis manquants : ${labels.join(', ')}.`;

/**
 * Why a DPEC run may not start on a file, as its own fields tell, in the order the start checks them: archived, a
 * prerequisite missing, a run in progress (« En cours »), a status no run starts from (DPEC_START_STATUSES).
 * Undefined: it may start, unless what only the server knows refuses it (a twin's request at the insurer, a file
 * already waiting its turn in a bulk).
 */
export type DpecRefusal =
  { rule: 'archived' } | { rule: 'prerequisites'; missing: Prerequisite[] } | { rule: 'running' } | { rule: 'status'; status: string | null | undefined };

export function dpecRefusal(file: PrerequisiteInput & { archived?: boolean | null; status?: string | null }, kind: FileKind): DpecRefusal | undefined {
  if (file.archived) return { rule: 'archived' };
  const missing = missingPrerequisites(file, kind);
  if (missing.length) return { rule: 'prerequisites', missing };
  if (file.status === 'processing') return { rule: 'running' };
  if (!DPEC_START_STATUSES.includes(file.status as PecStatus)) return { rule: 'status', status: file.status };
  return undefined;
}

/**
 * A refusal's French reason, the same for every file it refuses (the bulk's preview groups files by it). The server
 * names an archived file in its own message (ARCHIVE_MESSAGES.robot).
 */
export function dpecRefusalReason(refusal: DpecRefusal): string {
  switch (refusal.rule) {
    case 'archived':
      return 'Demande archivée : le robot ne la traite plus. Restaurez-la d’abord.';
    case 'prerequisites':
      return prerequisitesMessage(refusal.missing.map((field) => PREREQUISITE_LABELS[field]));
    case 'running':
      return RUN_IN_PROGRESS;
    case 'status':
      return `Le DPEC ne peut pas être lancé pour un dossier « ${pecStatusLabel(refusal.status)} ».`;
  }
}

export const BILLING_PREREQUISITE_MESSAGES = {
  dpec: 'Le DPEC doit être accordé avant la facturation',
  numBilling: 'Le numéro de facture logiciel est requis',
  dateBilling: 'La date de facture logiciel est requise',
} as const;

// ---------- money and dates as people type them ----------

// Amounts in messages come from the formatter: their spaces never break a line ('1 450,50', '9 999 999 999,99 €').
export const PRICE_MESSAGE = `Prix invalide : max 2 décimales (ex: ${formatAmount(1450.5)})`;
// A date that is none, said by every date field (domain/format.ts: the generic field reads it without these rules).
export { DATE_MESSAGE } from './format';
/** The largest amount a numeric(12,2) column holds. */
export const PRICE_MAX = 9_999_999_999.99;
export const PRICE_RANGE_MESSAGE = `Prix invalide : le montant doit être compris entre 0 et ${formatEuros(PRICE_MAX)}`;

/** A typed price without its spaces (plain, non-breaking, thin) and euro sign: "1 450,50 €" -> "1450,50". */
export const compactPrice = (text: string) => text.replace(/[\s\u00a0\u202f]/g, '').replace(/€$/, '');

/**
 * A price as typed in a form or sent by the robot: 1450.5, "1450.50", "1 450,50" (spaces, non-breaking spaces and a
 * decimal comma accepted). Returns null for an empty value and undefined when the value is not a valid price
 * (negative, more than 2 decimals, not a number).
 */
export function parsePrice(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value > PRICE_MAX) return undefined;
    return Math.abs(Math.round(value * 100) - value * 100) < 1e-6 ? Math.round(value * 100) / 100 : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const compact = compactPrice(value);
  if (compact === '') return null;
  if (!/^\d+([.,]\d{1,2})?$/.test(compact)) return undefined;
  const n = Number(compact.replace(',', '.'));
  return n <= PRICE_MAX ? n : undefined;
}

/**
 * "2026-05-31", "2026-05-31T10:00:00" or "31/05/2026" -> "2026-05-31"; null when empty; undefined when unreadable. A
 * moment with its offset ("2026-11-30T23:30:00Z") is the day it is in France then (01/12): its written day would let a
 * date of tomorrow pass as today's.
 */
export function parseDateInput(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return null;
  if (/^\d{4}-\d{2}-\d{2}[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})$/i.test(text)) {
    const moment = new Date(text.replace(' ', 'T'));
    return Number.isNaN(moment.getTime()) || parseDateInput(text.slice(0, 10)) === undefined ? undefined : parseDateInput(todayInFrance(moment));
  }
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+)?$/.exec(text);
  const french = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (french) [y, m, d] = [Number(french[3]), Number(french[2]), Number(french[1])];
  else return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1900 || y > 2999) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Today in France, as yyyy-mm-dd (the day a date "in the future" is judged against). */
// One formatter for every call: building an Intl.DateTimeFormat costs more than formatting (1.7 % of the server's CPU
// under the load bench, where each file read checks its warnings against today).
const PARIS_DAY = once(() => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }));
export const todayInFrance = (now = new Date()) => PARIS_DAY().format(now);

/** The day `days` after `isoDay` (before it when negative), both yyyy-mm-dd. */
export function addDays(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * The agreements flagged as expiring soon (the dashboard's card, the list behind it, the daily notification, a file's
 * « Expire dans … » chip) end within the next EXPIRY_WARNING_DAYS days, today counted (« dans les 15 prochains
 * jours »: today and the 14 days after it). The days left on the last of them:
 */
const EXPIRY_WARNING_LAST = EXPIRY_WARNING_DAYS - 1;
/** That window's first and last days, both included, from `today` (yyyy-mm-dd). */
export const expiryWarningWindow = (today: string) => ({ first: today, last: addDays(today, EXPIRY_WARNING_LAST) });
/** Whether an agreement ending in `daysLeft` days (0: today) is in that window. */
export const endsWithinExpiryWarning = (daysLeft: number) => daysLeft >= 0 && daysLeft <= EXPIRY_WARNING_LAST;

// ---------- dates that can be true (issue 25) ----------

export const DATE_RULE_MESSAGES = {
  dateBillingFuture: 'La date de facture ne peut pas être dans le futur',
  dateBillingBeforeDpec: (dpec: string) => `La date de facture ne peut pas précéder la date du DPEC (${formatIsoDay(dpec)})`,
  datePeremptionBeforeDpec: (dpec: string) => `La date de péremption doit être postérieure à la date du DPEC (${formatIsoDay(dpec)})`,
  dateCreationFuture: 'La date du DPEC ne peut pas être dans le futur',
  dateFacturationFuture: 'La date de facturation ne peut pas être dans le futur',
  datePaiementBeforeInvoice: (invoice: string) => `La date de paiement ne peut pas précéder la date de facture (${formatIsoDay(invoice)})`,
} as const;

/** The file's invoice day: its invoice date, else the day it was billed; null before. */
export const invoiceDay = (file: { dateBilling?: string | null; dateFacturationEffective?: string | null }): string | null =>
  (file.dateBilling ?? file.dateFacturationEffective)?.slice(0, 10) ?? null;

/** Why a payment date (yyyy-mm-dd) is refused for its file's invoice day: an insurer pays what was invoiced. */
export const paymentBeforeInvoiceError = (date: string, invoice: string | null): string | undefined =>
  invoice && date < invoice ? DATE_RULE_MESSAGES.datePaiementBeforeInvoice(invoice) : undefined;

/** The DPEC's day: its creation date as the insurer gave it, else the day it was granted (in France); null before. */
export function dpecDay(file: { dateCreation?: string | null; dateValidation?: string | Date | null }): string | null {
  if (file.dateCreation) return file.dateCreation.slice(0, 10);
  return file.dateValidation ? todayInFrance(new Date(file.dateValidation)) : null;
}

/** Why an invoice date (yyyy-mm-dd) is refused for its DPEC's day: it follows the agreement. */
export const invoiceBeforeDpecError = (date: string, dpec: string | null): string | undefined =>
  dpec && date < dpec ? DATE_RULE_MESSAGES.dateBillingBeforeDpec(dpec) : undefined;

/** Why an invoice date (yyyy-mm-dd) is refused: after today in France, or before the DPEC's day; undefined when it may be. */
export function invoiceDateError(date: string, dpec: string | null, today = todayInFrance()): string | undefined {
  if (date > today) return DATE_RULE_MESSAGES.dateBillingFuture;
  return invoiceBeforeDpecError(date, dpec);
}

/** Why an agreement's expiry date is refused: it ends after the DPEC's day; undefined when it may be. */
export const expiryDateError = (expiry: string, dpec: string | null): string | undefined =>
  dpec && expiry <= dpec ? DATE_RULE_MESSAGES.datePeremptionBeforeDpec(dpec) : undefined;

/** The manual forms' messages: one per line, empty lines dropped. */
export function messagesFromText(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

// ---------- forms and API bodies (spec section 5, "PEC create" and "Billing dialog") ----------

export const PEC_MESSAGES = {
  network: 'Une plateforme doit être sélectionnée',
  shop: 'Un centre doit être sélectionné',
  mutual: 'Une mutuelle doit être sélectionnée',
  numeroDossierAssure: 'Le numéro de dossier patient est requis',
  numeroDevisAssure: 'Le numéro de devis est requis',
  numBilling: 'Le numéro de facture logiciel est requis',
  dateBilling: 'La date de facture logiciel est requise',
  status: 'État invalide',
  mutualOutsideNetwork: 'La mutuelle doit appartenir au réseau choisi',
  shopOutOfScope: 'Centre introuvable ou hors de votre périmètre.',
  numeroTaken: 'Ce numéro de dossier existe déjà dans votre organisation',
  prescriber: 'Prescripteur invalide',
  prescriberOutOfHolding: 'Le prescripteur doit appartenir à l’organisation du dossier',
  datePrescriptionFuture: 'La date de prescription ne peut pas être dans le futur',
  dateNaissanceFuture: 'La date de naissance ne peut pas être dans le futur',
  nomAssure: 'Le nom ne peut contenir que des lettres, des espaces, des traits d’union et des apostrophes',
  prenomAssure: 'Le prénom ne peut contenir que des lettres, des espaces, des traits d’union et des apostrophes',
  numeroAdherent: 'Le numéro d’adhérent ne peut contenir que des chiffres et des lettres',
  /** The statements find a paid file by its invoice number: once billed, it no longer changes. */
  invoiceLocked: 'Cette demande est facturée : son numéro et sa date de facture ne peuvent plus changer.',
  alreadyBilled: 'Ce dossier est déjà facturé.',
  alreadyPaid: 'Ce dossier est déjà facturé et payé.',
  /** One invoice number per file of an organisation: the statements find a file by it (case ignored, as they do). */
  invoiceNumberTaken: (numero: string) =>
    `Ce numéro de facture est déjà celui de la demande ${numero} : un relevé de paiement ne saurait plus lequel des deux dossiers est payé.`,
} as const;

/** The insured on a file (issue 29): what the insurer's portal asks for, nothing more. */
export const INSURED_NAME_MAX = 100;
export const CONTRACT_NUMBER_MAX = 30;
/** Letters (accented too), spaces, hyphens and apostrophes (straight or typographic). */
export const INSURED_NAME_PATTERN = /^[\p{L}][\p{L} '’-]*$/u;
export const CONTRACT_NUMBER_PATTERN = /^[A-Za-z0-9]+$/;

/** Networks whose creation form shows the contract-number notice (spec section 2). */
export function needsContractNumberNotice(networkName: string | null | undefined): boolean {
  const name = (networkName ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return name.includes('itelis') || name.includes('santeclair');
}
export const CONTRACT_NUMBER_NOTICE =
  'Pour ce réseau, le numéro de contrat de l’assuré est demandé : vérifiez-le dans le dossier patient et saisissez-le dans « N° d’adhérent ».';

// ---------- robot callbacks (spec section 7, "Manual callbacks") ----------

export const CALLBACK_TYPES = ['scraping', 'dpec', 'billing'] as const;
export type CallbackType = (typeof CALLBACK_TYPES)[number];

export const CALLBACK_MESSAGES = {
  externalId: 'L’identifiant du dossier (id_pecflow) est requis',
  success: 'Le champ success doit valoir true ou false',
  lpp: 'Code LPP invalide : 7 chiffres attendus',
  notFound: 'Dossier introuvable',
  forbidden: 'Accès refusé',
  badSignature: 'Signature du robot invalide',
} as const;

// ---------- what the API returns (spec section 3) ----------

/** A robot run: the DPEC (scraping then the request) or the billing. Server and browser name runs by it. */
export type RunKind = 'dpec' | 'billing';

/**
 * The run an execution belongs to: its run's kind, else its step's (a billing step's callback type starts with
 * 'billing'; an execution written before runs had a kind names its step only). The SQL twin is in
 * server/pec/robotFailures.ts (lastRobotFailureJson).
 */
export function robotRunKind(execution: { runKind?: string | null; callbackType?: string | null }): RunKind {
  return execution.runKind === 'billing' || (execution.callbackType ?? '').startsWith('billing') ? 'billing' : 'dpec';
}

export interface WorkflowExecutionView {
  id: number;
  success: boolean | null;
  startedAt: string;
  completedAt: string | null;
  workflow: { name: string };
  callbackType: string | null;
  /** running, success, pending, refused, error, timeout. */
  outcome: string | null;
  robotResponse: { messages: string[]; data: { callback_type: string | null; callback_payload: { messages: string[]; [key: string]: unknown } } } | null;
  /** Failure shaped for people (spec section 8); null on success. */
  error: RobotErrorView | null;
}

// ---------- buttons and robot steps (spec section 4) ----------

export type StepState = 'running' | 'success' | 'error';

const callbackTypeOf = (e: Pick<WorkflowExecutionView, 'robotResponse' | 'callbackType'>) => e.robotResponse?.data?.callback_type ?? e.callbackType ?? null;

/** The latest robot execution of one step, newest first in `executions` or not. */
function latestStep(executions: readonly WorkflowExecutionView[], types: string[]): WorkflowExecutionView | undefined {
  return executions
    .filter((e) => /robot/i.test(e.workflow?.name ?? '') && types.includes(callbackTypeOf(e) ?? ''))
    .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : b.id - a.id))[0];
}

function stepState(execution: WorkflowExecutionView | undefined): StepState | undefined {
  if (!execution) return undefined;
  if (!execution.completedAt) return 'running';
  return execution.success ? 'success' : 'error';
}

/** The two robot steps of the action tab: patient/device retrieval (scraping) and the pre-approval request (dpec). */
export function robotStepResults(executions: readonly WorkflowExecutionView[]) {
  const scraping = latestStep(executions, ['scraping', 'scraping_error']);
  const dpec = latestStep(executions, ['dpec', 'dpec_error']);
  const billing = latestStep(executions, ['billing', 'billing_error']);
  return {
    scraping: { state: stepState(scraping), execution: scraping },
    dpec: { state: stepState(dpec), execution: dpec },
    billing: { state: stepState(billing), execution: billing },
  };
}

/** The DPEC and billing buttons of an archived file: the robot refuses it until it is restored. */
export const ARCHIVED_BUTTON_LABEL = 'Demande archivée';

export interface ButtonState {
  label: string;
  disabled: boolean;
  /** A run is under way ('En cours…'): the button shows a spinner. What the screen reads, never the label. */
  running?: true;
  /** The step is done ('DPEC créé', 'Facturé'): the billing button shows it in green. */
  done?: true;
}

/** The DPEC button, in the spec's priority order. */
export function dpecButtonState(input: {
  canRun: boolean;
  dossier: PrerequisiteInput;
  /** The file's kind (its centre's specialty): which prerequisites apply. */
  kind?: FileKind;
  executions: readonly WorkflowExecutionView[];
  busy?: boolean;
  /** An archived file is no longer sent (issue 25). */
  archived?: boolean;
}): ButtonState {
  if (!input.canRun) return { label: 'Pas d’autorisation', disabled: true };
  if (input.archived) return { label: ARCHIVED_BUTTON_LABEL, disabled: true };
  if (missingPrerequisites(input.dossier, input.kind).length) return { label: 'Données manquantes', disabled: true };
  const steps = robotStepResults(input.executions);
  const running = input.executions.some((e) => !e.completedAt);
  if (input.busy || running) return { label: 'En cours…', disabled: true, running: true };
  if (steps.dpec.state === 'success') return { label: 'DPEC créé', disabled: true, done: true };
  if (steps.dpec.state === 'error' || steps.scraping.state === 'error') return { label: 'Réessayer', disabled: false };
  return { label: 'Créer DPEC', disabled: false };
}

/** The billing button: enabled with pec.create once the DPEC succeeded, until the file is billed. */
/** The insurer granted the request (approved, with its PEC number): the file may be billed. Server and UI share it. */
export const isDpecGranted = (dossier: { status?: string | null; numPec?: string | null }) => dossier.status === 'approved' && !!dossier.numPec;

/**
 * Spec section 4: enabled with pec.create once the DPEC succeeded, that is was granted (a request still pending at the
 * insurer has no PEC number to bill), and the file is not billed; "Facturé" once billed.
 */
export function billingButtonState(input: {
  canRun: boolean;
  dossier: { statutFacturation?: boolean | null; status?: string | null; numPec?: string | null };
  executions: readonly WorkflowExecutionView[];
  busy?: boolean;
  archived?: boolean;
}): ButtonState {
  if (input.dossier.statutFacturation) return { label: 'Facturé', disabled: true, done: true };
  if (input.archived) return { label: ARCHIVED_BUTTON_LABEL, disabled: true };
  const running = input.busy || input.executions.some((e) => !e.completedAt);
  if (running) return { label: 'En cours…', disabled: true, running: true };
  return { label: 'Facturer', disabled: !input.canRun || !isDpecGranted(input.dossier) };
}

// ---------- robot errors shaped for people (spec section 8) ----------

export const ROBOT_TIMEOUT_MESSAGE = '10 minutes écoulées, l’appel a échoué';
export const ROBOT_API_MARKER = 'Robot API returned';
export const NETWORK_CONFIG_TIP = 'Vérifiez la configuration de la mutuelle dans les paramètres du réseau.';

export interface RobotErrorView {
  title: string;
  message: string;
  tip?: string;
}

/** The first readable error text of a "Robot API returned 422: {...}" failure. */
export function firstRobotApiError(text: string): string {
  const after = text.slice(text.indexOf(ROBOT_API_MARKER) + ROBOT_API_MARKER.length);
  const rest = after.replace(/^\s*\d{3}\b[^:{[\n]*[:\-–]?\s*/, '').trim();
  const pick = (value: unknown): string | undefined => {
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (Array.isArray(value)) {
      for (const item of value) {
        const found = pick(item);
        if (found) return found;
      }
      return undefined;
    }
    if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      for (const key of ['errors', 'error', 'message', 'detail', 'messages', 'hydra:description', 'title']) {
        const found = pick(o[key]);
        if (found) return found;
      }
    }
    return undefined;
  };
  const jsonStart = rest.search(/[{[]/);
  if (jsonStart !== -1) {
    try {
      const found = pick(JSON.parse(rest.slice(jsonStart)));
      if (found) return found.slice(0, 300);
    } catch {
      // not JSON: the text itself
    }
  }
  const plain = rest
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const firstLine = plain.split(/(?<=[.!?])\s/)[0] ?? plain;
  return (firstLine || 'Le robot a refusé la demande').slice(0, 300);
}

/**
 * A robot failure as the API messages and the UI show it. `kind` is the run: a DPEC (its scraping or dpec step) or the
 * billing. "Robot API returned ..." keeps its first error text plus the tip about the network configuration;
 * scrapping_error gives the technical-error texts; the timeout its own message.
 */
export function shapeRobotError(messages: string | readonly string[] | null | undefined, kind: 'dpec' | 'billing'): RobotErrorView {
  const list = (typeof messages === 'string' ? [messages] : [...(messages ?? [])]).filter((m) => typeof m === 'string' && m.trim());
  const all = list.join('\n');
  const title = kind === 'billing' ? 'Échec de la facturation' : 'Échec du DPEC';
  // A run closed before the message took its typographic apostrophe (l'appel) is still a timeout.
  if (all.replaceAll("'", '’').includes(ROBOT_TIMEOUT_MESSAGE)) {
    return { title, message: ROBOT_TIMEOUT_MESSAGE, tip: 'Relancez la demande ; si le problème persiste, contactez votre administrateur.' };
  }
  const apiError = list.find((m) => m.includes(ROBOT_API_MARKER));
  if (apiError) return { title, message: firstRobotApiError(apiError), tip: NETWORK_CONFIG_TIP };
  if (/scrap+ing_error/i.test(all)) {
    return kind === 'billing'
      ? { title, message: 'Erreur technique lors de la facturation', tip: 'Vérifiez que le DPEC est bien validé.' }
      : { title, message: 'Erreur technique du service DPEC', tip: 'Contactez votre administrateur si le problème persiste.' };
  }
  return { title, message: list[0]?.trim().slice(0, 500) || 'Une erreur technique est survenue' };
}
