// PEC files: statuses and their labels, the lifecycle, validation of the forms and of the robot callbacks, the state of
// the DPEC and billing buttons, and the shaping of robot errors (spec sections 3, 4, 5, 7 and 8; domain.md).
// Shared by the browser and the server: one rule, one message.
import { z } from 'zod';
import { LENS_TYPES, measureFits, OPTICAL_CLASSES, OPTICAL_MESSAGES, OPTICAL_RULES, parseMeasure, type MeasureRule } from './optical';
import type { FileKind } from './fileKinds';
import { LONG_TEXT_MAX, optionalReference, optionalText, reference, requiredText } from './validation';

// ---------- statuses and lifecycle ----------

export const PEC_STATUSES = ['draft', 'processing', 'pending', 'approved', 'rejected', 'billed', 'paid'] as const;
export type PecStatus = (typeof PEC_STATUSES)[number];

export const PEC_STATUS_LABELS: Record<PecStatus, string> = {
  draft: 'Brouillon',
  processing: 'En cours',
  pending: 'En attente',
  approved: 'Approuvé',
  rejected: 'Refusé',
  billed: 'Facturé',
  paid: 'Payé',
};

/** The pending badge pulses (spec section 4). */
export const PULSING_STATUSES: readonly PecStatus[] = ['pending'];

export const isPecStatus = (value: unknown): value is PecStatus => typeof value === 'string' && (PEC_STATUSES as readonly string[]).includes(value);

export const pecStatusLabel = (status: string | null | undefined) => (isPecStatus(status) ? PEC_STATUS_LABELS[status] : 'Non défini');

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

/** Recording a payment (billed -> paid, a statement, a manual payment) needs this permission. */
export const PAYMENT_PERMISSION = 'billing.payment';

/** Why `from` -> `to` is refused, in French; undefined when the change is allowed (or is no change). */
export function transitionError(from: string, to: string): string | undefined {
  if (from === to) return undefined;
  if (!isPecStatus(to)) return 'État invalide';
  if (!isPecStatus(from)) return undefined;
  if (from === 'processing') return "Changement d'état impossible : un appel robot est en cours sur ce dossier.";
  const allowed = MANUAL_TRANSITIONS[from];
  if (allowed.includes(to)) return undefined;
  const choices = allowed.length
    ? `Depuis « ${PEC_STATUS_LABELS[from]} », seul${allowed.length > 1 ? 's' : ''} ${allowed.map((s) => `« ${PEC_STATUS_LABELS[s]} »`).join(' ou ')} ${allowed.length > 1 ? 'sont possibles' : 'est possible'}.`
    : `« ${PEC_STATUS_LABELS[from]} » est un état final.`;
  return `Changement d'état impossible : de « ${PEC_STATUS_LABELS[from]} » vers « ${PEC_STATUS_LABELS[to]} ». ${choices}`;
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

export const BILLING_PREREQUISITE_MESSAGES = {
  dpec: 'Le DPEC doit être accordé avant la facturation',
  numBilling: 'Le numéro de facture logiciel est requis',
  dateBilling: 'La date de facture logiciel est requise',
} as const;

// ---------- money and dates as people type them ----------

export const PRICE_MESSAGE = 'Prix invalide : max 2 décimales (ex: 1 450,50)';
export const DATE_MESSAGE = 'Date invalide (jj/mm/aaaa)';
/** The largest amount a numeric(12,2) column holds. */
export const PRICE_MAX = 9_999_999_999.99;
export const PRICE_RANGE_MESSAGE = 'Prix invalide : le montant doit être compris entre 0 et 9 999 999 999,99 €';

/** A typed price without its spaces (plain, non-breaking, thin) and euro sign: "1 450,50 €" -> "1450,50". */
const compactPrice = (text: string) => text.replace(/[\s\u00a0\u202f]/g, '').replace(/€$/, '');

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

/** An optional price (null when empty) with the spec's message. */
export const priceField = () =>
  z.unknown().transform((value, ctx) => {
    const price = parsePrice(value);
    if (price === undefined) {
      // A readable amount that is negative or too large is told so; anything else gets the spec's message.
      const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number(compactPrice(value).replace(',', '.')) : NaN;
      ctx.addIssue({ code: 'custom', message: Number.isFinite(amount) && (amount < 0 || amount > PRICE_MAX) ? PRICE_RANGE_MESSAGE : PRICE_MESSAGE });
      return z.NEVER;
    }
    return price;
  });

/** "2026-05-31", "2026-05-31T10:00:00Z" or "31/05/2026" -> "2026-05-31"; null when empty; undefined when unreadable. */
export function parseDateInput(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return null;
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  const french = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (french) [y, m, d] = [Number(french[3]), Number(french[2]), Number(french[1])];
  else return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1900 || y > 2999) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** An optional date (null when empty). */
export const dateField = (message = DATE_MESSAGE) =>
  z.unknown().transform((value, ctx) => {
    const date = parseDateInput(value);
    if (date === undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return date;
  });

/** Today in France, as yyyy-mm-dd (the day a date "in the future" is judged against). */
// One formatter for every call: building an Intl.DateTimeFormat costs more than formatting (1.7 % of the server's CPU
// under the load bench, where each file read checks its warnings against today).
const PARIS_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
export const todayInFrance = (now = new Date()) => PARIS_DAY.format(now);

/** An optional date that may not be after today (a prescription, a birth date). */
export const pastDateField = (futureMessage: string) => dateField().refine((day) => day === null || day <= todayInFrance(), { message: futureMessage });

/** A required date. */
const requiredDate = (message: string) =>
  z.unknown().transform((value, ctx) => {
    const date = parseDateInput(value);
    if (date === undefined || date === null) {
      ctx.addIssue({ code: 'custom', message: date === null ? message : DATE_MESSAGE });
      return z.NEVER;
    }
    return date;
  });

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
} as const;

/** The prescription's fields, in the form and in the API body (issue 15). */
const prescriptionFields = {
  prescriber: optionalReference('prescribers', PEC_MESSAGES.prescriber),
  datePrescription: pastDateField(PEC_MESSAGES.datePrescriptionFuture).optional(),
  dateNaissanceBeneficiaire: pastDateField(PEC_MESSAGES.dateNaissanceFuture).optional(),
};

const selectId = (message: string) => z.coerce.number({ error: message }).int(message).min(1, message);

/** The creation form of the drawer ("Informations PEC"): ids of the selects. */
export const pecFormSchema = z.object({
  numeroDossier: optionalText(50),
  networkId: selectId(PEC_MESSAGES.network),
  shopId: selectId(PEC_MESSAGES.shop),
  mutualId: selectId(PEC_MESSAGES.mutual),
  numeroDossierAssure: requiredText(1, PEC_MESSAGES.numeroDossierAssure, 100),
  numeroDevisAssure: requiredText(1, PEC_MESSAGES.numeroDevisAssure, 100),
  commentaire: optionalText(LONG_TEXT_MAX),
  ...prescriptionFields,
});
export type PecFormInput = z.input<typeof pecFormSchema>;

/**
 * The API body of POST and PUT /api/pec_dossiers (references as IRIs). PATCH takes any subset of it, typically
 * {numBilling, dateBilling}. `status` is ignored on creation (always draft) and checked against the lifecycle on edit.
 */
export const pecDossierSchema = z.object({
  numeroDossier: optionalText(50),
  shop: reference('shops', PEC_MESSAGES.shop),
  network: optionalReference('networks', PEC_MESSAGES.network),
  mutual: reference('mutuals', PEC_MESSAGES.mutual),
  numeroDossierAssure: requiredText(1, PEC_MESSAGES.numeroDossierAssure, 100),
  numeroDevisAssure: requiredText(1, PEC_MESSAGES.numeroDevisAssure, 100),
  commentaire: optionalText(LONG_TEXT_MAX),
  status: z.enum(PEC_STATUSES, { error: PEC_MESSAGES.status }).optional(),
  totalTtc: priceField().optional(),
  numBilling: requiredText(1, PEC_MESSAGES.numBilling, 100).optional(),
  dateBilling: requiredDate(PEC_MESSAGES.dateBilling).optional(),
  ...prescriptionFields,
});

/** The billing dialog (invoice number and date), sent as PATCH merge-patch just before the billing run. */
export const pecBillingSchema = z.object({
  numBilling: requiredText(1, PEC_MESSAGES.numBilling, 100),
  dateBilling: requiredDate(PEC_MESSAGES.dateBilling),
});

/** Networks whose creation form shows the contract-number notice (spec section 2). */
export function needsContractNumberNotice(networkName: string | null | undefined): boolean {
  const name = (networkName ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return name.includes('itelis') || name.includes('santeclair');
}
export const CONTRACT_NUMBER_NOTICE = "Pour ce réseau, le numéro de contrat de l'assuré est demandé : vérifiez-le dans le dossier patient.";

// ---------- robot callbacks (spec section 7, "Manual callbacks") ----------

export const CALLBACK_TYPES = ['scraping', 'dpec', 'billing'] as const;
export type CallbackType = (typeof CALLBACK_TYPES)[number];

export const CALLBACK_MESSAGES = {
  externalId: "L'identifiant du dossier (id_pecflow) est requis",
  success: 'Le champ success doit valoir true ou false',
  lpp: 'Code LPP invalide : 7 chiffres attendus',
  notFound: 'Dossier introuvable',
  forbidden: 'Accès refusé',
  badSignature: 'Signature du robot invalide',
} as const;

const yesNo = z
  .union([z.boolean(), z.enum(['oui', 'non', 'true', 'false', 'Oui', 'Non', 'OUI', 'NON', '1', '0', ''])], { error: 'Valeur oui/non attendue' })
  .transform((v) => (typeof v === 'boolean' ? v : v === '' ? undefined : ['oui', 'true', '1'].includes(v.toLowerCase())));

const booleanInput = z.union([z.boolean(), z.enum(['true', 'false'])], { error: CALLBACK_MESSAGES.success }).transform((v) => v === true || v === 'true');

const messagesInput = z
  .union([z.array(z.string().max(2000, 'Message trop long (2000 caractères au plus)')).max(50, 'Au plus 50 messages'), z.string().max(20_000)])
  .optional()
  .transform((v) => (typeof v === 'string' ? messagesFromText(v) : (v ?? []).map((m) => m.trim()).filter(Boolean)));

const callbackBase = {
  id_pecflow: z.string({ error: CALLBACK_MESSAGES.externalId }).trim().min(1, CALLBACK_MESSAGES.externalId).max(100, CALLBACK_MESSAGES.externalId),
  success: booleanInput,
  messages: messagesInput,
  /** The run the robot answers for (echoed from the job); optional. */
  run_id: z.coerce.number().int().positive().optional().catch(undefined),
};

/** An optional 7-digit LPP code (a number is read as its digits); null when empty. */
const lppCode = () =>
  z
    .preprocess(
      (v) => (v === '' || v === null ? undefined : typeof v === 'number' ? String(v) : v),
      z
        .string({ error: CALLBACK_MESSAGES.lpp })
        .trim()
        .regex(/^\d{7}$/, CALLBACK_MESSAGES.lpp)
        .optional(),
    )
    .transform((v) => v ?? null);

/** A 100 % Santé class as the robot writes it ("II", "classe a"...): one of `choices`, or null when empty. */
const classField = <T extends string>(choices: readonly [T, ...T[]], message: string) =>
  z
    .preprocess(
      (v) =>
        v === '' || v === null
          ? undefined
          : typeof v === 'string'
            ? v
                .trim()
                .toUpperCase()
                .replace(/^CLASSE\s*/, '')
            : v,
      z.enum(choices, { error: message }).optional(),
    )
    .transform((v) => v ?? null);

export const deviceInputSchema = z.object({
  fabricant: optionalText(),
  marque: optionalText(),
  modele: optionalText(),
  total_ttc: priceField().optional(),
  code_lpp: lppCode(),
  premier_appareillage: yesNo.optional(),
  forme: optionalText(100),
  classe: classField(['I', 'II'], 'Classe I ou II attendue'),
});

// ---------- an optician's equipment in a scraping callback (issue 15; shapes and rules in ./optical) ----------

/** An optional measure within its rule (sphere, cylinder, axis, addition): null when empty. */
const measureField = (rule: MeasureRule) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      const n = parseMeasure(value);
      if (n === null) return null;
      if (n === undefined || !measureFits(n, rule)) {
        ctx.addIssue({ code: 'custom', message: rule.message });
        return z.NEVER;
      }
      return n;
    });

/** The refractive index as printed ("1.6", "1,67"), kept as text with a dot. */
const indexField = () => measureField(OPTICAL_RULES.indice).transform((n) => (n === null ? null : String(n)));

/** Treatments as a list or as one line of the manual form ("antireflet, durci"). */
const treatmentsField = () =>
  z
    .union([z.array(z.string().trim().max(100, OPTICAL_MESSAGES.traitements)).max(10, OPTICAL_MESSAGES.traitements), z.string().max(1100)], {
      error: OPTICAL_MESSAGES.traitements,
    })
    .nullish()
    .transform((v, ctx) => {
      const list = (typeof v === 'string' ? v.split(/[,;\n]/) : (v ?? [])).map((t) => t.trim()).filter(Boolean);
      if (list.length > 10 || list.some((t) => t.length > 100)) {
        ctx.addIssue({ code: 'custom', message: OPTICAL_MESSAGES.traitements });
        return z.NEVER;
      }
      return list;
    });

export const lensInputSchema = z
  .object({
    type: z
      .preprocess(
        (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v),
        z.enum(LENS_TYPES, { error: OPTICAL_MESSAGES.lensType }).optional(),
      )
      .transform((v) => v ?? null),
    sphere: measureField(OPTICAL_RULES.sphere),
    cylindre: measureField(OPTICAL_RULES.cylindre),
    axe: measureField(OPTICAL_RULES.axe),
    addition: measureField(OPTICAL_RULES.addition),
    indice: indexField(),
    traitements: treatmentsField(),
    prix: priceField()
      .optional()
      .transform((v) => v ?? null),
    code_lpp: lppCode(),
  })
  .transform((lens, ctx) => {
    const { type, ...rest } = lens;
    const given = Object.values(rest).some((v) => (Array.isArray(v) ? v.length > 0 : v !== null));
    // A lens with no value at all is no lens (an eye left empty in the manual form).
    if (!given && type === null) return null;
    if (type === null) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: OPTICAL_MESSAGES.lensTypeRequired });
      return z.NEVER;
    }
    return { ...rest, type };
  });

export const opticalEquipmentInputSchema = z
  .object({
    classe: classField(OPTICAL_CLASSES, OPTICAL_MESSAGES.classe),
    monture: z
      .object({
        marque: optionalText(),
        modele: optionalText(),
        prix: priceField()
          .optional()
          .transform((v) => v ?? null),
        code_lpp: lppCode(),
      })
      .nullish(),
    verres: z.object({ OD: lensInputSchema.nullish(), OG: lensInputSchema.nullish() }).nullish(),
  })
  .transform((e) => {
    const monture = {
      marque: e.monture?.marque ?? null,
      modele: e.monture?.modele ?? null,
      prix: e.monture?.prix ?? null,
      code_lpp: e.monture?.code_lpp ?? null,
    };
    const verres = { OD: e.verres?.OD ?? null, OG: e.verres?.OG ?? null };
    // Nothing entered (the manual form left blank): no equipment.
    if (e.classe === null && Object.values(monture).every((v) => v === null) && !verres.OD && !verres.OG) return null;
    return { classe: e.classe, monture, verres };
  });

export const scrapingCallbackSchema = z.object({
  ...callbackBase,
  appareil: z
    .object({
      offre_100_sante: yesNo.optional(),
      droit: deviceInputSchema.nullish(),
      gauche: deviceInputSchema.nullish(),
    })
    .nullish(),
  /** An optician's file: its frame and lenses (README, "Callback formats"). */
  equipement_optique: opticalEquipmentInputSchema.nullish(),
});

export const dpecCallbackSchema = z.object({
  ...callbackBase,
  num_dossier: optionalText(100),
  num_pec: optionalText(100),
  prix_frais_reels: priceField().optional(),
  base_ss: priceField().optional(),
  part_ss: priceField().optional(),
  part_complementaire: priceField().optional(),
  reste_charge: priceField().optional(),
  date_peremption: dateField().optional(),
  date_creation: dateField().optional(),
  /** The insurer's refusal: the file becomes "Refusé" with this reason. */
  detail_refus: optionalText(LONG_TEXT_MAX),
});

export const billingCallbackSchema = z.object({
  ...callbackBase,
  date_facturation_effective: dateField().optional(),
});

export const CALLBACK_SCHEMAS = { scraping: scrapingCallbackSchema, dpec: dpecCallbackSchema, billing: billingCallbackSchema } as const;

export type ScrapingCallback = z.output<typeof scrapingCallbackSchema>;
export type DpecCallback = z.output<typeof dpecCallbackSchema>;
export type BillingCallback = z.output<typeof billingCallbackSchema>;
export type DeviceInput = z.output<typeof deviceInputSchema>;
export type OpticalEquipmentInput = NonNullable<z.output<typeof opticalEquipmentInputSchema>>;

// ---------- what the API returns (spec section 3) ----------

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

export interface ButtonState {
  label: string;
  disabled: boolean;
}

/** The DPEC button, in the spec's priority order. */
export function dpecButtonState(input: {
  canRun: boolean;
  dossier: PrerequisiteInput;
  /** The file's kind (its centre's specialty): which prerequisites apply. */
  kind?: FileKind;
  executions: readonly WorkflowExecutionView[];
  busy?: boolean;
}): ButtonState {
  if (!input.canRun) return { label: "Pas d'autorisation", disabled: true };
  if (missingPrerequisites(input.dossier, input.kind).length) return { label: 'Données manquantes', disabled: true };
  const steps = robotStepResults(input.executions);
  const running = input.executions.some((e) => !e.completedAt);
  if (input.busy || running) return { label: 'En cours...', disabled: true };
  if (steps.dpec.state === 'success') return { label: 'DPEC créé', disabled: true };
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
}): ButtonState {
  if (input.dossier.statutFacturation) return { label: 'Facturé', disabled: true };
  const running = input.busy || input.executions.some((e) => !e.completedAt);
  return { label: running ? 'En cours...' : 'Facturer', disabled: !input.canRun || !isDpecGranted(input.dossier) || running };
}

// ---------- robot errors shaped for people (spec section 8) ----------

export const ROBOT_TIMEOUT_MESSAGE = "10 minutes écoulées, l'appel a échoué";
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
  if (all.includes(ROBOT_TIMEOUT_MESSAGE)) {
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
