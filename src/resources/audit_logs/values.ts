// The audit's recorded codes that read as French labels: a statement line's outcome (`resultat`: 'partial' →
// « Paiement partiel »), a PEC file's status ('approved' → « Approuvé »), a robot result's outcome and origin. From the
// small modules alone (./paymentOutcomes, ./pecStatus): the settings chunk that holds the audit trail does not load the
// payment nor the PEC rules (tests/e2e/foundation.spec.ts).
import { paymentOutcomeLabel } from '#domain/paymentOutcomes';
import { isPecStatus, PEC_STATUS_LABELS } from '#domain/pecStatus';

/** The field under which payments and statement lines record their outcome (server/pec/statements.ts, paymentHistory.ts). */
export const OUTCOME_FIELD = 'resultat';

/** Who posted a robot result (server/robot/callbacks.ts records `source`): the robot, or the office by hand. */
const RESULT_SOURCES: Record<string, string> = { robot: 'Robot', 'saisie manuelle': 'Saisie manuelle' };

/**
 * A recorded code's label, undefined when the value is not one (shown as it is). `robotOutcome` names a robot result's
 * outcome (`outcome`: 'success'…), as a file's run history does.
 */
export const recordedCodeLabel = (entity: string, field: string | undefined, value: unknown, robotOutcome: (code: string) => string | undefined) => {
  if (field === OUTCOME_FIELD) return paymentOutcomeLabel(value);
  if (entity !== 'pec_dossiers' || typeof value !== 'string') return undefined;
  if (field === 'status') return isPecStatus(value) ? PEC_STATUS_LABELS[value] : undefined;
  if (field === 'outcome') return robotOutcome(value);
  if (field === 'source') return RESULT_SOURCES[value];
  return undefined;
};
