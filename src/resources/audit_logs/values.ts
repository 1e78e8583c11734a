// The audit's recorded codes that read as French labels, whatever entity recorded them: a statement line's outcome
// (`resultat`: 'partial' → « Paiement partiel »). From ./paymentOutcomes alone: the settings chunk that holds the audit
// trail does not load the payment rules (tests/e2e/foundation.spec.ts).
import { paymentOutcomeLabel } from '#domain/paymentOutcomes';

/** The field under which payments and statement lines record their outcome (server/pec/statements.ts, paymentHistory.ts). */
export const OUTCOME_FIELD = 'resultat';

/** A recorded code's label, undefined when the value is not one (shown as it is). */
export const recordedCodeLabel = (field: string | undefined, value: unknown): string | undefined =>
  field === OUTCOME_FIELD ? paymentOutcomeLabel(value) : undefined;
