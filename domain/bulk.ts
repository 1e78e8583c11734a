// Bulk actions on the PEC list's selected files (issue 28): each file goes through the single action's rules on the
// server (server/robot/bulk.ts), which answers one outcome per file; robot runs started in bulk wait their turn
// (at most the organisation's robot concurrency at once).
import { BULK_MAX_FILES } from './limits';

export const BULK_ACTIONS = ['dpec', 'billing', 'archive', 'assign'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The editable system setting: robot runs at once per organisation. */
export const ROBOT_CONCURRENCY_KEY = 'integrations.robot_concurrency_per_organisation';

/** done: the action is applied (or, for a robot run, queued); refused: the file is unchanged, `reason` says why. */
export type BulkOutcome = 'queued' | 'done' | 'refused';

export interface BulkFileResult {
  '@id': string;
  numeroDossier: string | null;
  outcome: BulkOutcome;
  reason?: string;
  /** A bulk billing: the invoice number the file was given. */
  numBilling?: string;
}

export interface BulkSummary {
  bulkId: string;
  action: BulkAction;
  results: BulkFileResult[];
}

export const BULK_MESSAGES = {
  empty: 'Sélectionnez au moins un dossier.',
  ids: 'Liste de dossiers attendue : leurs identifiants ou leurs IRI (/api/pec_dossiers/{id}).',
  numbers: 'Liste des numéros de facture attendue, un par dossier.',
  tooMany: (count: number) => `${count} dossiers sélectionnés : ${BULK_MAX_FILES} au plus par action groupée.`,
  invalidId: 'Identifiant de dossier invalide',
  numberMissing: 'Numéro de facture manquant pour ce dossier.',
  alreadyQueued: 'Ce dossier attend déjà son tour pour le robot.',
  unknownAction: 'Action groupée inconnue : dpec, billing, archive ou assign.',
  /** 'Assigner à…' names a user by their IRI, or nobody (null). */
  ownerInvalid: 'Utilisateur invalide : indiquez /api/users/{id}, ou personne.',
  /** A queued run whose start was refused when its turn came. */
  startRefused: (reason: string) => `Lancement refusé : ${reason}`,
};

/** The invoice numbers of a bulk billing from a pattern: `{n}` is replaced by start, start + 1… in the selection's order. */
export function invoiceNumbers(pattern: string, start: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    pattern.includes('{n}') ? pattern.replaceAll('{n}', String(start + index)) : `${pattern}${start + index}`,
  );
}

/**
 * A bulk billing's numbers in the selection's order: consecutive for the files that may be billed, none ('') for the
 * others, which are refused unchanged, so that no invoice number is skipped.
 */
export function invoiceNumbersFor(pattern: string, start: number, billable: readonly boolean[]): string[] {
  const numbers = invoiceNumbers(pattern, start, billable.filter(Boolean).length);
  let next = 0;
  return billable.map((ok) => (ok ? numbers[next++]! : ''));
}
