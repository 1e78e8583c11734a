// The PEC screens' calls beside react-admin's list and record reads (spec section 7): create, edit, delete, the
// billing PATCH, the robot runs, the manual callbacks, CSV export and import, the dashboard figures and the option
// lists of the creation form. Every call has the spec's time limit (section 9).
import { HttpError } from 'ra-core';
import { authFetch } from '../authProvider/session';
import { extractErrorMessage } from '../domain/errors';
import { iriOf } from '../domain/iri';
import { BILLING_TIMEOUT_MS, DPEC_TIMEOUT_MS, HTTP_TIMEOUT_MS } from '../domain/limits';
import type { CallbackType, PecStatus, WorkflowExecutionView } from '../domain/pec';
import { apiFetch, type ApiRequest } from './http';

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

export interface PecDossierRecord {
  id: string;
  originId?: string;
  numeroDossier: string;
  status: PecStatus | string;
  shop: (NamedRef & { displayName?: string | null }) | null;
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
  createdAt: string;
  updatedAt: string;
  appareils?: PecAppareil[];
  workflowExecutions?: WorkflowExecutionView[];
  runInProgress?: { runId: number; kind: string; step: string; startedAt: string; deadlineAt: string | null } | null;
}

export interface PecStats {
  month: string;
  total: number;
  byStatus: Record<PecStatus, number>;
  expiringSoon: number;
  expiringWithinDays: number;
  /** Files whose robot run failed within the last robotFailureWindowDays days. */
  robotFailures7d: number;
  robotFailureWindowDays: number;
  approvedThisMonth: { count: number; totalTtc: number; partComplementaire: number };
  billedThisMonth: { count: number; totalTtc: number; partComplementaire: number };
}

export interface OptionRecord {
  id: number;
  name: string;
  status?: string;
  displayName?: string | null;
  networkId?: number | null;
  network?: { id: number } | string | null;
}

interface Collection<T> {
  member?: T[];
  'hydra:member'?: T[];
  data?: T[];
}

/** A list read as an array, a Hydra collection or a {data} wrapper (spec section 7). */
export const membersOf = <T>(body: Collection<T> | T[] | undefined): T[] =>
  Array.isArray(body) ? body : (body?.member ?? body?.['hydra:member'] ?? body?.data ?? []);

export interface RunStarted {
  externalId: string;
  executionId: number;
  runId: number;
  status: string;
  message: string;
}

export interface CallbackSaved {
  executionId: number;
  /** Seconds. */
  processing_time: number;
}

export interface ImportResult {
  created: number;
  ids: number[];
}

/** The body of a 422 refused import: the lines and their messages. */
export interface ImportErrors {
  errors?: { line: number; messages: string[] }[];
}

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
}

// ---------- the calls ----------

export const pecApi = {
  create: (body: PecBody) => call<PecDossierRecord & { id: number }>('/api/pec_dossiers', { method: 'POST', body }),
  replace: (id: number, body: PecBody) => call<PecDossierRecord & { id: number }>(pecIri(id), { method: 'PUT', body }),
  remove: (id: number) => call<void>(pecIri(id), { method: 'DELETE' }),

  /** The billing dialog's invoice number and date, as a merge-patch. */
  saveBilling: (id: number, body: { numBilling: string; dateBilling: string }) =>
    call(pecIri(id), { method: 'PATCH', body, headers: { 'Content-Type': 'application/merge-patch+json' } }),

  startDpec: (id: number) => call<RunStarted>('/api/robot-frontend/setup-and-create-dpec', { method: 'POST', body: { pecDossierId: id } }, DPEC_TIMEOUT_MS),
  startBilling: (id: number) => call<RunStarted>('/api/robot-frontend/setup-and-billing-pec', { method: 'POST', body: { pecDossierId: id } }, BILLING_TIMEOUT_MS),

  /** A robot result entered by hand. */
  sendCallback: (type: CallbackType, body: Record<string, unknown>) => call<CallbackSaved>(`/api/callbacks/${type}`, { method: 'POST', body }),

  stats: () => call<PecStats>('/api/pec_dossiers/stats'),

  /** Reference lists of the creation form. */
  networks: (holdingId: number) => call<Collection<OptionRecord>>(`/api/networks?holdingId=${holdingId}&pagination=false`).then(membersOf),
  shops: () => call<Collection<OptionRecord>>('/api/shops?pagination=false').then(membersOf),
  mutuals: (networkId: number) => call<Collection<OptionRecord>>(`/api/mutuals?network.id=${networkId}&pagination=false`).then(membersOf),

  importCsv: (text: string) => call<ImportResult>('/api/pec_dossiers/import', { method: 'POST', body: text, headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),

  /** Downloads the CSV of the list's current filters and order; resolves with the file name. */
  async exportCsv(query: string): Promise<string> {
    let response: Response;
    try {
      response = await authFetch(`/api/pec_dossiers/export${query ? `?${query}` : ''}`, { headers: { Accept: 'text/csv' }, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    } catch (error) {
      throw isTimeout(error) ? new RequestTimeoutError(HTTP_TIMEOUT_MS) : error;
    }
    if (!response.ok) {
      const body = await response.json().catch(() => undefined);
      throw new HttpError(extractErrorMessage({ body, message: response.statusText }), response.status, body);
    }
    const blob = await response.blob();
    const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'demandes-pec.csv';
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    return filename;
  },
};

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
