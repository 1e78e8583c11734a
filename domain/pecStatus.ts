// A PEC file's statuses and their French labels, apart from the lifecycle's rules (./pec): the audit trail names the
// statuses a file went through, and the settings pages that hold it must not load the PEC rules with them
// (tests/e2e/foundation.spec.ts checks what a settings list loads).

export const PEC_STATUSES = ['draft', 'processing', 'pending', 'approved', 'rejected', 'billed', 'paid'] as const;
export type PecStatus = (typeof PEC_STATUSES)[number];

export const PEC_STATUS_LABELS: Record<PecStatus, string> = {
  draft: 'Brouillon',
  processing: 'En cours',
  pending: 'En attente',
  approved: 'Approuvé',
  rejected: 'Refusé',
  billed: 'Facturé',
  paid: 'Payé',
};

/** The pending badge pulses (spec section 4). */
export const PULSING_STATUSES: readonly PecStatus[] = ['pending'];

export const isPecStatus = (value: unknown): value is PecStatus => typeof value === 'string' && (PEC_STATUSES as readonly string[]).includes(value);

export const pecStatusLabel = (status: string | null | undefined) => (isPecStatus(status) ? PEC_STATUS_LABELS[status] : 'Non défini');
