// The CSV import of PEC files (the list's « Importer »): its columns, which the server reads by their header
// (headerKey) and the dialog's help names, and the file it offers to start from.
import { decimalComma, headerKey } from './format';

export interface PecImportColumn {
  /** The file's field it fills. */
  field: 'numeroDossier' | 'shop' | 'network' | 'mutual' | 'numeroDossierAssure' | 'numeroDevisAssure' | 'totalTtc' | 'commentaire';
  label: string;
  required: boolean;
  /** The template's line, for the user to replace. */
  example: string;
}

export const PEC_IMPORT_COLUMNS: readonly PecImportColumn[] = [
  { field: 'numeroDossier', label: 'N° dossier', required: false, example: '' },
  { field: 'shop', label: 'Centre', required: true, example: 'Nom du centre' },
  { field: 'network', label: 'Réseau', required: false, example: '' },
  { field: 'mutual', label: 'Mutuelle', required: true, example: 'Nom de la mutuelle' },
  { field: 'numeroDossierAssure', label: 'N° dossier patient', required: true, example: 'PAT-0001' },
  { field: 'numeroDevisAssure', label: 'N° devis', required: true, example: 'DEV-0001' },
  { field: 'totalTtc', label: 'Montant du devis TTC', required: false, example: decimalComma(1450.5) },
  { field: 'commentaire', label: 'Commentaire', required: false, example: '' },
];

/** The column a header names, if any. */
export const pecImportColumnOf = (header: string) => PEC_IMPORT_COLUMNS.find((column) => headerKey(column.label) === headerKey(header));

/** The columns' labels, required or optional, as the dialog's help lists them. */
export const pecImportColumnLabels = (required: boolean) =>
  PEC_IMPORT_COLUMNS.filter((column) => column.required === required)
    .map((column) => column.label)
    .join(', ');

export const PEC_IMPORT_TEMPLATE_NAME = 'modele-import-demandes-pec.csv';

/** The file the dialog offers: every column, one line to replace, in French Excel's CSV (UTF-8 with a BOM, semicolons). */
export function pecImportTemplate(): string {
  const row = (cells: string[]) => `${cells.join(';')}\r\n`;
  return `\uFEFF${row(PEC_IMPORT_COLUMNS.map((column) => column.label))}${row(PEC_IMPORT_COLUMNS.map((column) => column.example))}`;
}
