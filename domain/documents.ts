// A PEC file's documents (issue 29): their kinds with the French labels, the permission keys, the types accepted.
// The browser and the server read the same codes; the screens never branch on a label.

export const DOCUMENT_KINDS = [
  'ordonnance',
  'devis_normalise',
  'carte_mutuelle',
  'accord_pec',
  'facture',
  'courrier_assureur',
  'autre',
  'recapitulatif',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  ordonnance: 'Ordonnance',
  devis_normalise: 'Devis normalisé',
  carte_mutuelle: 'Carte de mutuelle',
  accord_pec: 'Accord de prise en charge',
  facture: 'Facture',
  courrier_assureur: "Courrier de l'assureur",
  autre: 'Autre',
  recapitulatif: 'Récapitulatif',
};

export const isDocumentKind = (value: unknown): value is DocumentKind => DOCUMENT_KINDS.includes(value as DocumentKind);

/** The label of a kind, or the code itself for a kind this build does not know. */
export const documentKindLabel = (kind: string) => (isDocumentKind(kind) ? DOCUMENT_KIND_LABELS[kind] : kind);

export const DOCUMENT_PERMISSIONS = {
  view: 'pec.documents.view',
  create: 'pec.documents.create',
  delete: 'pec.documents.delete',
} as const;

/** The types a document may have (the server checks the bytes; the browser's file chooser only offers these). */
export const DOCUMENT_MIME_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

/** The kinds a person chooses when adding a file ('Récapitulatif' is printed by Pecflow itself). */
export const UPLOAD_KINDS = DOCUMENT_KINDS.filter((kind) => kind !== 'recapitulatif');
