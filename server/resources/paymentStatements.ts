// Relevés de paiement (issue 15): the insurers' payment statements an organisation applied to its billed files. The
// list and the statement (with its lines and totals) come from this declaration; importing (preview, apply) and
// undoing are routes of their own (server/pec/paymentRoutes.ts), so the resource itself is read-only.
import { aliasedTable, asc, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { paymentStatementLines, paymentStatements, pecDossiers } from '../db/schema';
import { dateTime, decimal, integer, itemOnly, reference, text, timestamp } from '../hydra/fields';
import { holdingOwned } from '../hydra/tenancy';
import type { ResourceDeclaration } from '../hydra/types';
import { presentLine, type EvaluatedLine } from '../pec/statementMatching';
import { statementTotals } from '../pec/statementFile';
import { iriOf } from '#domain/iri';
import { PAYMENT_PERMISSION } from '#domain/pec';
import {
  isPendingLine,
  PAYMENT_OUTCOME_LABELS,
  PENDING_STATEMENT_FILTER,
  PAYMENT_STATEMENT_STATUS_LABELS,
  PAYMENT_STATEMENT_STATUSES,
  STATEMENT_MESSAGES,
  type LineResolution,
  type PaymentOutcome,
} from '#domain/payments';
import { todayInFrance } from '#domain/pec';
import { canSeeFile } from '../auth/fileVisibility';

const readOnly = { writable: false } as const;
const noInput = z.object({});
/** The statement that applied a line before (already applied). */
const appliedIn = aliasedTable(paymentStatements, 'applied_in');

export const paymentStatementsResource: ResourceDeclaration = {
  name: 'payment_statements',
  className: 'PaymentStatement',
  label: { singular: 'Relevé de paiement', plural: 'Relevés de paiement' },
  auditName: 'payment_statement',
  table: paymentStatements,
  idColumn: paymentStatements.id,
  // Written with the PEC files' payments: its lists are read from the database each time (no list trigger).
  keptLists: false,
  fields: {
    createdAt: timestamp(paymentStatements.createdAt, 'Importé le'),
    payer: text(paymentStatements.payer, { ...readOnly, iri: 'name', label: 'Payeur' }),
    fileName: text(paymentStatements.fileName, { ...readOnly, label: 'Fichier' }),
    linesCount: integer(paymentStatements.linesCount, { ...readOnly, label: 'Lignes' }),
    totalAmount: decimal(paymentStatements.totalAmount, { ...readOnly, label: 'Montant total', description: 'Somme des lignes du relevé, en euros' }),
    appliedAmount: decimal(paymentStatements.appliedAmount, {
      ...readOnly,
      label: 'Montant rapproché',
      description: 'Somme des lignes appliquées à des dossiers (payés, partiels, trop-perçus)',
    }),
    status: text(paymentStatements.status, {
      ...readOnly,
      label: 'État',
      choices: PAYMENT_STATEMENT_STATUSES.map((id) => ({ id, name: PAYMENT_STATEMENT_STATUS_LABELS[id] })),
    }),
    createdBy: reference('users', paymentStatements.createdById, { ...readOnly, embed: ['firstName', 'lastName'], label: 'Importé par' }),
    undoneAt: dateTime(paymentStatements.undoneAt, { ...readOnly, label: 'Annulé le' }),
    undoReason: text(paymentStatements.undoReason, { ...readOnly, label: 'Motif de l’annulation' }),
    pendingLines: integer(paymentStatements.pendingLines, {
      ...readOnly,
      label: 'Lignes à traiter',
      description: 'Lignes dont l’argent n’a atteint aucun dossier et que personne n’a encore rattachées ni classées',
    }),
    reference: text(paymentStatements.reference, { ...readOnly, label: 'N° de relevé', description: 'Le numéro du relevé, quand le fichier le donne' }),
    period: text(paymentStatements.period, { ...readOnly, label: 'Période', description: 'La période du relevé, quand le fichier la donne' }),
    lines: itemOnly('array', {
      label: 'Lignes du relevé',
      description:
        'Chaque ligne avec son résultat (outcome, outcomeLabel), son écart et le dossier rapproché (archived : archivé, il ne reçoit plus de nouveau paiement) ; fiche seulement',
    }),
    totals: itemOnly('object', {
      label: 'Totaux',
      description:
        'Nombre de lignes, montant total, montant rapproché, lignes à traiter et classées (nombre et montant) et, par résultat, nombre et montant (fiche seulement)',
    }),
    undoable: itemOnly('boolean', {
      label: 'Annulable',
      description: 'Appliqué, et chacun de ses dossiers est visible du lecteur : il peut l’annuler (fiche seulement)',
    }),
    updatedAt: timestamp(paymentStatements.updatedAt, 'Modifié le'),
  },
  schema: { create: noInput, update: noInput },
  permissions: { view: PAYMENT_PERMISSION, create: PAYMENT_PERMISSION, update: PAYMENT_PERMISSION, delete: PAYMENT_PERMISSION },
  tenancy: holdingOwned(paymentStatements.holdingId),
  readOnly: true,
  search: [paymentStatements.payer, paymentStatements.fileName],
  filters: { status: paymentStatements.status },
  // `aTraiter=true`: the statements with lines still to be handled; any other value, those without.
  conditionFilters: {
    [PENDING_STATEMENT_FILTER]: (value) => (value === 'true' ? gt(paymentStatements.pendingLines, 0) : eq(paymentStatements.pendingLines, 0)),
  },
  rangeFilters: { createdAt: paymentStatements.createdAt },
  order: { createdAt: paymentStatements.createdAt, totalAmount: paymentStatements.totalAmount, id: paymentStatements.id },
  defaultOrder: ['createdAt', 'desc'],
  idsFollowDefaultOrder: true,
  deletion: { mode: 'none' },
  hooks: {
    async expand({ tx, principal }, items, rows, mode) {
      if (mode !== 'item') return;
      for (const [index, item] of items.entries()) {
        const lines = await tx
          .select({
            line: paymentStatementLines,
            file: { numeroDossier: pecDossiers.numeroDossier, archived: pecDossiers.archived, holdingId: pecDossiers.holdingId, shopId: pecDossiers.shopId },
            appliedIn: { id: appliedIn.id, createdAt: appliedIn.createdAt },
          })
          .from(paymentStatementLines)
          .leftJoin(pecDossiers, eq(pecDossiers.id, paymentStatementLines.dossierId))
          .leftJoin(appliedIn, eq(appliedIn.id, paymentStatementLines.appliedInId))
          .where(eq(paymentStatementLines.statementId, rows[index]!.id as number))
          .orderBy(asc(paymentStatementLines.lineNumber));
        const applied = rows[index]!.status === 'applied';
        const evaluated: EvaluatedLine[] = lines.map(({ line: l, file, appliedIn: earlier }) => {
          // A line on a file of a centre the reader does not see keeps its amount and outcome (the totals add up)
          // but names no file: no link, no reference, no label, no difference.
          const hidden = l.dossierId !== null && file !== null && !canSeeFile(principal, file);
          const outcomeLabel =
            l.resolution === 'attached' && l.resolvedAt
              ? STATEMENT_MESSAGES.attached(l.outcome as PaymentOutcome, todayInFrance(l.resolvedAt), hidden ? null : l.resolutionNote)
              : l.resolution === 'counted' && l.resolvedAt
                ? STATEMENT_MESSAGES.counted(l.outcome as PaymentOutcome, todayInFrance(l.resolvedAt), hidden ? '…' : (l.resolutionNote ?? ''))
                : l.resolution === 'dismissed'
                  ? STATEMENT_MESSAGES.dismissed(l.resolutionNote ?? '')
                  : ((hidden ? null : l.outcomeLabel) ?? PAYMENT_OUTCOME_LABELS[l.outcome as PaymentOutcome] ?? l.outcome);
          return {
            line: l.lineNumber,
            paymentDate: l.paymentDate,
            payer: l.payer ?? '',
            reference: hidden ? STATEMENT_MESSAGES.hiddenReference : l.reference,
            amount: l.amount,
            label: hidden ? null : l.label,
            outcome: l.outcome as PaymentOutcome,
            // A cancelled statement's line still says what it had done, as no longer in force.
            outcomeLabel: applied ? outcomeLabel : STATEMENT_MESSAGES.undoneLine(outcomeLabel),
            resolution: (l.resolution as LineResolution | null) ?? null,
            // An undone statement's lines are no longer to be handled.
            pending: applied && isPendingLine(l),
            // The file's gap after the line: a cancelled statement's no longer says anything of its file.
            difference: hidden || !applied ? null : l.difference,
            expected: null,
            dossier:
              l.dossierId !== null && file && !hidden
                ? { '@id': iriOf('pec_dossiers', l.dossierId), id: l.dossierId, numeroDossier: file.numeroDossier, archived: file.archived }
                : null,
            appliedIn:
              earlier && !hidden ? { '@id': iriOf('payment_statements', earlier.id), id: earlier.id, createdAt: earlier.createdAt.toISOString() } : null,
            statementNumber: null,
            period: null,
            stateBefore: null,
            stateAfter: null,
          };
        });
        item.lines = evaluated.map(presentLine);
        // The undo changes every file the statement named: a reader who does not see one of them cannot undo it.
        const named = lines.filter(({ line: l, file }) => l.dossierId !== null && file !== null);
        item.undoable = rows[index]!.status === 'applied' && named.every(({ file }) => canSeeFile(principal, file!));
        const totals = statementTotals(evaluated);
        item.totals = applied ? totals : { ...totals, pending: { count: 0, amount: 0 } };
      }
    },
    // Lists add nothing: the lines and totals are the statement's own page.
    listJson: {},
  },
};
