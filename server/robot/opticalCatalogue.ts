// What the built-in robot answers for an optician's file (issue 15): a frame and two lenses of one 100 % Santé class,
// a plausible prescription, and the insurer's amounts. Values are illustrative (prices of the market, LPP codes in the
// 7-digit format), not an extract of the official nomenclature; the simulator draws them from its seeded generator.
import type { LensType, OpticalClass } from '#domain/optical';
import type { Amounts } from './simulator';

interface CatalogueFrame {
  marque: string;
  modele: string;
  classe: OpticalClass;
  /** Cents. */
  prix: number;
  codeLpp: string;
}

export const FRAMES: CatalogueFrame[] = [
  { marque: 'Essentiel Santé', modele: 'ES-204', classe: 'A', prix: 3_000, codeLpp: '2210546' },
  { marque: 'Essentiel Santé', modele: 'ES-318', classe: 'A', prix: 3_000, codeLpp: '2210546' },
  { marque: 'Ray-Ban', modele: 'RB5154 Clubmaster', classe: 'B', prix: 14_500, codeLpp: '2223342' },
  { marque: 'Oakley', modele: 'OX8156 Holbrook RX', classe: 'B', prix: 16_800, codeLpp: '2223342' },
  { marque: 'Lafont', modele: 'Issy', classe: 'B', prix: 24_500, codeLpp: '2223342' },
  { marque: 'Tom Ford', modele: 'FT5401', classe: 'B', prix: 28_900, codeLpp: '2223342' },
];

interface CatalogueLens {
  classe: OpticalClass;
  type: LensType;
  /** Cents, per lens. */
  prix: number;
  codeLpp: string;
  traitements: string[];
}

export const LENSES: CatalogueLens[] = [
  { classe: 'A', type: 'unifocal', prix: 3_250, codeLpp: '2203240', traitements: ['antireflet', 'durci'] },
  { classe: 'A', type: 'progressif', prix: 10_000, codeLpp: '2259966', traitements: ['antireflet', 'durci'] },
  { classe: 'B', type: 'unifocal', prix: 11_900, codeLpp: '2227038', traitements: ['antireflet premium', 'filtre lumière bleue', 'durci'] },
  { classe: 'B', type: 'progressif', prix: 32_900, codeLpp: '2240671', traitements: ['antireflet premium', 'photochromique', 'durci'] },
];

/** Sécurité sociale bases (cents) and its rate: class A bases as in the 100 % Santé reform, class B 0,05 € an item. */
const SS_BASE_CENTS: Record<OpticalClass, { frame: number; unifocal: number; progressif: number }> = {
  A: { frame: 900, unifocal: 975, progressif: 2_440 },
  B: { frame: 5, unifocal: 5, progressif: 5 },
};
export const SS_RATE = 0.6;
/** A "contrat responsable" pays at most this for a class B frame (cents), Sécurité sociale included. */
const CLASS_B_FRAME_CAP_CENTS = 10_000;

export interface SimLens {
  type: LensType;
  sphere: number;
  cylindre: number | null;
  axe: number | null;
  addition: number | null;
  indice: string;
  traitements: string[];
  prix: number;
  codeLpp: string;
}

export interface SimEquipment {
  classe: OpticalClass;
  frame: CatalogueFrame;
  lenses: { OD: SimLens; OG: SimLens };
}

const quarter = (random: () => number, min: number, max: number) => min + Math.floor(random() * ((max - min) / 0.25 + 1)) * 0.25;

/** One class for the whole equipment (A about 40 % of the time), progressive lenses for a third of patients. */
export function pickOpticalEquipment(random: () => number): SimEquipment {
  const classe: OpticalClass = random() < 0.4 ? 'A' : 'B';
  const frames = FRAMES.filter((f) => f.classe === classe);
  const frame = frames[Math.floor(random() * frames.length)]!;
  const type: LensType = random() < 0.33 ? 'progressif' : 'unifocal';
  const lens = LENSES.find((l) => l.classe === classe && l.type === type)!;
  const addition = type === 'progressif' ? quarter(random, 1, 3) : null;
  const eye = (): SimLens => {
    const sphere = quarter(random, -6, 4);
    const astigmatic = random() < 0.5;
    const strength = Math.abs(sphere);
    return {
      type,
      sphere,
      cylindre: astigmatic ? -quarter(random, 0.25, 2) : null,
      axe: astigmatic ? Math.floor(random() * 37) * 5 : null,
      addition,
      indice: strength < 2 ? '1.5' : strength < 4 ? '1.6' : '1.67',
      traitements: lens.traitements,
      prix: lens.prix / 100,
      codeLpp: lens.codeLpp,
    };
  };
  return { classe, frame, lenses: { OD: eye(), OG: eye() } };
}

/** The robot's `equipement_optique` for an equipment (README, "Callback formats"). */
export function opticalPayload(e: SimEquipment) {
  const lens = (l: SimLens) => ({
    type: l.type,
    sphere: l.sphere,
    cylindre: l.cylindre,
    axe: l.axe,
    addition: l.addition,
    indice: l.indice,
    traitements: l.traitements,
    prix: l.prix,
    code_lpp: l.codeLpp,
  });
  return {
    classe: e.classe,
    monture: { marque: e.frame.marque, modele: e.frame.modele, prix: e.frame.prix / 100, code_lpp: e.frame.codeLpp },
    verres: { OD: lens(e.lenses.OD), OG: lens(e.lenses.OG) },
  };
}

/**
 * Class A: Sécurité sociale pays 60 % of its bases and the mutual the rest (nothing left to pay). Class B: the mutual
 * pays up to the contract's caps (100 € for the frame), the rest is left to the patient.
 */
export function opticalAmounts(e: SimEquipment): Amounts {
  const lensCents = Math.round(e.lenses.OD.prix * 100) + Math.round(e.lenses.OG.prix * 100);
  const total = e.frame.prix + lensCents;
  const bases = SS_BASE_CENTS[e.classe];
  const base = bases.frame + 2 * bases[e.lenses.OD.type];
  const partSs = Math.round(base * SS_RATE);
  const comp = e.classe === 'A' ? total - partSs : Math.min(e.frame.prix, CLASS_B_FRAME_CAP_CENTS) + Math.round(lensCents * 0.7) - partSs;
  const euros = (cents: number) => Math.round(cents) / 100;
  return {
    totalTtc: euros(total),
    prixFraisReels: euros(total),
    baseSs: euros(base),
    partSs: euros(partSs),
    partComplementaire: euros(comp),
    resteCharge: euros(total - partSs - comp),
  };
}
