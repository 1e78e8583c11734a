// The zod schemas of PEC files: the creation form, the API body, the billing dialog, the robot callbacks and the
// manual payment (spec sections 5 and 7; issue 15), built from the rules and messages of ./pec and ./payments. Apart
// from them so that the pages that only show files (the list, the dashboard, the shell's menu) do not build them at
// start-up: on a phone that is a tenth of a second.
// Shared by the browser and the server: one rule, one message.
import { z } from 'zod';
import { LENS_TYPES, measureFits, OPTICAL_CLASSES, OPTICAL_MESSAGES, OPTICAL_RULES, parseMeasure, type MeasureRule } from './optical';
import { AMOUNT_CHECKED_FIELD, PAYMENT_CANCEL_MESSAGES, PAYMENT_FORM_MESSAGES, PAYMENT_STATEMENT_LIMITS, STATEMENT_MESSAGES } from './payments';
import { AMOUNTS_CHECKED_PARAM } from './confirmations';
import { FOLLOW_UP_MESSAGES, followUpDateError, NOTE_MAX, NOTE_MESSAGES, OWNER_FILTER_NOBODY } from './followUps';
import { ARCHIVE_MESSAGES, ARCHIVE_NOTE_MAX, ARCHIVE_REASONS } from './archive';
import { DOCUMENT_MESSAGES, ROBOT_DOCUMENT_KINDS } from './documents';
import { LONG_TEXT_MAX, ONE_LINE_NUMBER_MESSAGE, oneLine, optionalReference, optionalText, reference, requiredText } from './validation';
import {
  CALLBACK_MESSAGES,
  compactPrice,
  CONTRACT_NUMBER_MAX,
  CONTRACT_NUMBER_PATTERN,
  DATE_MESSAGE,
  DATE_RULE_MESSAGES,
  expiryDateError,
  INSURED_NAME_MAX,
  INSURED_NAME_PATTERN,
  invoiceBeforeDpecError,
  messagesFromText,
  parseDateInput,
  parsePrice,
  paymentBeforeInvoiceError,
  PEC_MESSAGES,
  PEC_STATUSES,
  PRICE_MAX,
  PRICE_MESSAGE,
  PRICE_RANGE_MESSAGE,
  todayInFrance,
} from './pec';

// ---------- money and dates as people type them ----------

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

/** An optional date that may not be after today (a prescription, a birth date). */
export const pastDateField = (futureMessage: string) => dateField().refine((day) => day === null || day <= todayInFrance(), { message: futureMessage });

/** An optional date that may not be after today, with its own message (a DPEC's day, a billing's). */
const notFutureDateField = (futureMessage: string) => dateField().refine((day) => day === null || day <= todayInFrance(), { message: futureMessage });

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

// ---------- forms and API bodies (spec section 5, "PEC create" and "Billing dialog") ----------

/** The software's invoice date: required, not after today (issue 25; the DPEC's day is checked with the file). */
const invoiceDate = () => requiredDate(PEC_MESSAGES.dateBilling).refine((day) => day <= todayInFrance(), { message: DATE_RULE_MESSAGES.dateBillingFuture });

/** The prescription's fields, in the form and in the API body (issue 15). */
const prescriptionFields = {
  prescriber: optionalReference('prescribers', PEC_MESSAGES.prescriber),
  datePrescription: pastDateField(PEC_MESSAGES.datePrescriptionFuture).optional(),
  dateNaissanceBeneficiaire: pastDateField(PEC_MESSAGES.dateNaissanceFuture).optional(),
};

/** The insured's names and contract number (issue 29): optional; empty becomes null. */
const insuredFields = {
  nomAssure: optionalText(INSURED_NAME_MAX)
    .refine((v) => v === null || INSURED_NAME_PATTERN.test(v), { message: PEC_MESSAGES.nomAssure })
    .optional(),
  prenomAssure: optionalText(INSURED_NAME_MAX)
    .refine((v) => v === null || INSURED_NAME_PATTERN.test(v), { message: PEC_MESSAGES.prenomAssure })
    .optional(),
  // Copied from the card as printed (« ADH 778 990 »): kept without its spaces.
  numeroAdherent: z
    .preprocess((v) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v), optionalText(CONTRACT_NUMBER_MAX))
    .refine((v) => v === null || CONTRACT_NUMBER_PATTERN.test(v), { message: PEC_MESSAGES.numeroAdherent })
    .optional(),
};

/** The numbers a file is found by (statements, the insurer's portal, the list's search): on one line each. */
const optionalNumber = (max: number) => optionalText(max).refine(oneLine, { message: ONE_LINE_NUMBER_MESSAGE });
const requiredNumber = (message: string, max = 100) => requiredText(1, message, max).refine(oneLine, { message: ONE_LINE_NUMBER_MESSAGE });

const selectId = (message: string) => z.coerce.number({ error: message }).int(message).min(1, message);

/** The creation form of the drawer ("Informations PEC"): ids of the selects. */
export const pecFormSchema = z.object({
  numeroDossier: optionalNumber(50),
  networkId: selectId(PEC_MESSAGES.network),
  shopId: selectId(PEC_MESSAGES.shop),
  mutualId: selectId(PEC_MESSAGES.mutual),
  numeroDossierAssure: requiredNumber(PEC_MESSAGES.numeroDossierAssure),
  numeroDevisAssure: requiredNumber(PEC_MESSAGES.numeroDevisAssure),
  commentaire: optionalText(LONG_TEXT_MAX),
  ...prescriptionFields,
  ...insuredFields,
});
export type PecFormInput = z.input<typeof pecFormSchema>;

/**
 * The API body of POST and PUT /api/pec_dossiers (references as IRIs). PATCH takes any subset of it, typically
 * {numBilling, dateBilling}. `status` is ignored on creation (always draft) and checked against the lifecycle on edit.
 */
export const pecDossierSchema = z.object({
  numeroDossier: optionalNumber(50),
  shop: reference('shops', PEC_MESSAGES.shop),
  network: optionalReference('networks', PEC_MESSAGES.network),
  mutual: reference('mutuals', PEC_MESSAGES.mutual),
  numeroDossierAssure: requiredNumber(PEC_MESSAGES.numeroDossierAssure),
  numeroDevisAssure: requiredNumber(PEC_MESSAGES.numeroDevisAssure),
  commentaire: optionalText(LONG_TEXT_MAX),
  status: z.enum(PEC_STATUSES, { error: PEC_MESSAGES.status }).optional(),
  totalTtc: priceField().optional(),
  numBilling: requiredNumber(PEC_MESSAGES.numBilling).optional(),
  // Not after today here; not before the DPEC's day is checked against the file (server hook, billing dialog).
  dateBilling: invoiceDate().optional(),
  ...prescriptionFields,
  ...insuredFields,
  // Follow-ups (./followUps): who follows the file and when to chase the insurer.
  owner: optionalReference('users', FOLLOW_UP_MESSAGES.owner),
  followUpDate: dateField()
    .superRefine((day, ctx) => {
      const error = day ? followUpDateError(day, todayInFrance()) : undefined;
      if (error) ctx.addIssue({ code: 'custom', message: error });
    })
    .optional(),
  // Archiving (./archive): the flag here, its reason checked by pecArchiveSchema when a file is archived.
  archived: z.boolean({ error: ARCHIVE_MESSAGES.archived }).optional(),
  archiveReason: z.unknown().optional(),
  archiveNote: z.unknown().optional(),
});

/** The archive dialog and the archiving PATCH (./archive): a reason, and its text when it is 'Autre'. */
export const pecArchiveSchema = z
  .object({
    archiveReason: z.enum(ARCHIVE_REASONS, { error: ARCHIVE_MESSAGES.reason }),
    archiveNote: optionalText(ARCHIVE_NOTE_MAX),
  })
  .superRefine((value, ctx) => {
    if (value.archiveReason === 'other' && !value.archiveNote) ctx.addIssue({ code: 'custom', path: ['archiveNote'], message: ARCHIVE_MESSAGES.note });
  })
  .transform((value) => ({ archiveReason: value.archiveReason, archiveNote: value.archiveReason === 'other' ? value.archiveNote : null }));
export type PecArchiveInput = z.input<typeof pecArchiveSchema>;

/** The billing dialog (invoice number and date), sent as PATCH merge-patch just before the billing run. */
export const pecBillingSchema = z.object({
  numBilling: requiredNumber(PEC_MESSAGES.numBilling),
  dateBilling: invoiceDate(),
});

/** The bulk 'Assigner à…' dialog: a colleague's IRI, or OWNER_FILTER_NOBODY for nobody (sent as null). */
export const pecBulkAssignSchema = z
  .object({ owner: z.string({ error: FOLLOW_UP_MESSAGES.owner }).min(1, FOLLOW_UP_MESSAGES.owner) })
  .transform(({ owner }) => ({ owner: owner === OWNER_FILTER_NOBODY ? null : owner }));

/** The bulk billing dialog (domain/bulk.ts): one invoice date, numbers from a pattern (`FAC-{n}`) and its first number. */
export const pecBulkBillingSchema = z.object({
  dateBilling: invoiceDate(),
  pattern: requiredNumber(PEC_MESSAGES.numBilling, 90),
  start: z.coerce.number({ error: 'Nombre entier attendu' }).int('Nombre entier attendu').min(0, 'Nombre entier attendu'),
});

/** The billing dialog of a file whose DPEC is dated `dpec` (dpecDay): its invoice cannot be older (invoiceDateError). */
export const pecBillingSchemaFor = (dpec: string | null) =>
  pecBillingSchema.superRefine((value, ctx) => {
    // The future is refused by the field itself (invoiceDate): here the DPEC's day only.
    const refused = typeof value.dateBilling === 'string' ? invoiceBeforeDpecError(value.dateBilling, dpec) : undefined;
    if (refused) ctx.addIssue({ code: 'custom', path: ['dateBilling'], message: refused });
  });

// ---------- robot callbacks (spec section 7, "Manual callbacks") ----------

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

export const dpecCallbackSchema = z
  .object({
    ...callbackBase,
    num_dossier: optionalText(100),
    num_pec: optionalText(100),
    prix_frais_reels: priceField().optional(),
    base_ss: priceField().optional(),
    part_ss: priceField().optional(),
    part_complementaire: priceField().optional(),
    reste_charge: priceField().optional(),
    date_peremption: dateField().optional(),
    date_creation: notFutureDateField(DATE_RULE_MESSAGES.dateCreationFuture).optional(),
    /** The insurer's refusal: the file becomes "Refusé" with this reason. */
    detail_refus: optionalText(LONG_TEXT_MAX),
  })
  .superRefine((value, ctx) => {
    // The agreement ends after the DPEC's day (against the file's own day when this result gives none: server/robot/runs.ts).
    const refused = value.date_peremption && value.date_creation ? expiryDateError(value.date_peremption, value.date_creation) : undefined;
    if (refused) ctx.addIssue({ code: 'custom', path: ['date_peremption'], message: refused });
  });

export const billingCallbackSchema = z.object({
  ...callbackBase,
  date_facturation_effective: notFutureDateField(DATE_RULE_MESSAGES.dateFacturationFuture).optional(),
});

/**
 * A document the robot posts back (POST /api/callbacks/documents, issue 29): the insurer's agreement or letter, its
 * content in base64 inside the signed JSON body. Its checks (type by its bytes, size) are the uploads' (server side).
 */
export const documentCallbackSchema = z.object({
  id_pecflow: callbackBase.id_pecflow,
  run_id: callbackBase.run_id,
  kind: z.enum(ROBOT_DOCUMENT_KINDS, { error: DOCUMENT_MESSAGES.robotKindInvalid }),
  name: z.string({ error: DOCUMENT_MESSAGES.fileRequired }).trim().min(1, DOCUMENT_MESSAGES.fileRequired).max(255),
  content_base64: z
    .string({ error: DOCUMENT_MESSAGES.contentInvalid })
    .transform((v) => v.replace(/\s+/g, ''))
    .refine((v) => v.length > 0 && v.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(v), DOCUMENT_MESSAGES.contentInvalid),
});
export type DocumentCallback = z.infer<typeof documentCallbackSchema>;

export const CALLBACK_SCHEMAS = { scraping: scrapingCallbackSchema, dpec: dpecCallbackSchema, billing: billingCallbackSchema } as const;

export type ScrapingCallback = z.output<typeof scrapingCallbackSchema>;
export type DpecCallback = z.output<typeof dpecCallbackSchema>;
export type BillingCallback = z.output<typeof billingCallbackSchema>;
export type DeviceInput = z.output<typeof deviceInputSchema>;
export type OpticalEquipmentInput = NonNullable<z.output<typeof opticalEquipmentInputSchema>>;

// ---------- the manual payment of a billed file (drawer: 'Enregistrer un paiement') ----------

/**
 * Why a manual payment's amount is refused, told as an amount: missing, zero or negative, beyond what a file can hold,
 * or unreadable (the prices' message speaks of a "Prix" and its decimals, which says nothing about a "-100").
 */
function manualAmountMessage(value: unknown, amount: number | null | undefined): string {
  if (amount === null) return PAYMENT_FORM_MESSAGES.amount;
  const readable = typeof value === 'number' ? value : typeof value === 'string' ? Number(compactPrice(value).replace(',', '.')) : NaN;
  if (amount === 0 || (Number.isFinite(readable) && readable <= 0)) return PAYMENT_FORM_MESSAGES.amountPositive;
  if (Number.isFinite(readable) && readable > PRICE_MAX) return PAYMENT_FORM_MESSAGES.amountTooLarge;
  return PAYMENT_FORM_MESSAGES.amountInvalid;
}

/**
 * A second payment of the same amount on the same day as one the file holds (SAME_DAY_CONFLICT), sent again as such:
 * why, and how many such payments the office saw (the 409's `sameDayPayments`).
 */
const distinctPaymentFields = {
  motifDistinct: optionalText(500),
  paiementsDuJour: z.number({ error: 'Nombre de paiements du jour attendu' }).int().min(1).max(PAYMENT_STATEMENT_LIMITS.maxLines).optional(),
};
/** The office's confirmation of a payment far above what its file was to receive (AMOUNT_CHECKED_FIELD). */
const amountCheckedField = { [AMOUNT_CHECKED_FIELD]: z.boolean({ error: 'Confirmation du montant invalide : montantVerifie=true attendu.' }).optional() };
const requireDistinctReason = (payment: { motifDistinct: string | null; paiementsDuJour?: number }, ctx: z.RefinementCtx) => {
  if (payment.paiementsDuJour !== undefined && !payment.motifDistinct)
    ctx.addIssue({ code: 'custom', path: ['motifDistinct'], message: STATEMENT_MESSAGES.distinctReason });
};

export const manualPaymentSchema = z
  .object({
    datePaiement: z.unknown().transform((value, ctx) => {
      const date = parseDateInput(value);
      if (!date) {
        ctx.addIssue({ code: 'custom', message: date === null ? PAYMENT_FORM_MESSAGES.date : DATE_MESSAGE });
        return z.NEVER;
      }
      // A payment is received: it cannot be dated after today (France's day).
      if (date > todayInFrance()) {
        ctx.addIssue({ code: 'custom', message: PAYMENT_FORM_MESSAGES.future });
        return z.NEVER;
      }
      return date;
    }),
    montant: z.unknown().transform((value, ctx) => {
      const amount = parsePrice(value);
      if (amount === null || amount === undefined || amount <= 0) {
        ctx.addIssue({ code: 'custom', message: manualAmountMessage(value, amount) });
        return z.NEVER;
      }
      return amount;
    }),
    libelle: optionalText(200),
    ...distinctPaymentFields,
    ...amountCheckedField,
  })
  .superRefine(requireDistinctReason);
export type ManualPaymentInput = z.input<typeof manualPaymentSchema>;

/** The manual payment of one file: not dated before its invoice (`invoice`: invoiceDay of the file). */
export const manualPaymentSchemaFor = (invoice: string | null) =>
  manualPaymentSchema.superRefine((payment, ctx) => {
    const refused = paymentBeforeInvoiceError(payment.datePaiement, invoice);
    if (refused) ctx.addIssue({ code: 'custom', path: ['datePaiement'], message: refused });
  });

/** A statement line to be handled, attached to a billed file of the organisation (its IRI or id). */
export const statementLineAttachSchema = z
  .object({
    dossier: reference('pec_dossiers', STATEMENT_MESSAGES.attachFile),
    ...distinctPaymentFields,
    ...amountCheckedField,
  })
  .superRefine(requireDistinctReason);

/** A line taken for a payment already counted, counted as a distinct payment of its file: why (shown on the line, audited). */
export const statementLineCountSchema = z.object({
  motif: requiredText(1, STATEMENT_MESSAGES.distinctReason, 500),
});

/** A statement line to be handled, set aside: why (shown on the line, audited). */
export const statementLineDismissSchema = z.object({
  motif: requiredText(1, STATEMENT_MESSAGES.dismissReason, 500),
});

/** A line attached or counted by hand, detached ('Détacher'): why (kept on the payment it reverses, audited). */
export const statementLineDetachSchema = z.object({
  motif: requiredText(1, STATEMENT_MESSAGES.detachReason, 500),
});

/**
 * A statement applied as previewed: its preview's fingerprint (optional: without it, applied as it now reads), and the
 * office's confirmation of the lines its preview flagged to be checked (paymentLineWarning; without it, such a statement
 * is refused).
 */
export const statementApplyQuerySchema = z.object({
  apercu: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'Empreinte d’aperçu invalide : relancez l’aperçu du relevé.')
    .optional(),
  [AMOUNTS_CHECKED_PARAM]: z.literal('1', STATEMENT_MESSAGES.amountsCheckedInvalid).optional(),
});

/** 'Annuler le relevé': why (kept on the statement and on each payment it reverses, audited). */
export const statementUndoSchema = z.object({
  motif: requiredText(1, STATEMENT_MESSAGES.undoReason, 500),
});

/** 'Annuler' a manual payment of the file's history: why (audited with it). */
export const paymentCancelSchema = z.object({
  motif: requiredText(1, PAYMENT_CANCEL_MESSAGES.reason, 500),
});

// ---------- a file's notes (./followUps) ----------

export const noteBody = z.string({ error: NOTE_MESSAGES.required }).trim().min(1, NOTE_MESSAGES.required).max(NOTE_MAX, NOTE_MESSAGES.tooLong);

/** POST /api/pec_notes; a PUT or PATCH changes its text only. */
export const pecNoteSchema = z.object({ dossier: reference('pec_dossiers', NOTE_MESSAGES.dossier), body: noteBody });
export const pecNoteUpdateSchema = z.object({ body: noteBody });
