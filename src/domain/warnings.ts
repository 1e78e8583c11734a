// Checks the server runs on a PEC file before it is sent and on what the insurer answers (issue 15). A warning never
// blocks: it is shown with its reason. The file's JSON carries `warnings: PecWarning[]` ([] when none).
export const WARNING_CODES = [
  'renouvellement_anticipe',
  'prescription_trop_ancienne',
  'classe_1_prix_limite',
  'classe_a_prix_limite',
  'reste_a_charge_100_sante',
  'montants_incoherents',
  'part_ss_incoherente',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export interface PecWarning {
  code: WarningCode;
  /** French, for the user: what is wrong and why ("Renouvellement anticipé : dernier équipement facturé le 12/03/2024 …"). */
  message: string;
  /** Where it applies, when it is one ear or one eye: 'droite' | 'gauche' | 'OD' | 'OG'. */
  side?: string;
  /** The legal source of the rule or limit applied (from the reference data). */
  source?: string;
  /** Machine-readable details (dates, amounts, limits) a client may use. */
  details?: Record<string, string | number | boolean | null>;
}
