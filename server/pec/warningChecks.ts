// The checks behind a PEC file's warnings (issue 15), as pure functions of what server/pec/warnings.ts loads: the
// file, its earlier files, its equipment and the reference values (pec_rule_values, system settings). No limit, rate
// or period is written here: each comes from the data with its legal source, and a check whose value is missing is
// skipped. Dates are days (yyyy-mm-dd); a period ends on the same day N months later, which is allowed.
import { addMonths, differenceInYears, format, parseISO } from 'date-fns';
import type { FileKind } from '#domain/fileKinds';
import { formatDate, formatEuros } from '#domain/format';
import type { EquipementOptique, Eye, Lens } from '#domain/optical';
import type { PecWarning } from '#domain/warnings';
import { DUPLICATE_MESSAGES, filePageUrl, type Twin } from '#domain/duplicates';
import { iriOf } from '#domain/iri';
import { DPEC_START_STATUSES, PRESCRIPTION_REQUIRED, type PecStatus } from '#domain/pec';
import type { DocumentKind } from '#domain/documents';

/** Keys of pec_rule_values (seeded by server/seed/ruleValues.ts). */
export const RULE_KEYS = {
  audioRenewalMonths: 'audio.renewal_months',
  audioClass1PriceLimit: 'audio.class_1_price_limit_per_ear',
  audioSsRate: 'audio.ss_rate_percent',
  opticalRenewalAge: 'optical.renewal_age_band',
  opticalRenewalMonthsUnderAge: 'optical.renewal_months_under_age',
  opticalRenewalMonthsFromAge: 'optical.renewal_months_from_age',
  opticalSsRate: 'optical.ss_rate_percent',
  opticalFrameLimit: 'optical.class_a_frame_limit',
  opticalSimpleSphereMaxUnifocal: 'optical.simple_sphere_max_unifocal',
  opticalSimpleSphereMaxProgressive: 'optical.simple_sphere_max_progressive',
  opticalSimpleCylinderMax: 'optical.simple_cylinder_max',
  opticalLensUnifocalSimple: 'optical.class_a_lens_limit_unifocal_simple',
  opticalLensUnifocalComplex: 'optical.class_a_lens_limit_unifocal_complex',
  opticalLensProgressiveSimple: 'optical.class_a_lens_limit_progressive_simple',
  opticalLensProgressiveComplex: 'optical.class_a_lens_limit_progressive_complex',
} as const;
export type RuleKey = (typeof RULE_KEYS)[keyof typeof RULE_KEYS];

export interface RuleValue {
  value: number;
  source: string;
}
export type Rules = Partial<Record<RuleKey, RuleValue>>;

const day = (d: Date) => format(d, 'yyyy-MM-dd');
export const addMonthsToDay = (date: string, months: number) => day(addMonths(parseISO(date), months));
export const ageOn = (birthDate: string, on: string) => differenceInYears(parseISO(on), parseISO(birthDate));
const cents = (euros: number) => Math.round(euros * 100);
const EAR_LABELS: Record<string, string> = { droite: 'oreille droite', gauche: 'oreille gauche' };
const capitalised = (text: string) => `${text.charAt(0).toLocaleUpperCase('fr')}${text.slice(1)}`;
const durationText = (months: number) => (months % 12 === 0 ? `${months / 12} an${months / 12 > 1 ? 's' : ''}` : `${months} mois`);

// ---------- duplicates (issue 25) ----------

/**
 * 'doublon_possible': one per twin the reader sees (same organisation, mutual and quote number), with a link to its
 * page; one more, naming nothing, when twins sit in centres the reader cannot see.
 */
export function duplicateWarnings({ named, hidden }: { named: readonly Twin[]; hidden: boolean }): PecWarning[] {
  const warnings: PecWarning[] = named.map((twin) => ({
    code: 'doublon_possible',
    message: DUPLICATE_MESSAGES.warning(twin),
    details: { dossier: iriOf('pec_dossiers', twin.id), numeroDossier: twin.numeroDossier, status: twin.status },
    link: { url: filePageUrl(twin.id), label: twin.numeroDossier },
  }));
  return hidden ? [...warnings, { code: 'doublon_possible', message: DUPLICATE_MESSAGES.hiddenWarning }] : warnings;
}

// ---------- renewal ----------

/** An earlier billed (or paid) file of the same patient in the organisation, with the ears it equipped (audio). */
export interface EarlierFile {
  numeroDossier: string;
  /** Its billing day. */
  date: string;
  kind: FileKind;
  ears: string[];
}

export interface RenewalInput {
  kind: FileKind;
  /** The day judged: the file's billing day once billed, else today. */
  on: string;
  birthDate: string | null;
  /** The ears of this file's devices (audio), when known. */
  ears: string[];
  earlier: EarlierFile[];
  rules: Rules;
}

function latest(files: EarlierFile[]) {
  return files.reduce<EarlierFile | undefined>((best, f) => (!best || f.date > best.date ? f : best), undefined);
}

/** 'renouvellement_anticipe': per ear for hearing aids (the same ear equipped less than the period ago), once for optics. */
export function renewalWarnings({ kind, on, birthDate, ears, earlier, rules }: RenewalInput): PecWarning[] {
  const sameKind = earlier.filter((f) => f.kind === kind && f.date <= on);
  if (kind === 'audio') {
    const period = rules[RULE_KEYS.audioRenewalMonths];
    if (!period) return [];
    // Before the devices are known, every ear an earlier file equipped counts.
    const judged = ears.length ? ears : [...new Set(sameKind.flatMap((f) => f.ears))].sort();
    return judged.flatMap((ear) => {
      const last = latest(sameKind.filter((f) => f.ears.includes(ear)));
      if (!last) return [];
      const allowedFrom = addMonthsToDay(last.date, period.value);
      if (on >= allowedFrom) return [];
      return [
        {
          code: 'renouvellement_anticipe' as const,
          side: ear,
          message: `${capitalised(EAR_LABELS[ear] ?? ear)} appareillée le ${formatDate(last.date)} (dossier ${last.numeroDossier}) ; renouvellement pris en charge tous les ${durationText(period.value)}, soit à partir du ${formatDate(allowedFrom)}.`,
          source: period.source,
          details: { lastDate: last.date, lastNumeroDossier: last.numeroDossier, allowedFrom, periodMonths: period.value },
        },
      ];
    });
  }
  if (kind === 'optical') {
    const band = rules[RULE_KEYS.opticalRenewalAge];
    const under = rules[RULE_KEYS.opticalRenewalMonthsUnderAge];
    const from = rules[RULE_KEYS.opticalRenewalMonthsFromAge];
    const last = latest(sameKind);
    if (!band || !under || !from || !last) return [];
    // Without a birth date, the adults' period applies (the longer one: a warning rather than a silence).
    const child = birthDate !== null && ageOn(birthDate, on) < band.value;
    const period = child ? under : from;
    const allowedFrom = addMonthsToDay(last.date, period.value);
    if (on >= allowedFrom) return [];
    const who = child ? `moins de ${band.value} ans` : birthDate ? `${band.value} ans et plus` : `${band.value} ans et plus (âge non renseigné)`;
    return [
      {
        code: 'renouvellement_anticipe',
        message: `Dernier équipement optique facturé le ${formatDate(last.date)} (dossier ${last.numeroDossier}) ; renouvellement pris en charge tous les ${durationText(period.value)} (${who}), soit à partir du ${formatDate(allowedFrom)}.`,
        source: period.source,
        details: { lastDate: last.date, lastNumeroDossier: last.numeroDossier, allowedFrom, periodMonths: period.value },
      },
    ];
  }
  return [];
}

// ---------- prescription ----------

/** How long a prescription stays valid, in months, per kind and optical age band, with the setting that says so. */
export type PrescriptionValidity = Partial<Record<'audio' | 'opticalUnder16' | 'optical16To42' | 'opticalFrom42', { months: number; source: string }>>;

/** 'prescription_trop_ancienne': the prescription's validity for the kind and, in optics, the age band. */
export function prescriptionWarnings(input: {
  kind: FileKind;
  on: string;
  datePrescription: string | null;
  birthDate: string | null;
  validity: PrescriptionValidity;
}): PecWarning[] {
  const { kind, on, datePrescription, birthDate, validity } = input;
  if (!datePrescription) return [];
  let rule: { months: number; source: string } | undefined;
  let what: string;
  if (kind === 'audio') [rule, what] = [validity.audio, 'une aide auditive'];
  else if (kind === 'optical') {
    // The bands of art. D. 4362-12-1; without a birth date, the shortest adult validity (from 42 years) applies.
    const age = birthDate ? ageOn(birthDate, on) : undefined;
    if (age !== undefined && age < 16) [rule, what] = [validity.opticalUnder16, 'un équipement optique (moins de 16 ans)'];
    else if (age !== undefined && age < 42) [rule, what] = [validity.optical16To42, 'un équipement optique (16 à 42 ans)'];
    else [rule, what] = [validity.opticalFrom42, `un équipement optique (42 ans et plus${age === undefined ? ', âge non renseigné' : ''})`];
  } else return [];
  if (!rule) return [];
  const validUntil = addMonthsToDay(datePrescription, rule.months);
  if (on <= validUntil) return [];
  return [
    {
      code: 'prescription_trop_ancienne',
      message: `Datée du ${formatDate(datePrescription)}, elle est valable ${durationText(rule.months)} pour ${what}, soit jusqu’au ${formatDate(validUntil)}.`,
      source: rule.source,
      details: { datePrescription, validUntil, validityMonths: rule.months },
    },
  ];
}

// ---------- 100 % Santé and amounts ----------

export interface Device {
  oreille: string;
  classe: string | null;
  prixTtc: number | null;
}

export interface Amounts {
  prixFraisReels: number | null;
  baseSs: number | null;
  partSs: number | null;
  partComplementaire: number | null;
  resteCharge: number | null;
}

/** The limit of a class A lens: its band (unifocal or progressive, simple or complex correction) from the reference data. */
export function lensLimit(lens: Lens, rules: Rules): RuleValue | undefined {
  const progressive = lens.type === 'progressif';
  const sphereMax = rules[progressive ? RULE_KEYS.opticalSimpleSphereMaxProgressive : RULE_KEYS.opticalSimpleSphereMaxUnifocal];
  const cylinderMax = rules[RULE_KEYS.opticalSimpleCylinderMax];
  if (!sphereMax || !cylinderMax) return undefined;
  const simple = Math.abs(lens.sphere ?? 0) <= sphereMax.value && Math.abs(lens.cylindre ?? 0) <= cylinderMax.value;
  return rules[
    progressive
      ? simple
        ? RULE_KEYS.opticalLensProgressiveSimple
        : RULE_KEYS.opticalLensProgressiveComplex
      : simple
        ? RULE_KEYS.opticalLensUnifocalSimple
        : RULE_KEYS.opticalLensUnifocalComplex
  ];
}

const EYE_NAMES: Record<Eye, string> = { OD: 'œil droit', OG: 'œil gauche' };

/** The 100 % Santé checks of the equipment (price limits, no remaining cost) and the amounts' arithmetic. */
export function santeWarnings(input: { kind: FileKind; devices: Device[]; optical: EquipementOptique | null; amounts: Amounts; rules: Rules }): PecWarning[] {
  const { kind, devices, optical, amounts, rules } = input;
  const warnings: PecWarning[] = [];
  let sante100 = false;

  if (kind === 'audio') {
    const limit = rules[RULE_KEYS.audioClass1PriceLimit];
    for (const d of devices) {
      if (limit && d.classe === 'I' && d.prixTtc !== null && cents(d.prixTtc) > cents(limit.value)) {
        warnings.push({
          code: 'classe_1_prix_limite',
          side: d.oreille,
          message: `Aide auditive vendue ${formatEuros(d.prixTtc)} (${EAR_LABELS[d.oreille] ?? d.oreille}) pour un prix limite de vente de ${formatEuros(limit.value)} par oreille.`,
          source: limit.source,
          details: { price: d.prixTtc, limit: limit.value },
        });
      }
    }
    sante100 = devices.length > 0 && devices.every((d) => d.classe === 'I');
  }

  if (kind === 'optical' && optical?.classe === 'A') {
    sante100 = true;
    const frame = rules[RULE_KEYS.opticalFrameLimit];
    const framePrice = optical.monture.prix;
    if (frame && framePrice !== null && cents(framePrice) > cents(frame.value)) {
      warnings.push({
        code: 'classe_a_prix_limite',
        message: `Monture vendue ${formatEuros(framePrice)} pour un prix limite de vente de ${formatEuros(frame.value)}.`,
        source: frame.source,
        details: { element: 'monture', price: framePrice, limit: frame.value },
      });
    }
    for (const eye of ['OD', 'OG'] as const) {
      const lens = optical.verres[eye];
      const limit = lens ? lensLimit(lens, rules) : undefined;
      if (!lens || !limit || lens.prix === null || cents(lens.prix) <= cents(limit.value)) continue;
      warnings.push({
        code: 'classe_a_prix_limite',
        side: eye,
        message: `Verre vendu ${formatEuros(lens.prix)} (${EYE_NAMES[eye]}) pour un prix limite de vente de ${formatEuros(limit.value)} pour cette correction.`,
        source: limit.source,
        details: { element: 'verre', price: lens.prix, limit: limit.value },
      });
    }
  }

  const { prixFraisReels, baseSs, partSs, partComplementaire, resteCharge } = amounts;
  if (sante100 && resteCharge !== null && cents(resteCharge) > 0) {
    const source = rules[kind === 'audio' ? RULE_KEYS.audioClass1PriceLimit : RULE_KEYS.opticalFrameLimit]?.source;
    warnings.push({
      code: 'reste_a_charge_100_sante',
      message: `${formatEuros(resteCharge)} à la charge du patient : il devrait être nul.`,
      ...(source ? { source } : {}),
      details: { resteCharge },
    });
  }
  if (prixFraisReels !== null && partSs !== null && partComplementaire !== null && resteCharge !== null) {
    const sum = cents(partSs) + cents(partComplementaire) + cents(resteCharge);
    if (sum !== cents(prixFraisReels)) {
      warnings.push({
        code: 'montants_incoherents',
        message: `Le prix frais réels (${formatEuros(prixFraisReels)}) n’est pas la somme de la part Sécurité sociale, de la part complémentaire et du reste à charge (${formatEuros(sum / 100)}).`,
        details: { prixFraisReels, sum: sum / 100 },
      });
    }
  }
  const rateKey = kind === 'audio' ? RULE_KEYS.audioSsRate : kind === 'optical' ? RULE_KEYS.opticalSsRate : undefined;
  const rate = rateKey ? rules[rateKey] : undefined;
  if (rate && baseSs !== null && partSs !== null) {
    const expected = Math.round(cents(baseSs) * rate.value) / 100;
    if (cents(partSs) !== Math.round(expected)) {
      warnings.push({
        code: 'part_ss_incoherente',
        message: `${formatEuros(partSs)} déclarés pour une base de ${formatEuros(baseSs)} remboursée à ${rate.value} % : ${formatEuros(Math.round(expected) / 100)} attendus.`,
        source: rate.source,
        details: { partSs, baseSs, ratePercent: rate.value, expected: Math.round(expected) / 100 },
      });
    }
  }
  return warnings;
}

// ---------- documents (issue 29) ----------

/** The standard quote (devis normalisé) goes with every request for hearing aids or optical equipment. */
const QUOTE_REQUIRED: Record<FileKind, boolean> = { audio: true, optical: true, generic: false };

/**
 * 'ordonnance_manquante' and 'devis_normalise_manquant': before the request is sent (the statuses a DPEC starts
 * from), the documents the insurer's portal asks for, per kind of file — the prescription where the kind needs one
 * (PRESCRIPTION_REQUIRED: optics), the standard quote for hearing aids and optics.
 */
export function documentWarnings(input: { kind: FileKind; status: PecStatus; documentKinds: readonly string[] }): PecWarning[] {
  const { kind, status, documentKinds } = input;
  if (!DPEC_START_STATUSES.includes(status)) return [];
  const has = (wanted: DocumentKind) => documentKinds.includes(wanted);
  const warnings: PecWarning[] = [];
  if (PRESCRIPTION_REQUIRED[kind] && !has('prescription'))
    warnings.push({
      code: 'ordonnance_manquante',
      message: 'Joignez l’ordonnance à la demande : le portail de l’assureur la demande avec le DPEC.',
    });
  if (QUOTE_REQUIRED[kind] && !has('standard_quote'))
    warnings.push({
      code: 'devis_normalise_manquant',
      message: 'Joignez le devis normalisé à la demande : le portail de l’assureur le demande avec le DPEC.',
    });
  return warnings;
}
