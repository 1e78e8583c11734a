// An optician's file holds one optical equipment: a frame and a lens per eye (issue 15). This is the shape the API
// returns as `equipementOptique` (null on other files) and the robot sends as `equipement_optique`.
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
