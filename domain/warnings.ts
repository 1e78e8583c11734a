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
  'doublon_possible',
  'ordonnance_manquante',
  'devis_normalise_manquant',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export interface PecWarning {
  code: WarningCode;
  /** French, for the user: what is wrong and why, under its title (WARNING_LABELS), which it does not repeat ("Dernier équipement optique facturé le 12/03/2024 …"). */
  message: string;
  /** Where it applies, when it is one ear or one eye: 'droite' | 'gauche' | 'OD' | 'OG'. */
  side?: string;
  /** The legal source of the rule or limit applied (from the reference data). */
  source?: string;
  /** Machine-readable details (dates, amounts, limits) a client may use. */
  details?: Record<string, string | number | boolean | null>;
  /** Another file the warning is about (a twin): its page in the application (/pec/{id}) and its number. */
  link?: { url: string; label: string };
}

/**
 * System settings (Paramètres > Système, category Général) holding how long a prescription stays valid, in months,
 * per kind of file and, for optics, per age band (code de la santé publique, art. D. 4362-12-1: under 16, 16 to 42,
 * from 42). Their sources are in the README.
 */
export const PRESCRIPTION_VALIDITY_KEYS = {
  audio: 'general.prescription_validity_months.audio',
  opticalUnder16: 'general.prescription_validity_months.optical_under_16',
  optical16To42: 'general.prescription_validity_months.optical_16_to_42',
  opticalFrom42: 'general.prescription_validity_months.optical_from_42',
} as const;

/** The title of each warning in the drawer. */
export const WARNING_LABELS: Record<WarningCode, string> = {
  renouvellement_anticipe: 'Renouvellement anticipé',
  prescription_trop_ancienne: 'Prescription trop ancienne',
  classe_1_prix_limite: 'Classe I au-dessus du prix limite',
  classe_a_prix_limite: 'Classe A au-dessus du prix limite',
  reste_a_charge_100_sante: 'Reste à charge sur un équipement 100 % Santé',
  montants_incoherents: 'Montants incohérents',
  part_ss_incoherente: 'Part Sécurité sociale incohérente',
  doublon_possible: 'Doublon possible',
  ordonnance_manquante: 'Ordonnance manquante',
  devis_normalise_manquant: 'Devis normalisé manquant',
};
