// The PEC data beside react-admin's standard methods (spec section 7): the robot runs, the manual callbacks, the
// billing PATCH, the dashboard figures, CSV import and export. They are methods of the one data provider (index.ts),
// called with useMutation / useQuery under the `pec_dossiers` query key, so that invalidating that key refreshes the
// list, the open file and the dashboard together. Create, edit and delete are react-admin's own (the Hydra provider).
// Every call here has the spec's time limit (section 9).
import { HttpError, type Identifier, type SortPayload } from 'ra-core';
import type { z } from 'zod';
import { authFetch } from '../session';
import { extractErrorMessage } from '#domain/errors';
import { iriOf } from '#domain/iri';
import { BILLING_TIMEOUT_MS, DPEC_TIMEOUT_MS, HTTP_TIMEOUT_MS } from '#domain/limits';
import type { CallbackType, PecStatus, RunKind, WorkflowExecutionView } from '#domain/pec';
import type { CallbackSaved, ImportResult, RunStarted } from '#domain/pecAnswers';
import type { FileKind } from '#domain/fileKinds';
import type { EquipementOptique } from '#domain/optical';
import type { PecWarning } from '#domain/warnings';
import type { BulkAction, BulkSummary } from '#domain/bulk';
import { AMOUNTS_CHECKED_PARAM, CONFIRM_DUPLICATE_FLAG } from '#domain/confirmations';
import { type CancelRefusal, type PaymentLine, type PaymentStatementStatus, type PaymentTotals, type ReceivableAge } from '#domain/payments';
import type { manualPaymentSchema } from '#domain/pecSchemas';
import { apiFetch, type ApiRequest } from './http';
import type { DocumentUpload } from './documents';

export const PEC_RESOURCE = 'pec_dossiers';
/** The dashboard's figures: under the resource's key, so one invalidation refreshes them with the list and the file. */
export const PEC_STATS_QUERY_KEY = [PEC_RESOURCE, 'stats'];
/** A file's payment history (issue 25): its payments, from statements or entered by hand. */
export const PEC_PAYMENTS_RESOURCE = 'pec_payments';
/** A file's documents (issue 29): /api/pec_documents?dossier=… */
export const PEC_DOCUMENTS_RESOURCE = 'pec_documents';
/** What a change to files refreshes: the files, lists and figures, and the files' payment histories and documents. */
export const PEC_QUERY_KEYS = [[PEC_RESOURCE], [PEC_PAYMENTS_RESOURCE], [PEC_DOCUMENTS_RESOURCE]] as const;

/** A call that ran out of time; `ms` is the limit it had. */
export class RequestTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`Délai dépassé (${ms} ms)`);
  }
}

const isTimeout = (error: unknown) => error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** apiFetch with a time limit (10 minutes unless told otherwise). */
async function call<T>(path: string, request: ApiRequest = {}, timeoutMs = HTTP_TIMEOUT_MS): Promise<T> {
  try {
    return await apiFetch<T>(path, { ...request, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw isTimeout(error) ? new RequestTimeoutError(timeoutMs) : error;
  }
}

/** The files' own reference form: /api/pec_dossiers/7 for 7. */
export const pecIri = (id: number | string) => iriOf('pec_dossiers', id);

/** The numeric id of a record read through the Hydra provider (its id is the IRI, originId the number). */
export function pecNumericId(record: { id?: unknown; originId?: unknown } | undefined): number | undefined {
  const raw = record?.originId ?? record?.id;
  const match = /(\d+)$/.exec(String(raw ?? ''));
  return match ? Number(match[1]) : undefined;
}

// ---------- what the API answers ----------

export interface NamedRef {
  '@id'?: string;
  id: number;
  name: string | null;
}

export interface PecAppareil {
  id: number;
  oreille: 'droite' | 'gauche' | string;
  fabricant: string | null;
  marque: string | null;
  modele: string | null;
  prixTtc: number | null;
  codeLpp: string | null;
  premierAppareillage: 'oui' | 'non' | string;
  forme: string | null;
  classe: string | null;
  offre100Sante: 'oui' | 'non' | string;
}

/** The file's prescriber as the API embeds it. */
export interface PrescriberRef {
  '@id': string;
  id: number;
  civility?: string | null;
  lastName?: string | null;
  firstName?: string | null;
  specialty?: string | null;
  rpps?: string | null;
}

export interface PecDossierRecord {
  id: string;
  originId?: string;
  numeroDossier: string;
  status: PecStatus | string;
  /** specialite: the centre's, which sets the file's kind (domain/fileKinds.ts). */
  shop: (NamedRef & { displayName?: string | null; specialite?: string | null }) | null;
  network: NamedRef | null;
  mutual: (NamedRef & { code?: string | null; networkId?: number | null; network?: { id: number; name: string | null } | null }) | null;
  numeroDossierAssure: string | null;
  numeroDevisAssure: string | null;
  commentaire: string | null;
  dateCreation: string | null;
  totalTtc: number | null;
  externalId: string | null;
  numDossierDpec: string | null;
  numPec: string | null;
  prixFraisReels: number | null;
  baseSs: number | null;
  partSs: number | null;
  partComplementaire: number | null;
  resteCharge: number | null;
  datePeremption: string | null;
  dateValidation: string | null;
  dateFacturationEffective: string | null;
  statutFacturation: boolean;
  numBilling: string | null;
  dateBilling: string | null;
  detailRefus: string | null;
  montantPaye?: number | null;
  datePaiement?: string | null;
  paiementPartiel?: boolean;
  montantDu?: number | null;
  createdAt: string;
  updatedAt: string;
  appareils?: PecAppareil[];
  /** What the file holds, by its centre's specialty (item only). */
  fileKind?: FileKind;
  /** An optician's file's frame and lenses (item only; null otherwise). */
  equipementOptique?: EquipementOptique | null;
  workflowExecutions?: WorkflowExecutionView[];
  prescriber?: PrescriberRef | string | null;
  datePrescription?: string | null;
  dateNaissanceBeneficiaire?: string | null;
  /** The insured (issue 29): names and contract number, optional. */
  nomAssure?: string | null;
  prenomAssure?: string | null;
  numeroAdherent?: string | null;
  /** Computed by the server on the full file (issue 15); [] when none. */
  warnings?: PecWarning[];
  runInProgress?: { runId: number; kind: string; step: string; startedAt: string; deadlineAt: string | null } | null;
  /** Its latest robot run when it failed within the dashboard's window (shaped by shapeRobotError); null otherwise. */
  robotFailure?: { kind: 'dpec' | 'billing'; messages: string[]; at: string } | null;
  /** Archived (issue 25, domain/archive.ts): out of the default list; its reason. */
  archived?: boolean;
  archivedAt?: string | null;
  archiveReason?: string | null;
  archiveNote?: string | null;
  /** Its author's IRI (/api/users/12). */
  createdBy?: string | null;
  /** 'Suivi par' (issue 28): the user who follows it, embedded; its follow-up date. */
  owner?: { '@id': string; firstName?: string; lastName?: string } | string | null;
  followUpDate?: string | null;
  /** The last status change (why a file waiting 'En attente' is "À relancer"), and whether the file is due now (the file only). */
  statusChangedAt?: string | null;
  followUpDue?: boolean;
}

/** A user who sees a file: who may follow it, who a note may mention. */
export interface PecColleague {
  '@id': string;
  id: number;
  firstName: string;
  lastName: string;
  /** May follow files ('Suivi par'); read-only staff are mentioned, never owners. */
  mayFollow: boolean;
  /** The reader's colleagues only (pecMyColleagues): the reader's centres whose files they see, null for all. */
  shopIds?: number[] | null;
}

export interface PecStats {
  month: string;
  total: number;
  byStatus: Record<PecStatus, number>;
  /** Files per kind (their centre's specialty). */
  byKind: Record<FileKind, number>;
  expiringSoon: number;
  expiringWithinDays: number;
  /** Files whose robot run failed within the last robotFailureWindowDays days. */
  robotFailures7d: number;
  robotFailureWindowDays: number;
  /** Files "À relancer" (domain/followUps.ts): the list behind `aRelancer=true`. */
  followUpsDue: number;
  approvedThisMonth: { count: number; totalTtc: number; partComplementaire: number };
  billedThisMonth: { count: number; totalTtc: number; partComplementaire: number };
  /** Billed and not yet paid: count and amount still owed, by days since billing, and the payment discrepancies. */
  receivables?: {
    today: string;
    count: number;
    amount: number;
    byAge: { key: ReceivableAge; count: number; amount: number }[];
    partial: { count: number; amount: number };
    overpaid: { count: number; amount: number };
  };
  /** Statement lines whose money reached no file yet ('À traiter'): lines and amount; null without the payment permission. */
  unplacedPayments?: { count: number; amount: number } | null;
}

// ---------- payments (issue 15) ----------

export const PAYMENT_STATEMENTS_RESOURCE = 'payment_statements';

/** A payment of a file's history as the Hydra provider reads it (id: its IRI). */
export interface PecPaymentRecord {
  id: string;
  originId?: string;
  '@id'?: string;
  paymentDate: string;
  amount: number;
  source: string;
  paymentStatement: string | null;
  payer: string | null;
  reference: string | null;
  label: string | null;
  /** A second payment of the same amount on the same day as another of the file's, recorded as such: why. */
  distinctReason: string | null;
  createdBy?: { firstName?: string | null; lastName?: string | null } | string | null;
  createdAt: string;
  reversedAt: string | null;
  reversedBy?: { firstName?: string | null; lastName?: string | null } | string | null;
  reversalReason: string | null;
  /** Why POST …/cancel would refuse it (null: it would cancel it). */
  cancelRefusal?: CancelRefusal | null;
}

export interface PaymentPreview {
  fileName: string | null;
  payer: string;
  reference: string | null;
  period: string | null;
  /** The same statement applied already: applying it again is refused. */
  alreadyImported: { '@id': string; id: number; createdAt: string; linesCount: number; message: string } | null;
  /** Sent back with the apply: refused (409) if the statement would now do something else than this preview says. */
  fingerprint: string;
  lines: PaymentLine[];
  totals: PaymentTotals;
}

export interface PaymentStatementRecord {
  '@id': string;
  id: string | number;
  originId?: string;
  createdAt: string;
  payer: string | null;
  fileName: string | null;
  linesCount: number;
  totalAmount: number;
  appliedAmount: number;
  /** Its lines whose money reached no file, still to be handled ('À traiter'). */
  pendingLines?: number;
  status: PaymentStatementStatus | string;
  undoneAt: string | null;
  undoReason: string | null;
  /** The statement's own number and period, when its file gave them. */
  reference?: string | null;
  period?: string | null;
  createdBy?: { firstName?: string; lastName?: string } | string | null;
  lines?: PaymentLine[];
  totals?: PaymentTotals;
  /** Applied, and the reader sees every file it named: they may undo it (the statement's page only). */
  undoable?: boolean;
}

/** A document of a file as the Hydra provider reads it (id: its IRI). */
export interface PecDocumentRecord {
  id: string;
  '@id'?: string;
  kind: string;
  originalName: string;
  /** Bytes. */
  size: number;
  mimeType: string;
  /** GET with the bearer token: the bytes. */
  contentUrl: string;
  createdBy?: { firstName?: string | null; lastName?: string | null } | string | null;
  /** 'robot' for a document the robot brought back (its author is shown as 'Robot'). */
  source?: string;
  createdAt: string;
}

/** The statement file as a multipart upload (its bytes as they are: the server decides UTF-8 or Windows-1252). */
const statementForm = (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
};

/** The creation and edit body (spec section 7): references as IRIs. */
export interface PecBody {
  numeroDossier?: string | null;
  shop: string;
  network?: string | null;
  mutual: string;
  numeroDossierAssure: string;
  numeroDevisAssure: string;
  commentaire?: string | null;
  status?: string;
  prescriber?: string | null;
  datePrescription?: string | null;
  dateNaissanceBeneficiaire?: string | null;
  nomAssure?: string | null;
  prenomAssure?: string | null;
  numeroAdherent?: string | null;
}

// ---------- the calls ----------

/** Saves a response body as a file under this name. */
export function download(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const pecMethods = {
  /**
   * POST /api/robot-frontend/setup-and-create-dpec (120 s) or setup-and-billing-pec (60 s). `confirmDuplicate`: the
   * user confirmed a DPEC although a twin's request is at the insurer.
   */
  pecRun: ({ id, kind, confirmDuplicate }: { id: number; kind: RunKind; confirmDuplicate?: boolean }) =>
    kind === 'dpec'
      ? call<RunStarted>(
          '/api/robot-frontend/setup-and-create-dpec',
          { method: 'POST', body: { pecDossierId: id, ...(confirmDuplicate ? { [CONFIRM_DUPLICATE_FLAG]: true } : {}) } },
          DPEC_TIMEOUT_MS,
        )
      : call<RunStarted>('/api/robot-frontend/setup-and-billing-pec', { method: 'POST', body: { pecDossierId: id } }, BILLING_TIMEOUT_MS),

  /** The billing dialog's invoice number and date, as a merge-patch. */
  pecSaveBilling: ({ id, data }: { id: number; data: { numBilling: string; dateBilling: string } }) =>
    call(pecIri(id), { method: 'PATCH', body: data, headers: { 'Content-Type': 'application/merge-patch+json' } }),

  /** A bulk action on selected files (POST /api/pec_dossiers/bulk/{action}): one outcome per file. */
  pecBulk: ({ action, ids, ...data }: { action: BulkAction; ids: Identifier[] } & Record<string, unknown>) =>
    call<BulkSummary>(`/api/pec_dossiers/bulk/${action}`, { method: 'POST', body: { ids, ...data } }),

  /** A robot result entered by hand (POST /api/callbacks/{type}). */
  pecCallback: ({ type, data }: { type: CallbackType; data: Record<string, unknown> }) =>
    call<CallbackSaved>(`/api/callbacks/${type}`, { method: 'POST', body: data }),

  pecStats: () => call<PecStats>('/api/pec_dossiers/stats'),

  /** The users who see a file (GET /api/pec_dossiers/{id}/colleagues). */
  pecColleagues: (id: number) => call<{ member: PecColleague[] }>(`${pecIri(id)}/colleagues`).then((answer) => answer.member),

  /** The reader's colleagues, who see files they see (GET /api/pec_colleagues). */
  pecMyColleagues: () => call<{ member: PecColleague[] }>('/api/pec_colleagues').then((answer) => answer.member),

  /** 'Enregistrer un paiement' on one billed file; answers the file. */
  pecPayment: ({ id, data }: { id: number; data: z.output<typeof manualPaymentSchema> }) =>
    call<PecDossierRecord>(`${pecIri(id)}/payments`, { method: 'POST', body: data }),

  /** A payment statement's lines with their outcome; writes nothing. */
  paymentPreview: ({ file }: { file: File }) => call<PaymentPreview>('/api/payment_statements/preview', { method: 'POST', body: statementForm(file) }),

  /**
   * Applies a payment statement all or nothing, as its preview (`fingerprint`) said, with the lines it flagged to be
   * checked confirmed when `amountsChecked`; answers the statement.
   */
  paymentApply: ({ file, fingerprint, amountsChecked = false }: { file: File; fingerprint: string; amountsChecked?: boolean }) =>
    call<PaymentStatementRecord>(`/api/payment_statements?apercu=${encodeURIComponent(fingerprint)}${amountsChecked ? `&${AMOUNTS_CHECKED_PARAM}=1` : ''}`, {
      method: 'POST',
      body: statementForm(file),
    }),

  /** Cancels a manual payment of a file's history, with its reason; answers the payment. */
  pecPaymentCancel: ({ id, motif }: { id: number; motif: string }) =>
    call<PecPaymentRecord>(`/api/${PEC_PAYMENTS_RESOURCE}/${id}/cancel`, { method: 'POST', body: { motif } }),

  /** Undoes a statement as a whole (409 when a file changed since). */
  paymentUndo: ({ id, motif }: { id: number; motif: string }) =>
    call<PaymentStatementRecord>(`/api/payment_statements/${id}/undo`, { method: 'POST', body: { motif } }),

  /** A statement's line to be handled, attached to a billed file (its IRI), as a distinct payment with its reason if need be; answers the statement. */
  paymentLineAttach: ({
    id,
    line,
    ...body
  }: {
    id: number;
    line: number;
    dossier: unknown;
    motifDistinct?: unknown;
    paiementsDuJour?: number;
    montantVerifie?: boolean;
  }) => call<PaymentStatementRecord>(`/api/payment_statements/${id}/lines/${line}/attach`, { method: 'POST', body }),

  /** A statement's line to be handled, set aside with its reason; answers the statement. */
  paymentLineDismiss: ({ id, line, motif }: { id: number; line: number; motif: string }) =>
    call<PaymentStatementRecord>(`/api/payment_statements/${id}/lines/${line}/dismiss`, { method: 'POST', body: { motif } }),

  /** A statement's line taken for a payment already counted, counted as a distinct payment of its file; answers the statement. */
  paymentLineCount: ({ id, line, motif }: { id: number; line: number; motif: string }) =>
    call<PaymentStatementRecord>(`/api/payment_statements/${id}/lines/${line}/count`, { method: 'POST', body: { motif } }),

  /** A statement's line attached or counted by hand, detached with its reason (its payment reversed); answers the statement. */
  paymentLineDetach: ({ id, line, motif }: { id: number; line: number; motif: string }) =>
    call<PaymentStatementRecord>(`/api/payment_statements/${id}/lines/${line}/detach`, { method: 'POST', body: { motif } }),

  /** A statement's line set aside, back to be handled; answers the statement. */
  paymentLineReopen: ({ id, line }: { id: number; line: number }) =>
    call<PaymentStatementRecord>(`/api/payment_statements/${id}/lines/${line}/reopen`, { method: 'POST' }),

  pecImport: ({ csv }: { csv: string }) =>
    call<ImportResult>('/api/pec_dossiers/import', { method: 'POST', body: csv, headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),

  /** Downloads the CSV of the list's filters and order; resolves with the file name. */
  pecExport: ({ filter, sort }: { filter: Record<string, unknown>; sort?: SortPayload }): Promise<string> => {
    const query = listQueryString(filter, sort);
    return downloadCsv(`/api/pec_dossiers/export${query ? `?${query}` : ''}`, 'demandes-pec.csv');
  },

  /** Adds a document to a file (multipart, with its progress); answers the document. Loaded with the drawer. */
  pecDocumentUpload: (upload: DocumentUpload) => import('./documents').then((m) => m.uploadDocument(upload)),

  /** The size of one document and the number per file the server accepts (GET /api/pec_documents/limits). */
  pecDocumentLimits: () => call<{ maxBytes: number; maxPerFile: number }>('/api/pec_documents/limits'),

  /** A document's bytes, to show them in the drawer. */
  pecDocumentContent: (document: Pick<PecDocumentRecord, 'contentUrl' | 'mimeType'>) => import('./documents').then((m) => m.documentContent(document)),

  /** Saves a document under its original name; resolves with it. */
  pecDocumentDownload: (document: Pick<PecDocumentRecord, 'contentUrl' | 'mimeType' | 'originalName'>) =>
    import('./documents').then((m) => m.downloadDocument(document)),

  /** Downloads the receivables (the dashboard's age buckets, one line per billed file); resolves with the file name. */
  receivablesExport: (): Promise<string> => downloadCsv('/api/pec_dossiers/receivables/export', 'creances.csv'),

  /** 'Imprimer le récapitulatif': downloads the file's summary, a PDF made by the server; resolves with its name. */
  pecSummary: ({ id }: { id: number }): Promise<string> =>
    downloadAnswer(`${pecIri(id)}/summary`, 'recapitulatif.pdf', { method: 'POST', headers: { Accept: 'application/pdf' } }),
};

/** Downloads a CSV answer of the API as a file; resolves with its name. */
const downloadCsv = (path: string, fallbackName: string) => downloadAnswer(path, fallbackName, { headers: { Accept: 'text/csv' } });

/** Downloads an answer of the API (a CSV, a PDF) as a file; resolves with its name. */
async function downloadAnswer(path: string, fallbackName: string, init: RequestInit): Promise<string> {
  let response: Response;
  try {
    response = await authFetch(path, { ...init, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (error) {
    throw isTimeout(error) ? new RequestTimeoutError(HTTP_TIMEOUT_MS) : error;
  }
  if (!response.ok) {
    const body = await response.json().catch(() => undefined);
    throw new HttpError(extractErrorMessage({ body }), response.status, body);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  download(await response.blob(), filename);
  return filename;
}
export type PecMethods = typeof pecMethods;

/**
 * The list's filters and order as the API reads them (the same shape the Hydra provider sends): `key[after]` for
 * date ranges, `key[0]` for lists, `order[field]`.
 */
export function listQueryString(filter: Record<string, unknown>, sort?: { field: string; order: string }): string {
  const params = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    if (Array.isArray(value)) value.forEach((v, i) => add(`${key}[${i}]`, v));
    else if (typeof value === 'object') for (const [sub, v] of Object.entries(value)) add(`${key}[${sub}]`, v);
    else params.set(key, String(value));
  };
  for (const [key, value] of Object.entries(filter)) add(key, value);
  if (sort?.field) params.set(`order[${sort.field}]`, sort.order.toLowerCase());
  return params.toString();
}
