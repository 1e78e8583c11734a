// The reference values of the warnings on PEC files (issue 15; server/pec/warningChecks.ts), each with its legal
// source. Every installation gets them (base data); a value is corrected in the table, not in code. The README lists
// them with their sources.
import { RULE_KEYS } from '../pec/warningChecks';
import type { pecRuleValues } from '../db/schema';

const AUDIO_LPP = 'Arrêté du 14 novembre 2018 (JO du 16/11/2018), LPP titre II chapitre 3 — aides auditives, patients de plus de 20 ans';
const OPTICAL_LPP = 'Arrêté du 3 décembre 2018 (JO du 13/12/2018), LPP titre II chapitre 2 — optique médicale';
const OPTICAL_LENSES = `${OPTICAL_LPP}, verres de classe A (simplifié en quatre catégories de correction)`;

export const RULE_VALUES: (typeof pecRuleValues.$inferInsert)[] = [
  { key: RULE_KEYS.audioRenewalMonths, value: 48, unit: 'months', label: 'Renouvellement d’une aide auditive, par oreille', source: AUDIO_LPP },
  {
    key: RULE_KEYS.audioClass1PriceLimit,
    value: 950,
    unit: 'eur',
    label: 'Prix limite de vente d’une aide auditive de classe I, par oreille',
    source: AUDIO_LPP,
  },
  {
    key: RULE_KEYS.audioSsRate,
    value: 60,
    unit: 'percent',
    label: 'Taux de remboursement de l’Assurance maladie (aides auditives)',
    source: `${AUDIO_LPP} ; code de la sécurité sociale, art. R. 160-5`,
  },
  {
    key: RULE_KEYS.opticalRenewalAge,
    value: 16,
    unit: 'years',
    label: 'Âge à partir duquel la période de renouvellement des adultes s’applique (optique)',
    source: OPTICAL_LPP,
  },
  { key: RULE_KEYS.opticalRenewalMonthsUnderAge, value: 12, unit: 'months', label: 'Renouvellement d’un équipement optique avant 16 ans', source: OPTICAL_LPP },
  {
    key: RULE_KEYS.opticalRenewalMonthsFromAge,
    value: 24,
    unit: 'months',
    label: 'Renouvellement d’un équipement optique à partir de 16 ans',
    source: OPTICAL_LPP,
  },
  {
    key: RULE_KEYS.opticalSsRate,
    value: 60,
    unit: 'percent',
    label: 'Taux de remboursement de l’Assurance maladie (optique)',
    source: `${OPTICAL_LPP} ; code de la sécurité sociale, art. R. 160-5`,
  },
  { key: RULE_KEYS.opticalFrameLimit, value: 30, unit: 'eur', label: 'Prix limite de vente d’une monture de classe A', source: OPTICAL_LPP },
  {
    key: RULE_KEYS.opticalSimpleSphereMaxUnifocal,
    value: 6,
    unit: 'dioptres',
    label: 'Sphère maximale (valeur absolue) d’un verre unifocal de correction simple',
    source: OPTICAL_LENSES,
  },
  {
    key: RULE_KEYS.opticalSimpleSphereMaxProgressive,
    value: 4,
    unit: 'dioptres',
    label: 'Sphère maximale (valeur absolue) d’un verre progressif de correction simple',
    source: OPTICAL_LENSES,
  },
  {
    key: RULE_KEYS.opticalSimpleCylinderMax,
    value: 4,
    unit: 'dioptres',
    label: 'Cylindre maximal (valeur absolue) d’une correction simple',
    source: OPTICAL_LENSES,
  },
  {
    key: RULE_KEYS.opticalLensUnifocalSimple,
    value: 32.5,
    unit: 'eur',
    label: 'Prix limite de vente d’un verre unifocal de classe A, correction simple',
    source: OPTICAL_LENSES,
  },
  {
    key: RULE_KEYS.opticalLensUnifocalComplex,
    value: 60,
    unit: 'eur',
    label: 'Prix limite de vente d’un verre unifocal de classe A, correction complexe',
    source: OPTICAL_LENSES,
  },
  {
    key: RULE_KEYS.opticalLensProgressiveSimple,
    value: 92.5,
    unit: 'eur',
    label: 'Prix limite de vente d’un verre progressif de classe A, correction simple',
    source: OPTICAL_LENSES,
  },
  {
    key: RULE_KEYS.opticalLensProgressiveComplex,
    value: 122.5,
    unit: 'eur',
    label: 'Prix limite de vente d’un verre progressif de classe A, correction complexe',
    source: OPTICAL_LENSES,
  },
];
