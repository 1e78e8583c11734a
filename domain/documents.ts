// The documents of a PEC file (issue 29): their kinds, the types accepted, the limits' settings and the messages.
// Kinds are stable codes; the labels are for people only (never branch on them).

export const DOCUMENT_KINDS = ['prescription', 'standard_quote', 'insurance_card', 'agreement', 'invoice', 'insurer_letter', 'other', 'summary'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  prescription: 'Ordonnance',
  standard_quote: 'Devis normalisé',
  insurance_card: 'Carte de mutuelle',
  agreement: 'Accord de prise en charge',
  invoice: 'Facture',
  insurer_letter: 'Courrier de l’assureur',
  other: 'Autre',
  summary: 'Récapitulatif',
};

export const DOCUMENT_KIND_CHOICES = DOCUMENT_KINDS.map((id) => ({ id, name: DOCUMENT_KIND_LABELS[id] }));

/** The types accepted, as their bytes say (file-type), with the extension a download gets. */
export const DOCUMENT_MIME_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentMimeType = (typeof DOCUMENT_MIME_TYPES)[number];

/** The extensions a document of each type may keep; another gets the first one added. */
const EXTENSIONS: Record<DocumentMimeType, readonly string[]> = {
  'application/pdf': ['.pdf'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
};
export const DOCUMENT_NAME_MAX = 255;

/**
 * The name a document keeps, from the one it was sent with: no path, no control or direction-changing characters
 * ("ordonnance\u202Efdp.exe" would read "ordonnanceexe.pdf"), and an extension that says what its bytes are ("page.html"
 * holding a PDF becomes "page.html.pdf"), within DOCUMENT_NAME_MAX with its extension kept.
 */
export function documentName(sent: string, mime: DocumentMimeType): string {
  const bare = plainFileName(sent);
  const extension = EXTENSIONS[mime].find((e) => bare.toLowerCase().endsWith(e)) ?? '';
  const stem = (extension ? bare.slice(0, -extension.length) : bare).trim() || 'document';
  const kept = extension || EXTENSIONS[mime][0]!;
  return `${[...stem].slice(0, DOCUMENT_NAME_MAX - kept.length).join('')}${kept}`;
}

/** A file name as sent, without its path (some browsers send one) nor control or direction-changing characters. */
export const plainFileName = (sent: string) =>
  [...(sent.split(/[\\/]/).pop() ?? '')]
    .filter((c) => !/[\p{Cc}\p{Cf}]/u.test(c))
    .join('')
    .trim();

/** The kinds a user may give an upload: the summary is Pecflow's own print. */
export const UPLOAD_KINDS = DOCUMENT_KINDS.filter((kind) => kind !== 'summary');

/** System settings (Paramètres > Système, storage): the largest document, in MB, and the most documents per file. */
export const DOCUMENT_MAX_SIZE_MB_KEY = 'storage.document_max_size_mb';
export const DOCUMENT_MAX_PER_FILE_KEY = 'storage.documents_per_file_max';
export const DOCUMENT_MAX_SIZE_MB = 10;
/** The highest value the size setting accepts (the robot's document callbacks size their body limit on it). */
export const DOCUMENT_MAX_SIZE_MB_CEILING = 50;
export const DOCUMENT_MAX_PER_FILE = 30;

/** Who added a document: a person (or Pecflow for them, the printed summary), or the robot with its callbacks. */
export const DOCUMENT_SOURCES = ['user', 'robot'] as const;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];
/** The author shown for a document the robot posted back (it has no user). */
export const ROBOT_AUTHOR = 'Robot';
/** The kinds the robot may post back (POST /api/callbacks/documents). */
export const ROBOT_DOCUMENT_KINDS = ['agreement', 'insurer_letter'] as const satisfies readonly DocumentKind[];

/** A file in these statuses is billed: its insurer's agreement is kept (never deleted). */
export const BILLED_FILE_STATUSES = ['billed', 'paid'] as const;

export const DOCUMENT_PERMISSIONS = {
  view: 'pec.documents.view',
  create: 'pec.documents.create',
  delete: 'pec.documents.delete',
} as const;

export const DOCUMENT_MESSAGES = {
  fileRequired: 'Choisissez un fichier à joindre.',
  fileEmpty: 'Le fichier est vide.',
  dossierRequired: 'La demande de PEC est requise.',
  dossierNotFound: 'Demande de PEC introuvable.',
  kindInvalid: `Type de document inconnu : choisissez parmi ${DOCUMENT_KINDS.map((k) => DOCUMENT_KIND_LABELS[k]).join(', ')}.`,
  wrongType: 'Format refusé : seuls les fichiers PDF, JPEG et PNG sont acceptés (le contenu du fichier ne correspond à aucun de ces formats).',
  tooLarge: (maxMb: number) => `Fichier trop volumineux : ${maxMb} Mo au plus par document.`,
  tooMany: (max: number) => `Cette demande a déjà ${max} documents, le maximum : supprimez-en un avant d’en ajouter un autre.`,
  corruptPdf: 'Ce PDF est endommagé ou incomplet : il ne peut pas être lu. Enregistrez-le à nouveau et joignez-le.',
  encryptedPdf: 'Ce PDF est protégé par un mot de passe : joignez une version non protégée.',
  agreementOfBilledFile: 'L’accord de prise en charge sur lequel la demande a été facturée ne peut pas être supprimé.',
  notFound: 'Document introuvable.',
  summaryReserved: 'Le récapitulatif est imprimé par Pecflow (« Imprimer le récapitulatif ») : choisissez un autre type.',
  robotKindInvalid: `Type de document refusé pour le robot : ${ROBOT_DOCUMENT_KINDS.map((k) => DOCUMENT_KIND_LABELS[k]).join(' ou ')}.`,
  contentInvalid: 'Contenu invalide : le fichier doit être encodé en base64.',
} as const;

/** The signed links the robot's job carries (GET /api/robot/documents/{id}?expires=…&signature=…). */
export const ROBOT_LINK_MESSAGES = {
  expired: 'Lien expiré : ce lien de document n’est plus valable, le robot doit redemander le dossier.',
  invalid: 'Lien invalide : la signature de ce lien de document ne correspond pas.',
} as const;

/** What the built-in robot (the simulator) answers, as an insurer's portal would, for an optical DPEC without its prescription. */
export const PORTAL_MISSING_PRESCRIPTION = 'Ordonnance manquante : le portail refuse la demande.';
