// The built-in robot: what it answers for a run. Its outcomes follow the patient number's suffix (README, "Robot
// simulator") so anyone can reproduce an error; everything else is drawn from a generator seeded by the run, so a
// callback posted twice (a retried job) is byte for byte the same delivery and has one effect.
import type { FileKind } from '#domain/fileKinds';
import { todayInFrance, type CallbackType } from '#domain/pec';
import { PORTAL_MISSING_PRESCRIPTION } from '#domain/documents';
import { opticalAmounts, opticalPayload, pickOpticalEquipment, type SimEquipment } from './opticalCatalogue';

export type SimulatorOutcome = 'success' | 'scraping_error' | 'dpec_error' | 'refused' | 'pending' | 'billing_error' | 'silent';

/** Patient-number suffixes (case-insensitive) and what the simulator does for them. */
export const SIMULATOR_SUFFIXES: { suffix: string; outcome: SimulatorOutcome; description: string }[] = [
  { suffix: '-ERRSCRAP', outcome: 'scraping_error', description: 'la récupération du patient et des appareils échoue (scrapping_error)' },
  { suffix: '-ERRDPEC', outcome: 'dpec_error', description: 'la demande de prise en charge échoue techniquement ("Robot API returned 502 …")' },
  { suffix: '-REFUS', outcome: 'refused', description: 'la mutuelle refuse : dossier « Refusé » avec le motif' },
  { suffix: '-ATTENTE', outcome: 'pending', description: 'la mutuelle a reçu la demande sans répondre : dossier « En attente »' },
  { suffix: '-ERRFACT', outcome: 'billing_error', description: 'le DPEC est accordé, puis la facturation échoue (scrapping_error)' },
  { suffix: '-SILENCE', outcome: 'silent', description: 'le robot ne rend jamais le résultat final : l’appel échoue au bout du délai' },
];

export function simulatorOutcome(patientNumber: string | null | undefined): SimulatorOutcome {
  const value = (patientNumber ?? '').trim().toUpperCase();
  return SIMULATOR_SUFFIXES.find((s) => value.endsWith(s.suffix))?.outcome ?? 'success';
}

/** Pre-2019 LPP codes (classes A to D, maintenance): never produced. */
export const OBSOLETE_LPP_CODES = new Set([
  '2335791',
  '2355084',
  '2369471',
  '2351548',
  '2340119',
  '2343856',
  '2357338',
  '2344100',
  '2346441',
  '2312927',
  '2340208',
]);

export interface CatalogueDevice {
  fabricant: string;
  marque: string;
  modele: string;
  classe: 'I' | 'II';
  /** Price per ear in cents. */
  prix: number;
  forme: string;
  /** Illustrative 7-digit code in the per-model format used since 2019 (not an official nomenclature extract). */
  codeLpp: string;
}

const RIC = 'Contour à écouteur déporté';
const BTE = 'Contour d’oreille';
const ITE = 'Intra-auriculaire';

/** Class I (100 % Santé) aids are capped at 950 € per ear for adults; class II prices are free. */
export const CLASS_I_CAP_CENTS = 95_000;
/** Sécurité sociale base for an adult: 400 € per ear, of which it pays 60 %. */
export const SS_BASE_CENTS = 40_000;
export const SS_SHARE_CENTS = 24_000;
/** Ceiling of a "contrat responsable" for a class II aid, Sécurité sociale included. */
export const RESPONSIBLE_CONTRACT_CAP_CENTS = 170_000;

export const CATALOGUE: CatalogueDevice[] = [
  { fabricant: 'Sonova', marque: 'Phonak', modele: 'Audéo Lumity L30', classe: 'I', prix: 95_000, forme: RIC, codeLpp: '2391450' },
  { fabricant: 'WS Audiology', marque: 'Signia', modele: 'Pure Charge&Go 1IX', classe: 'I', prix: 89_000, forme: RIC, codeLpp: '2396523' },
  { fabricant: 'Demant', marque: 'Oticon', modele: 'Ruby 2', classe: 'I', prix: 85_000, forme: BTE, codeLpp: '2394118' },
  { fabricant: 'GN Hearing', marque: 'ReSound', modele: 'Key 4', classe: 'I', prix: 90_000, forme: RIC, codeLpp: '2398872' },
  { fabricant: 'Starkey', marque: 'Starkey', modele: 'Evolv AI 1200', classe: 'I', prix: 95_000, forme: ITE, codeLpp: '2392706' },
  { fabricant: 'Sonova', marque: 'Phonak', modele: 'Audéo Sphere Infinio 90', classe: 'II', prix: 229_000, forme: RIC, codeLpp: '2397315' },
  { fabricant: 'Demant', marque: 'Oticon', modele: 'Intent 1', classe: 'II', prix: 219_000, forme: RIC, codeLpp: '2393984' },
  { fabricant: 'WS Audiology', marque: 'Widex', modele: 'SmartRIC 440', classe: 'II', prix: 209_000, forme: RIC, codeLpp: '2395041' },
  { fabricant: 'GN Hearing', marque: 'ReSound', modele: 'Nexia 9', classe: 'II', prix: 199_000, forme: RIC, codeLpp: '2399627' },
  { fabricant: 'Starkey', marque: 'Starkey', modele: 'Genesis AI 24', classe: 'II', prix: 215_000, forme: ITE, codeLpp: '2390538' },
  { fabricant: 'Sonova', marque: 'Unitron', modele: 'Vivante 9', classe: 'II', prix: 189_000, forme: BTE, codeLpp: '2396190' },
];

/** A small deterministic generator (mulberry32) seeded from a string. */
export function seededRandom(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const euros = (cents: number) => Math.round(cents) / 100;

export interface EarDevice extends CatalogueDevice {
  oreille: 'droite' | 'gauche';
  premierAppareillage: boolean;
}

/** One or two ears (mostly two), one model per file, both ears alike as audioprosthetists fit them. */
export function pickDevices(random: () => number): EarDevice[] {
  const model = CATALOGUE[Math.floor(random() * CATALOGUE.length)]!;
  const first = random() < 0.35;
  const ears: ('droite' | 'gauche')[] = random() < 0.85 ? ['droite', 'gauche'] : [random() < 0.5 ? 'droite' : 'gauche'];
  return ears.map((oreille) => ({ ...model, oreille, premierAppareillage: first }));
}

export interface Amounts {
  totalTtc: number;
  prixFraisReels: number;
  baseSs: number;
  partSs: number;
  partComplementaire: number;
  resteCharge: number;
}

/** Per ear: SS base 400 €, SS pays 240 €; class I: the mutual pays the rest (nothing left); class II: up to the cap. */
export function amountsFor(devices: Pick<EarDevice, 'prix' | 'classe'>[]): Amounts {
  let total = 0;
  let comp = 0;
  for (const d of devices) {
    total += d.prix;
    comp += d.classe === 'I' ? d.prix - SS_SHARE_CENTS : Math.min(d.prix, RESPONSIBLE_CONTRACT_CAP_CENTS) - SS_SHARE_CENTS;
  }
  const partSs = SS_SHARE_CENTS * devices.length;
  return {
    totalTtc: euros(total),
    prixFraisReels: euros(total),
    baseSs: euros(SS_BASE_CENTS * devices.length),
    partSs: euros(partSs),
    partComplementaire: euros(comp),
    resteCharge: euros(total - partSs - comp),
  };
}

// The insurer's day is France's: a DPEC started at 00:30 in Paris (23:30 UTC) is dated that Paris day.
const isoDate = (date: Date) => todayInFrance(date);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

/**
 * The equipment on the file's quote, drawn from the file alone: every run reads the same one (a DPEC run after the
 * scraping of another, as the demo's runs seeded in progress), so the insurer's amounts are those of the quote the file
 * shows. An optician's file gets a frame and lenses; a generic file (orthopaedics) no equipment at all.
 */
export function quoteOf(file: Pick<SimulatedFile, 'externalId' | 'kind'>): { devices: EarDevice[]; optical?: SimEquipment } {
  const random = seededRandom(`${file.externalId}:quote`);
  const kind = file.kind ?? 'audio';
  if (kind === 'optical') return { devices: [], optical: pickOpticalEquipment(random) };
  return { devices: kind === 'audio' ? pickDevices(random) : [] };
}

export interface SimulatedFile {
  externalId: string;
  numeroDossierAssure: string | null;
  networkCode: string | null;
  /** What the file holds (its centre's specialty): hearing aids when absent. */
  kind?: FileKind;
  /** The DPEC goes without a prescription among its documents: an optician's portal refuses it (issue 29). */
  missingPrescription?: boolean;
}

/**
 * The body the simulator posts for one step of a run. `startedAt` is the run's start: dates derive from it, not from
 * the clock, so that a repeated post is identical.
 */
export function simulatorCallback(type: CallbackType, file: SimulatedFile, runId: number, startedAt: Date): Record<string, unknown> {
  const outcome = simulatorOutcome(file.numeroDossierAssure);
  const random = seededRandom(`${file.externalId}:${runId}`);
  const { devices, optical } = quoteOf(file);
  const kind = file.kind ?? 'audio';
  const base = { id_pecflow: file.externalId, run_id: runId };
  const today = isoDate(startedAt);

  if (type === 'scraping') {
    if (outcome === 'scraping_error') {
      return { ...base, success: false, messages: ['scrapping_error: dossier patient introuvable dans le logiciel métier'] };
    }
    if (optical) {
      return {
        ...base,
        success: true,
        messages: ['Dossier patient retrouvé dans le logiciel métier', `Équipement optique récupéré sur le devis (classe ${optical.classe})`],
        equipement_optique: opticalPayload(optical),
      };
    }
    if (kind === 'generic') return { ...base, success: true, messages: ['Dossier patient retrouvé dans le logiciel métier'] };
    const byEar = Object.fromEntries(
      devices.map((d) => [
        d.oreille,
        {
          fabricant: d.fabricant,
          marque: d.marque,
          modele: d.modele,
          total_ttc: euros(d.prix),
          code_lpp: d.codeLpp,
          premier_appareillage: d.premierAppareillage ? 'oui' : 'non',
          forme: d.forme,
          classe: d.classe,
        },
      ]),
    );
    return {
      ...base,
      success: true,
      messages: [
        `Dossier patient retrouvé dans le logiciel métier`,
        `${devices.length} appareil${devices.length > 1 ? 's' : ''} récupéré${devices.length > 1 ? 's' : ''} sur le devis`,
      ],
      appareil: { offre_100_sante: devices[0]!.classe === 'I' ? 'oui' : 'non', droit: byEar.droite ?? null, gauche: byEar.gauche ?? null },
    };
  }

  if (type === 'dpec') {
    const serial = String(Math.floor(random() * 1e8)).padStart(8, '0');
    const numDossier = `DPEC-${today.slice(0, 4)}-${serial}`;
    if (outcome === 'dpec_error') {
      return {
        ...base,
        success: false,
        messages: ['Robot API returned 502: {"errors":[{"message":"Mutuelle non reconnue par le portail du réseau"},{"message":"Session expirée"}]}'],
      };
    }
    // The portal checks the documents before anything else: no prescription, no optical request.
    if (file.missingPrescription && outcome !== 'silent') {
      return {
        ...base,
        success: false,
        num_dossier: numDossier,
        messages: ['Demande de prise en charge refusée par le portail', PORTAL_MISSING_PRESCRIPTION],
        detail_refus: PORTAL_MISSING_PRESCRIPTION,
        date_creation: today,
      };
    }
    if (outcome === 'refused') {
      return {
        ...base,
        success: false,
        num_dossier: numDossier,
        messages: ['Demande de prise en charge déposée', 'Refus de la mutuelle'],
        detail_refus: 'Équipement hors des garanties du contrat de l’assuré',
        date_creation: today,
      };
    }
    if (outcome === 'pending') {
      return {
        ...base,
        success: true,
        num_dossier: numDossier,
        messages: ['Demande de prise en charge déposée', 'Réponse de la mutuelle en attente'],
        date_creation: today,
      };
    }
    const amounts = optical ? opticalAmounts(optical) : kind === 'generic' ? undefined : amountsFor(devices);
    const numPec = `${(file.networkCode ?? 'PEC').slice(0, 12)}-${String(Math.floor(random() * 1e9)).padStart(9, '0')}`;
    return {
      ...base,
      success: true,
      messages: ['Demande de prise en charge déposée', `Accord de la mutuelle : PEC n° ${numPec}`],
      num_dossier: numDossier,
      num_pec: numPec,
      ...(amounts && {
        prix_frais_reels: amounts.prixFraisReels,
        base_ss: amounts.baseSs,
        part_ss: amounts.partSs,
        part_complementaire: amounts.partComplementaire,
        reste_charge: amounts.resteCharge,
      }),
      date_peremption: isoDate(addDays(startedAt, 90)),
      date_creation: today,
    };
  }

  // billing
  if (outcome === 'billing_error') {
    return { ...base, success: false, messages: ['scrapping_error: la facture n’a pas pu être déposée sur le portail du réseau'] };
  }
  return { ...base, success: true, messages: ['Facture transmise à la mutuelle'], date_facturation_effective: today };
}
