// A PEC file's documents (issue 29), loaded with the drawer that uses them (pec.ts imports this file lazily): the
// multipart upload with its progress (XMLHttpRequest: fetch reports no upload progress) and the bytes of a document,
// both with the session's bearer token. The list and the deletion are react-admin's own (the Hydra provider).
import { HttpError } from 'ra-core';
import { authFetch, freshAccessToken, getRefreshToken, refreshAccessToken } from '../session';
import { extractErrorMessage } from '#domain/errors';
import { HTTP_TIMEOUT_MS } from '#domain/limits';
import { download, PEC_DOCUMENTS_RESOURCE, RequestTimeoutError, type PecDocumentRecord } from './pec';

const NETWORK_ERROR = 'Connexion au serveur impossible. Vérifiez votre réseau.';

export interface DocumentUpload {
  /** The file's IRI (/api/pec_dossiers/12). */
  dossier: string;
  file: File;
  kind: string;
  /** The share of the file sent, from 0 to 1. */
  onProgress?: (sent: number) => void;
  signal?: AbortSignal;
}

interface Answer {
  status: number;
  body: unknown;
}

function post(form: FormData, token: string | null, { onProgress, signal }: Pick<DocumentUpload, 'onProgress' | 'signal'>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/${PEC_DOCUMENTS_RESOURCE}`);
    xhr.setRequestHeader('Accept', 'application/ld+json, application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.timeout = HTTP_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = xhr.responseText;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new HttpError(NETWORK_ERROR, 0));
    xhr.ontimeout = () => reject(new RequestTimeoutError(HTTP_TIMEOUT_MS));
    xhr.onabort = () => reject(new DOMException('Envoi annulé', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** POST /api/pec_documents (multipart: dossier, kind, then the file); answers the new document. */
export async function uploadDocument({ dossier, file, kind, onProgress, signal }: DocumentUpload): Promise<PecDocumentRecord> {
  // The fields before the file: the server reads them before it streams the bytes.
  const form = () => {
    const data = new FormData();
    data.append('dossier', dossier);
    data.append('kind', kind);
    data.append('file', file, file.name);
    return data;
  };
  let answer = await post(form(), await freshAccessToken(), { onProgress, signal });
  // An access token that expired on the way: one refresh (shared with every other call), then the file again.
  if (answer.status === 401 && getRefreshToken()) answer = await post(form(), await refreshAccessToken(), { onProgress, signal });
  if (answer.status < 200 || answer.status >= 300) {
    throw new HttpError(extractErrorMessage({ body: answer.body }), answer.status, answer.body);
  }
  const created = answer.body as PecDocumentRecord;
  return { ...created, id: created['@id'] ?? created.id };
}

/** The bytes of a document (its contentUrl), typed as the document says so that the browser shows them. */
export async function documentContent({ contentUrl, mimeType }: Pick<PecDocumentRecord, 'contentUrl' | 'mimeType'>): Promise<Blob> {
  let response: Response;
  try {
    response = await authFetch(contentUrl, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new RequestTimeoutError(HTTP_TIMEOUT_MS);
    // An ended session (SessionExpiredError) keeps its status; anything else is the network.
    throw (error as { status?: number }).status !== undefined ? error : new HttpError(NETWORK_ERROR, 0);
  }
  if (!response.ok) {
    const body = await response.json().catch(() => undefined);
    throw new HttpError(extractErrorMessage({ body, message: response.statusText }), response.status, body);
  }
  const blob = await response.blob();
  return mimeType && blob.type !== mimeType ? new Blob([blob], { type: mimeType }) : blob;
}

/** Saves a document under its original name; resolves with that name. */
export async function downloadDocument(document: Pick<PecDocumentRecord, 'contentUrl' | 'mimeType' | 'originalName'>): Promise<string> {
  download(await documentContent(document), document.originalName);
  return document.originalName;
}
