// What became of a statement's line (its outcome) and its French label, apart from the payment rules (./payments):
// the audit trail shows the outcomes a line went through by these labels, and the settings pages that hold it must not
// load the payment rules and messages with them (tests/e2e/foundation.spec.ts checks what a settings list loads).

export const PAYMENT_OUTCOMES = [
  'paid',
  'partial',
  'overpaid',
  'unknown',
  'ambiguous',
  'already_paid',
  'already_applied',
  'not_billed',
  'before_invoice',
  'archived',
] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

export const PAYMENT_OUTCOME_LABELS: Record<PaymentOutcome, string> = {
  paid: 'Payé intégralement',
  partial: 'Paiement partiel',
  overpaid: 'Trop-perçu',
  unknown: 'Référence inconnue',
  ambiguous: 'Référence ambiguë (plusieurs demandes)',
  already_paid: 'Déjà payé',
  already_applied: 'Déjà appliquée ou reçue',
  not_billed: 'Pas encore facturé',
  before_invoice: 'Antérieur à la facture',
  // The line names an archived file, which takes no new money (./archive, takesNewMoney): it waits to be handled.
  archived: 'Demande archivée',
};

/** An outcome as recorded (the audit's `resultat`) by its label; undefined for any other value. */
export const paymentOutcomeLabel = (value: unknown): string | undefined =>
  typeof value === 'string' && (PAYMENT_OUTCOMES as readonly string[]).includes(value) ? PAYMENT_OUTCOME_LABELS[value as PaymentOutcome] : undefined;
