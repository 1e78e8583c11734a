// The CSV of PEC files, for French Excel: semicolons, UTF-8 with a BOM, French headers, decimal commas, dd/mm/yyyy.
// Import reads the same file back (the columns it needs, any others ignored).
import { decimalComma, formatDate } from '#domain/format';
import { pecStatusLabel } from '#domain/pec';
import { amountDue, expectedAmount, overpaymentOf } from '#domain/payments';
import { archiveReasonText } from '#domain/archive';
import type { Row } from '../hydra/types';
import { EQUIPMENT_COLUMNS, type FileEquipment } from './equipmentCsv';

type Cell = (item: Row) => string;

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
/** 1450.5 -> "1450,50": a number French Excel reads as one. */
const day = (value: unknown) => (value ? formatDate(value as string) : '');
const name = (value: unknown) => (value && typeof value === 'object' ? text((value as Row).name) : '');
/** A file's prescriber as embedded in the list ({civility, firstName, lastName, rpps}): "Dr Jeanne Martin". */
const prescriberOf = (value: unknown) => {
  const p = value && typeof value === 'object' ? (value as Row) : {};
  return [p.civility, p.firstName, p.lastName].filter(Boolean).join(' ');
};
/** The money of a file as domain/payments.ts reads it. */
const money = (i: Row) => ({
  status: i.status as string,
  partComplementaire: (i.partComplementaire as number | null) ?? null,
  montantPaye: (i.montantPaye as number | null) ?? null,
  montantDu: (i.montantDu as number | null) ?? null,
});

/** A text cell that a spreadsheet would run as a formula gets a leading apostrophe (removed again on import). */
export function safeText(value: unknown): string {
  const s = text(value);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}
export const unsafeText = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);

export const EXPORT_COLUMNS: { header: string; cell: Cell }[] = [
  { header: 'N° dossier', cell: (i) => safeText(i.numeroDossier) },
  { header: 'État', cell: (i) => pecStatusLabel(i.status as string) },
  { header: 'Centre', cell: (i) => safeText(name(i.shop)) },
  { header: 'Réseau', cell: (i) => safeText(name(i.network)) },
  { header: 'Mutuelle', cell: (i) => safeText(name(i.mutual)) },
  { header: 'N° dossier patient', cell: (i) => safeText(i.numeroDossierAssure) },
  { header: 'N° devis', cell: (i) => safeText(i.numeroDevisAssure) },
  { header: 'Montant du devis TTC', cell: (i) => decimalComma(i.totalTtc) },
  { header: 'Date de création', cell: (i) => day(i.createdAt) },
  { header: 'Commentaire', cell: (i) => safeText(i.commentaire) },
  { header: 'N° dossier DPEC', cell: (i) => safeText(i.numDossierDpec) },
  { header: 'N° PEC', cell: (i) => safeText(i.numPec) },
  { header: 'Prix frais réels', cell: (i) => decimalComma(i.prixFraisReels) },
  { header: 'Base SS', cell: (i) => decimalComma(i.baseSs) },
  { header: 'Part SS', cell: (i) => decimalComma(i.partSs) },
  { header: 'Part complémentaire', cell: (i) => decimalComma(i.partComplementaire) },
  { header: 'Reste à charge', cell: (i) => decimalComma(i.resteCharge) },
  { header: 'Date de péremption', cell: (i) => day(i.datePeremption) },
  { header: 'Date de validation', cell: (i) => day(i.dateValidation) },
  { header: 'Facturé', cell: (i) => (i.statutFacturation ? 'Oui' : 'Non') },
  { header: 'N° facture', cell: (i) => safeText(i.numBilling) },
  { header: 'Date de facture', cell: (i) => day(i.dateBilling) },
  { header: 'Date de facturation effective', cell: (i) => day(i.dateFacturationEffective) },
  { header: 'Motif de refus', cell: (i) => safeText(i.detailRefus) },
  // For the accountant (issue 25): what the insurer owes, what it paid and when last, what it still owes, the excess.
  { header: 'Montant attendu', cell: (i) => decimalComma(expectedAmount(money(i))) },
  { header: 'Montant payé', cell: (i) => decimalComma(i.montantPaye) },
  { header: 'Date du dernier paiement', cell: (i) => day(i.datePaiement) },
  { header: 'Montant restant dû', cell: (i) => decimalComma(amountDue(money(i))) },
  { header: 'Trop-perçu', cell: (i) => decimalComma(overpaymentOf(money(i))) },
  { header: 'Prescripteur', cell: (i) => safeText(prescriberOf(i.prescriber)) },
  { header: 'RPPS du prescripteur', cell: (i) => safeText(i.prescriber && typeof i.prescriber === 'object' ? (i.prescriber as Row).rpps : '') },
  // Issue 25: an archived file stays in the export, flagged, with its reason.
  { header: 'Archivée', cell: (i) => (i.archived ? 'Oui' : 'Non') },
  { header: 'Motif d’archivage', cell: (i) => safeText(archiveReasonText(i.archiveReason as string | null, i.archiveNote as string | null)) },
];

/** The export's header: the file's columns, then its equipment's (hearing aids or optical equipment). */
export const EXPORT_HEADER = [...EXPORT_COLUMNS.map((c) => c.header), ...EQUIPMENT_COLUMNS.map((c) => c.header)];

/** One file's line, in the order of EXPORT_HEADER. */
export function exportRecord(item: Row, equipment: FileEquipment | undefined): string[] {
  return [
    ...EXPORT_COLUMNS.map((c) => c.cell(item)),
    ...EQUIPMENT_COLUMNS.map((c) => {
      const value = c.value(equipment);
      return typeof value === 'number' ? decimalComma(value) : safeText(value);
    }),
  ];
}

export const IMPORT_MAX_ROWS = 5000;
