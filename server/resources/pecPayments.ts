// The payment history of PEC files (issue 25): every payment that touches a file, from a statement's line or entered
// by hand, read as its own collection, /api/pec_payments?dossier=/api/pec_dossiers/{id}. A collection rather than a
// list embedded in the file: each payment has its IRI (its cancellation is POST /api/pec_payments/{id}/cancel, and a
// statement's page can link to them), the drawer reads it with react-admin's ReferenceManyField, and the file's own
// read (prepared once, server/hydra/repository.ts) stays one statement. Read-only here: payments are posted by a
// statement (server/pec/paymentRoutes.ts) or 'Enregistrer un paiement', and never deleted.
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { pecDossiers, pecPayments } from '../db/schema';
import { computed, date, dateTime, decimal, reference, text, timestamp } from '../hydra/fields';
import type { ResourceDeclaration, Tenancy } from '../hydra/types';
import { isPlatformAdmin, pecReadScope, seesWholeOrganisation } from '../auth/fileVisibility';
import { cancelRefusalJson } from '../pec/paymentHistory';
import { PAYMENT_PERMISSION } from '#domain/pec';
import { PEC_PERMISSIONS } from '#domain/permissions';
import { PAYMENT_SOURCE_LABELS, PAYMENT_SOURCES } from '#domain/payments';

const readOnly = { writable: false } as const;
const noInput = z.object({});

/** A payment is seen by whoever sees its file (the files' rule: their organisation, their centres). */
const paymentTenancy: Tenancy = {
  holdingColumn: pecPayments.holdingId,
  readScope(principal) {
    if (isPlatformAdmin(principal)) return undefined;
    if (!principal.holdingId) return sql`false`;
    const holding = eq(pecPayments.holdingId, principal.holdingId);
    if (seesWholeOrganisation(principal)) return holding;
    return and(holding, sql`${pecPayments.dossierId} in (select ${pecDossiers.id} from ${pecDossiers} where ${pecReadScope(principal)})`);
  },
};

export const pecPaymentsResource: ResourceDeclaration = {
  name: 'pec_payments',
  className: 'PecPayment',
  label: { singular: 'Paiement', plural: 'Paiements' },
  auditName: 'pec_payment',
  table: pecPayments,
  idColumn: pecPayments.id,
  // Written with the PEC files' payments: its lists are read from the database each time (no list trigger).
  keptLists: false,
  fields: {
    dossier: reference('pec_dossiers', pecPayments.dossierId, { ...readOnly, embed: ['numeroDossier'], label: 'Demande de PEC' }),
    paymentDate: date(pecPayments.paymentDate, { ...readOnly, label: 'Date du paiement' }),
    amount: decimal(pecPayments.amount, { ...readOnly, label: 'Montant', description: 'Montant reçu, en euros' }),
    source: text(pecPayments.source, {
      ...readOnly,
      label: 'Origine',
      description: 'statement (une ligne d’un relevé de paiement) ou manual (saisi dans la demande)',
      choices: PAYMENT_SOURCES.map((id) => ({ id, name: PAYMENT_SOURCE_LABELS[id] })),
    }),
    paymentStatement: reference('payment_statements', pecPayments.statementId, { ...readOnly, label: 'Relevé de paiement' }),
    payer: text(pecPayments.payer, { ...readOnly, label: 'Payeur' }),
    reference: text(pecPayments.reference, { ...readOnly, label: 'Référence', description: 'La référence de la ligne du relevé (N° PEC ou N° de facture)' }),
    label: text(pecPayments.label, { ...readOnly, label: 'Libellé' }),
    distinctReason: text(pecPayments.distinctReason, {
      ...readOnly,
      label: 'Paiement distinct',
      description: 'Un second paiement du même montant le même jour qu’un autre du dossier, enregistré comme tel : pourquoi',
    }),
    createdBy: reference('users', pecPayments.createdById, { ...readOnly, embed: ['firstName', 'lastName'], label: 'Enregistré par' }),
    createdAt: timestamp(pecPayments.createdAt, 'Enregistré le'),
    reversedAt: dateTime(pecPayments.reversedAt, {
      ...readOnly,
      label: 'Annulé le',
      description: 'Un paiement n’est jamais supprimé : annulé, il ne compte plus',
    }),
    reversedBy: reference('users', pecPayments.reversedById, { ...readOnly, embed: ['firstName', 'lastName'], label: 'Annulé par' }),
    reversalReason: text(pecPayments.reversalReason, { ...readOnly, label: 'Motif de l’annulation' }),
    // The rule the cancellation applies: the history's 'Annuler' says before it is tried that it would be refused.
    cancelRefusal: computed('object', cancelRefusalJson, {
      label: 'Annulation impossible',
      description:
        'null : POST /api/pec_payments/{id}/cancel l’annule ; sinon pourquoi il le refuse {rule: fromStatement|alreadyCancelled|laterStatement|confirmedByStatement, statements: [{id, createdAt}]}, dont le message de refus est cancelRefusalMessage (domain/payments.ts)',
    }),
  },
  schema: { create: noInput, update: noInput },
  // Read with the file's read permission; posted and cancelled by those who record payments.
  permissions: { view: PEC_PERMISSIONS.view, create: PAYMENT_PERMISSION, update: PAYMENT_PERMISSION, delete: PAYMENT_PERMISSION },
  tenancy: paymentTenancy,
  readOnly: true,
  filters: { dossier: pecPayments.dossierId, source: pecPayments.source, paymentStatement: pecPayments.statementId },
  rangeFilters: { paymentDate: pecPayments.paymentDate },
  order: { paymentDate: pecPayments.paymentDate, createdAt: pecPayments.createdAt, amount: pecPayments.amount, id: pecPayments.id },
  defaultOrder: ['paymentDate', 'asc'],
  deletion: { mode: 'none' },
  // As many as the billed files: read page by page, like them.
  unpaginatedAllowed: false,
};
