// An optician's file holds one optical equipment: a frame and a lens per eye (issue 15). This is the shape the API
// returns as `equipementOptique` (null on other files) and the robot sends as `equipement_optique`.
import { once } from './format';

export const EYES = ['OD', 'OG'] as const;
export type Eye = (typeof EYES)[number];
export const EYE_LABELS: Record<Eye, string> = { OD: 'Œil droit (OD)', OG: 'Œil gauche (OG)' };

export const LENS_TYPES = ['unifocal', 'progressif'] as const;
export type LensType = (typeof LENS_TYPES)[number];
export const LENS_TYPE_LABELS: Record<LensType, string> = { unifocal: 'Unifocal', progressif: 'Progressif' };

/** 100 % Santé: class A (no remaining cost, price limits) or class B (free prices). */
export const OPTICAL_CLASSES = ['A', 'B'] as const;
export type OpticalClass = (typeof OPTICAL_CLASSES)[number];

export interface Lens {
  type: LensType;
  /** Dioptres, e.g. -2.25; null when unknown. */
  sphere: number | null;
  cylindre: number | null;
  /** Degrees 0-180. */
  axe: number | null;
  addition: number | null;
  /** Refractive index as printed, e.g. "1.6". */
  indice: string | null;
  traitements: string[];
  /** Euros. */
  prix: number | null;
  codeLpp: string | null;
}

export interface Frame {
  marque: string | null;
  modele: string | null;
  prix: number | null;
  codeLpp: string | null;
}

/** As the API returns it (camelCase), `equipementOptique` of a PEC file. */
export interface EquipementOptique {
  '@type': 'EquipementOptique';
  classe: OpticalClass | null;
  monture: Frame;
  verres: Record<Eye, Lens | null>;
}

/*
 * As the robot sends it in a scraping callback (snake_case), next to `appareil` for audio files:
 * "equipement_optique": {
 *   "classe": "A",
 *   "monture": { "marque": "Ray-Ban", "modele": "RB5154", "prix": 30, "code_lpp": "2210546" },
 *   "verres": {
 *     "OD": { "type": "unifocal", "sphere": -2.25, "cylindre": -0.5, "axe": 90, "addition": null, "indice": "1.6",
 *             "traitements": ["antireflet"], "prix": 32.5, "code_lpp": "2203240" },
 *     "OG": { ... }
 *   }
 * }
 */

// ---------- plausible values (robot callbacks and the manual form) ----------

/** A measure as typed or sent: dioptres or degrees within a range, on a step (0.25 D), French messages. */
export interface MeasureRule {
  min: number;
  max: number;
  /** Values are multiples of this (0.25 D; 1 for the axis). */
  step: number;
  message: string;
}

export const OPTICAL_RULES = {
  sphere: { min: -30, max: 30, step: 0.25, message: 'Sphère invalide : de −30,00 à +30,00 par pas de 0,25' },
  cylindre: { min: -10, max: 10, step: 0.25, message: 'Cylindre invalide : de −10,00 à +10,00 par pas de 0,25' },
  axe: { min: 0, max: 180, step: 1, message: 'Axe invalide : un nombre entier de degrés de 0 à 180' },
  addition: { min: 0.25, max: 4, step: 0.25, message: 'Addition invalide : de 0,25 à 4,00 par pas de 0,25' },
  /** Refractive indices sold today run from 1.5 (organic) to 1.9 (high-index mineral). */
  indice: { min: 1.5, max: 1.9, step: 0.01, message: 'Indice invalide : de 1,5 à 1,9 (ex. 1,6 ou 1,67)' },
} as const satisfies Record<string, MeasureRule>;

export const OPTICAL_MESSAGES = {
  lensType: 'Type de verre invalide : unifocal ou progressif',
  lensTypeRequired: 'Le type de verre est requis (unifocal ou progressif)',
  classe: 'Classe 100 % Santé A ou B attendue',
  traitements: 'Traitements : au plus 10, de 100 caractères chacun',
  /** A scraping result of one kind sent for a file of another (assertScrapingFitsKind, server/pec/optical.ts). */
  opticalOnAudio: 'Ce dossier dépend d’un centre audioprothésiste : il attend des appareils par oreille (appareil), pas d’équipement optique.',
  audioOnOptical: 'Ce dossier dépend d’un centre opticien : il attend un équipement optique (equipement_optique), pas d’appareils auditifs.',
  devicesOnGeneric: 'Ce dossier dépend d’un centre sans modèle d’équipement (orthopédie) : ni appareil ni équipement optique n’est accepté.',
} as const;

/** "-2,25", "+1.5", 2 -> a number; null when empty; undefined when unreadable. */
export function parseMeasure(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/[\s\u00a0\u202f]/g, '').replace('\u2212', '-');
  if (text === '') return null;
  if (!/^[+-]?\d+([.,]\d+)?$/.test(text)) return undefined;
  return Number(text.replace(',', '.'));
}

/** Whether a value is within its rule (range and step, with a tolerance for binary fractions). */
export function measureFits(value: number, rule: MeasureRule): boolean {
  if (value < rule.min - 1e-9 || value > rule.max + 1e-9) return false;
  const steps = value / rule.step;
  return Math.abs(steps - Math.round(steps)) < 1e-6;
}

// ---------- French display ----------

const twoDecimals = once(() => new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/** Dioptres as opticians write them: "−2,25", "+1,50", "0,00" (a true minus sign). */
export function formatDioptres(value: number | null | undefined, fallback = 'Non défini'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return fallback;
  const text = twoDecimals().format(Math.abs(value));
  return value < 0 ? `\u2212${text}` : value > 0 ? `+${text}` : text;
}

/** "1.6" -> "1,6". */
export const formatIndex = (value: string | null | undefined, fallback = 'Non défini') => (value ? value.replace('.', ',') : fallback);

/** The correction in one line: "−2,25 (−0,50 à 90°) add. +2,00". */
export function formatCorrection(lens: Pick<Lens, 'sphere' | 'cylindre' | 'axe' | 'addition'>): string {
  const parts = [formatDioptres(lens.sphere, '')];
  if (lens.cylindre) parts.push(`(${formatDioptres(lens.cylindre)}${lens.axe !== null ? ` à ${lens.axe}°` : ''})`);
  if (lens.addition) parts.push(`add. ${formatDioptres(lens.addition)}`);
  return parts.filter(Boolean).join(' ');
}
