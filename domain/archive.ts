// Files never lost (issue 25): a file that carries money or an insurer's answer is archived, never erased. Who may
// archive and restore, why a deletion is refused, the archive's reasons (the form's zod schema: ./pecSchemas). Shared
// by the browser and the server: one rule, one message.
import { hasPermission, PEC_PERMISSIONS } from './permissions';
import { pecStatusLabel } from './pec';

/** 'settled': a file paid in full, its work done, put away (the office's most common archive). */
export const ARCHIVE_REASONS = ['settled', 'abandoned', 'duplicate', 'input_error', 'other'] as const;
export type ArchiveReason = (typeof ARCHIVE_REASONS)[number];

export const ARCHIVE_REASON_LABELS: Record<ArchiveReason, string> = {
  settled: 'Dossier soldé',
  abandoned: 'Abandonnée par le patient',
  duplicate: 'Doublon',
  input_error: 'Erreur de saisie',
  other: 'Autre',
};

/** The reason as people read it, with its text for 'Autre'. */
export function archiveReasonText(reason: string | null | undefined, note?: string | null): string {
  const label = (ARCHIVE_REASONS as readonly string[]).includes(reason ?? '') ? ARCHIVE_REASON_LABELS[reason as ArchiveReason] : '';
  if (reason === 'other' && note) return `${label} : ${note}`;
  return label;
}

/** The chip beside the status (the statuses of the spec are unchanged: archived is a flag). */
export const ARCHIVED_LABEL = 'Archivée';

export const ARCHIVE_NOTE_MAX = 500;

export const ARCHIVE_MESSAGES = {
  badFilter: 'Filtre « archived » invalide : true, false ou all attendu.',
  reasonWithoutArchive: 'Le motif s’indique en archivant la demande (archived: true)',
  reason: 'Choisissez le motif de l’archivage',
  note: 'Précisez le motif de l’archivage',
  archived: 'Archivée : oui ou non attendu',
  alone: 'L’archivage et la restauration s’enregistrent seuls : enregistrez d’abord les autres modifications.',
  forbiddenArchive: 'Seuls l’auteur de la demande et les utilisateurs autorisés à supprimer des demandes peuvent l’archiver.',
  forbiddenRestore: 'Seuls les utilisateurs autorisés à supprimer des demandes peuvent restaurer une demande archivée.',
  frozen: (numero: string) => `La demande ${numero} est archivée : restaurez-la avant de la modifier.`,
  alreadyArchived: (numero: string) => `La demande ${numero} est déjà archivée.`,
  notArchived: (numero: string) => `La demande ${numero} n’est pas archivée.`,
  runInProgress: 'Un appel robot est en cours sur ce dossier : archivage impossible pour le moment.',
  robot: (numero: string) => `La demande ${numero} est archivée : le robot ne la traite plus. Restaurez-la d’abord.`,
  callback: (numero: string) => `La demande ${numero} est archivée : aucun résultat n’y est enregistré. Restaurez-la d’abord, puis saisissez le résultat.`,
  /**
   * A payment entered by hand, a statement line attached or counted in addition: refused on an archived file (409), and
   * said beforehand under « Enregistrer un paiement » and the held « Compter en plus »: worded for each of these actions.
   */
  newMoney: (numero: string) => `La demande ${numero} est archivée : elle ne reçoit plus de nouveau paiement. Restaurez la demande pour y compter un paiement.`,
  /** A statement line naming an archived file, left to be handled when the statement is applied (its outcome 'archived'). */
  lineOnArchived: (numero: string) =>
    `Demande ${numero} archivée : paiement non compté. Restaurez la demande pour y rattacher ce paiement, ou classez la ligne.`,
} as const;

interface Actor {
  id: number;
  permissions: readonly string[];
}

/**
 * Archiving: the file's author (an Assistant(e) drops a mistaken draft of their own) or whoever may delete files
 * (delete.pec). Restoring brings a file back into the office's work: only delete.pec holders — an organisation's
 * administrators by default, the role that answers for its files — not the author, or an archive would be undone by
 * the person it was meant to correct. Either is a write of the file (a merge-patch): its update permission (pec.edit)
 * comes first, as the server's writer requires it before these rules; read-only staff archive nothing, not even a
 * file of their own.
 */
export const canArchive = (actor: Actor, file: { createdById?: number | null }) =>
  hasPermission(actor.permissions, PEC_PERMISSIONS.update) &&
  (hasPermission(actor.permissions, PEC_PERMISSIONS.delete) || (file.createdById != null && file.createdById === actor.id));

export const canRestore = (actor: Pick<Actor, 'permissions'>) =>
  hasPermission(actor.permissions, PEC_PERMISSIONS.update) && hasPermission(actor.permissions, PEC_PERMISSIONS.delete);

// ---------- money ----------

/**
 * An archived file takes no new money: no payment entered by hand, no statement line attached to it or counted in
 * addition, and a statement applied leaves a line that names it to be handled (its outcome 'archived', never counted
 * unseen); restored, it takes money again. What takes money away or undoes stays possible on it, so that a mistake can
 * always be undone: cancelling a payment, detaching a line, cancelling a statement.
 */
export const takesNewMoney = (file: { archived?: boolean | null }) => !file.archived;

/** Why new money is refused on this file (ARCHIVE_MESSAGES.newMoney), undefined when it takes it. */
export const newMoneyRefusal = (file: { archived?: boolean | null; numeroDossier: string }) =>
  takesNewMoney(file) ? undefined : ARCHIVE_MESSAGES.newMoney(file.numeroDossier);

// ---------- deletion ----------

/** What a deletion is judged on: the file, and what the server knows beside its row. */
export interface DeletionFacts {
  numeroDossier: string;
  status: string;
  statutFacturation?: boolean | null;
  numPec?: string | null;
  /** A payment was recorded on it (server/pec/archive.ts decides). */
  holdsPayment: boolean;
  /** The robot was called for it, or a result was entered by hand. */
  hasRobotRun: boolean;
}

const ARCHIVE_INSTEAD = 'Archivez-la plutôt : elle restera dans l’historique, les exports et les statistiques.';

/**
 * Why the file may not be deleted, in French; undefined when it may. Only a draft that never went to the robot may
 * be erased: anything with money (billed, paid, a payment) or an insurer's answer (a PEC number) is archived instead.
 */
export function deletionRefusal(file: DeletionFacts): string | undefined {
  const cannot = `Suppression impossible : la demande ${file.numeroDossier}`;
  if (file.status === 'paid') return `${cannot} est payée. ${ARCHIVE_INSTEAD}`;
  if (file.status === 'billed' || file.statutFacturation) return `${cannot} est facturée. ${ARCHIVE_INSTEAD}`;
  if (file.holdsPayment) return `${cannot} a reçu un paiement. ${ARCHIVE_INSTEAD}`;
  if (file.numPec) return `${cannot} porte le numéro de PEC ${file.numPec}. ${ARCHIVE_INSTEAD}`;
  if (file.hasRobotRun) return `${cannot} a déjà été transmise au robot. ${ARCHIVE_INSTEAD}`;
  if (file.status !== 'draft') return `${cannot} n’est plus un brouillon (état « ${pecStatusLabel(file.status)} »). ${ARCHIVE_INSTEAD}`;
  return undefined;
}
