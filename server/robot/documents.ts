// The documents that travel with a robot run (issue 29, part 3).
// - Out: the robot's job lists the file's documents, each with a link valid a few minutes (ROBOT_DOCUMENT_LINK_TTL_SECONDS)
//   signed with ROBOT_CALLBACK_SECRET over the document, its file and the expiry (server/http/signature.ts):
//   GET /api/robot/documents/{id}?expires=…&signature=… serves its bytes without a session, to that link only. Every
//   read is in the audit trail as the robot's. The signature is in the query string, which request logs never carry.
// - In: POST /api/callbacks/documents, signed like the other callbacks (X-Robot-Signature over the raw body), posts
//   back the insurer's agreement or letter as JSON with the content in base64: the signature covers the body as the
//   JSON parser keeps it (server/http/body.ts), so the same verification applies unchanged, where a multipart body
//   would need its raw bytes kept and signed apart. Stored by storeDocument with the uploads' checks (type by its
//   bytes, size and count limits, encryption); the same content twice for a file is one document (a partial unique
//   index on (dossier_id, sha256) for the robot's documents, behind the file's row lock).
import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { recordAudit } from '../audit/audit';
import type { DbOrTx } from '../db/connect';
import { pecDocuments, pecDossiers, workflowExecutions } from '../db/schema';
import { ApiError, conflict, forbidden, notFound, unauthorized, ValidationError } from '../http/errors';
import { documentLinkSignature, ROBOT_SIGNATURE_HEADER, verifyDocumentLink, verifySignature } from '../http/signature';
import { sendDocumentContent } from '../pec/documentRoutes';
import { assertRoomForDocument, contentCheck, documentLimits, storeDocument, UploadInspection } from '../pec/documents';
import { ARCHIVE_MESSAGES } from '#domain/archive';
import { documentName, DOCUMENT_MAX_SIZE_MB_CEILING, ROBOT_LINK_MESSAGES, type DocumentKind } from '#domain/documents';
import { ROBOT_DOCUMENT_LINK_TTL_SECONDS } from '#domain/limits';
import { CALLBACK_MESSAGES } from '#domain/pec';
import { documentCallbackSchema } from '#domain/pecSchemas';
import { iriOf } from '#domain/iri';
import { DOSSIER_NOT_FOUND, isUniqueViolation } from './steps';

/** A document as the robot's job lists it. */
export interface RobotDocumentLink {
  kind: DocumentKind;
  name: string;
  mimeType: string;
  size: number;
  /** GET, no session: the bytes, until the link expires. */
  url: string;
}

/** The path of a document's signed link, valid until `expires` (Unix seconds). */
export function documentLinkPath(documentId: number, dossierId: number, expires: number, secret: string): string {
  return `/api/robot/documents/${documentId}?expires=${expires}&signature=${documentLinkSignature(documentId, dossierId, expires, secret)}`;
}

/** The file's documents with their signed links (absolute on `base`), oldest first. */
export async function documentLinks(app: Pick<AppContext, 'db' | 'config'>, dossierId: number, base: string, now = Date.now()): Promise<RobotDocumentLink[]> {
  const expires = Math.floor(now / 1000) + ROBOT_DOCUMENT_LINK_TTL_SECONDS;
  const rows = await app.db
    .select({ id: pecDocuments.id, kind: pecDocuments.kind, name: pecDocuments.originalName, mimeType: pecDocuments.mimeType, size: pecDocuments.size })
    .from(pecDocuments)
    .where(eq(pecDocuments.dossierId, dossierId))
    .orderBy(asc(pecDocuments.createdAt), asc(pecDocuments.id));
  const origin = base.replace(/\/$/, '');
  return rows.map((row) => ({
    kind: row.kind as DocumentKind,
    name: row.name,
    mimeType: row.mimeType,
    size: row.size,
    url: `${origin}${documentLinkPath(row.id, dossierId, expires, app.config.robotCallbackSecret)}`,
  }));
}

/** The body of a document callback: its content as base64 within the JSON, so up to the largest size setting allowed. */
const DOCUMENT_CALLBACK_BODY_LIMIT = Math.ceil((DOCUMENT_MAX_SIZE_MB_CEILING * 1024 * 1024 * 4) / 3) + 64 * 1024;

const linkDenied = (message: string) => forbidden(message);

export async function robotDocumentRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  // Public at the auth hook's level: the link's signature is the only way in. No HEAD twin: every answer is a read.
  app.get('/api/robot/documents/:id', { config: { public: true }, exposeHeadRoute: false }, async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = (request.params as { id?: string }).id ?? '';
    const query = request.query as { expires?: string; signature?: string };
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    const expires = /^\d{1,12}$/.test(query.expires ?? '') ? Number(query.expires) : NaN;
    if (!id || !Number.isFinite(expires) || typeof query.signature !== 'string') throw linkDenied(ROBOT_LINK_MESSAGES.invalid);
    const [row] = await db
      .select({
        id: pecDocuments.id,
        dossierId: pecDocuments.dossierId,
        holdingId: pecDocuments.holdingId,
        originalName: pecDocuments.originalName,
        mimeType: pecDocuments.mimeType,
        size: pecDocuments.size,
      })
      .from(pecDocuments)
      .where(eq(pecDocuments.id, id));
    // A link signed for another document or another file does not match: the same answer as a forged one.
    if (!row || !verifyDocumentLink(row.id, row.dossierId, expires, config.robotCallbackSecret, query.signature)) {
      throw linkDenied(ROBOT_LINK_MESSAGES.invalid);
    }
    if (expires * 1000 < Date.now()) throw linkDenied(ROBOT_LINK_MESSAGES.expired);
    await recordAudit(db, null, {
      action: 'pec_document.read',
      entity: 'pec_documents',
      entityId: row.id,
      entityLabel: row.originalName,
      holdingId: row.holdingId,
      changes: { source: 'robot' },
    });
    return sendDocumentContent(reply, app.ctx, row, false);
  });

  // Registered before /api/callbacks/:type would match it (a static route wins over a parametric one in any case).
  app.post(
    '/api/callbacks/documents',
    { config: { public: true }, bodyLimit: DOCUMENT_CALLBACK_BODY_LIMIT },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const signature = request.headers[ROBOT_SIGNATURE_HEADER];
      // The robot only: a person adds documents through POST /api/pec_documents.
      if (!verifySignature(request.rawBody ?? '', config.robotCallbackSecret, Array.isArray(signature) ? signature[0] : signature)) {
        throw unauthorized(CALLBACK_MESSAGES.badSignature);
      }
      const saved = await receiveRobotDocument(app.ctx, request.body);
      return reply.status(saved.duplicate ? 200 : 201).send(saved);
    },
  );
}

export interface RobotDocumentSaved {
  '@id': string;
  id: number;
  dossier: string;
  kind: string;
  originalName: string;
  mimeType: string;
  size: number;
  sha256: string;
  /** True when this content was already on the file: the existing document is answered. */
  duplicate: boolean;
}

/** Stores a document the robot posted back on the file it names (idempotent by content), or answers the one it already is. */
export async function receiveRobotDocument(app: AppContext, body: unknown): Promise<RobotDocumentSaved> {
  const input = documentCallbackSchema.parse(body ?? {});
  const content = Buffer.from(input.content_base64, 'base64');
  const { maxBytes, maxPerFile } = await documentLimits(app.settings);
  const inspection = new UploadInspection();
  inspection.see(content);
  const checked = await contentCheck(inspection, maxBytes);
  if ('problem' in checked) throw new ValidationError([{ propertyPath: 'content_base64', message: checked.problem }]);
  const sha256 = createHash('sha256').update(content).digest('hex');
  const name = documentName(input.name, checked.mime);

  const store = () =>
    app.db.transaction(async (tx) => {
      // The file's row lock orders the robot's documents of one file: the same content at once is found here.
      const [d] = await tx.select().from(pecDossiers).where(eq(pecDossiers.externalId, input.id_pecflow)).for('update');
      if (!d) throw notFound(DOSSIER_NOT_FOUND);
      if (d.archived) throw conflict(ARCHIVE_MESSAGES.callback(d.numeroDossier));
      if (input.run_id !== undefined) {
        // A run of another file (another organisation's above all) is never a way to this one.
        const [run] = await tx
          .select({ id: workflowExecutions.id })
          .from(workflowExecutions)
          .where(and(eq(workflowExecutions.id, input.run_id), eq(workflowExecutions.runId, input.run_id), eq(workflowExecutions.dossierId, d.id)));
        if (!run) throw conflict('Ce document nomme un appel robot qui n’est pas celui de ce dossier.');
      }
      const existing = await robotDocument(tx, d.id, sha256);
      if (existing) return { id: existing, dossierId: d.id, duplicate: true };
      await assertRoomForDocument(tx, d.id, maxPerFile);
      const id = await storeDocument(tx, {
        holdingId: d.holdingId,
        dossierId: d.id,
        kind: input.kind,
        name,
        mime: checked.mime,
        content,
        createdBy: null,
        source: 'robot',
        sha256,
        store: app.documents,
      });
      return { id, dossierId: d.id, duplicate: false };
    });
  let saved: { id: number; dossierId: number; duplicate: boolean };
  try {
    saved = await store();
  } catch (error) {
    // The unique index is the last word (a database where the lock did not order them): the first one is answered.
    if (!isUniqueViolation(error, 'pec_documents_robot_content_idx')) throw error;
    saved = await store();
  }
  const [row] = await app.db.select().from(pecDocuments).where(eq(pecDocuments.id, saved.id));
  if (!row) throw new ApiError(500, 'Document introuvable après son enregistrement.');
  return {
    '@id': iriOf('pec_documents', row.id),
    id: row.id,
    dossier: iriOf('pec_dossiers', saved.dossierId),
    kind: row.kind,
    originalName: row.originalName,
    mimeType: row.mimeType,
    size: row.size,
    sha256: row.sha256,
    duplicate: saved.duplicate,
  };
}

async function robotDocument(tx: DbOrTx, dossierId: number, sha256: string): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: pecDocuments.id })
    .from(pecDocuments)
    .where(and(eq(pecDocuments.dossierId, dossierId), eq(pecDocuments.sha256, sha256), eq(pecDocuments.source, 'robot')));
  return row?.id;
}
