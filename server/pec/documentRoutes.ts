// The routes of PEC files' documents beside their generic resource (server/resources/pecDocuments.ts): the upload
// (POST /api/pec_documents, multipart/form-data with file, dossier, kind) and the content (GET …/{id}/content),
// streamed both ways. Every read of a content is in the audit trail (health data).
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pecReadScope } from '../auth/fileVisibility';
import { requirePermission } from '../auth/principal';
import { recordAudit } from '../audit/audit';
import { principalOf, type AppContext } from '../context';
import { pecDossiers } from '../db/schema';
import { ApiError, conflict, notFound, ValidationError, type Violation } from '../http/errors';
import { itemDocument, sendJsonLd } from '../hydra/output';
import { assertRoomForDocument, contentCheck, documentLimits, EncryptedSpool, storeDocument, UploadInspection } from './documents';
import { idFromReference } from '#domain/iri';
import { ARCHIVE_MESSAGES } from '#domain/archive';
import { documentName, DOCUMENT_MESSAGES, DOCUMENT_PERMISSIONS, UPLOAD_KINDS, type DocumentKind } from '#domain/documents';

/** The numeric id of /api/pec_documents/{id}/content; anything else is a document that does not exist. */
function documentId(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  const id = Number(raw);
  if (!/^\d{1,10}$/.test(raw) || id < 1 || id > 2_147_483_647) throw notFound(DOCUMENT_MESSAGES.notFound);
  return id;
}

/** `inline` (or `attachment`) with the original name: plain ASCII for old clients, UTF-8 per RFC 5987 for the others. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii =
    name
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '_') || 'document';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export async function documentRoutes(app: FastifyInstance) {
  const { db, settings, secrets, documents } = app.ctx;
  const repository = app.ctx.resources.get('pec_documents');
  // A file over the limit is cut and flagged (truncated): refused with the French 422, not a 413.
  await app.register(multipart, { throwFileSizeLimit: false });

  // What an upload may be, so that the browser says it before sending (the server checks it again on each upload).
  app.get('/api/pec_documents/limits', async (request) => {
    requirePermission(principalOf(request), DOCUMENT_PERMISSIONS.create);
    const { maxBytes, maxPerFile } = await documentLimits(settings);
    return { '@id': '/api/pec_documents/limits', maxBytes, maxPerFile };
  });

  app.post('/api/pec_documents', async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, DOCUMENT_PERMISSIONS.create);
    if (!request.isMultipart()) throw new ApiError(415, 'Envoyez le document en multipart/form-data (champs file, dossier et kind).');
    const { maxBytes, maxPerFile } = await documentLimits(settings);

    const spool = await EncryptedSpool.create(secrets);
    try {
      const fields: Record<string, string> = {};
      let upload: { name: string; inspection: UploadInspection; truncated: boolean } | undefined;
      for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 2048 } })) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        const inspection = new UploadInspection();
        for await (const piece of part.file as AsyncIterable<Buffer>) {
          inspection.see(piece);
          await spool.append(piece);
        }
        upload = { name: part.filename, inspection, truncated: part.file.truncated };
      }

      const violations: Violation[] = [];
      const dossierId = idFromReference(fields.dossier, 'pec_dossiers');
      if (!fields.dossier) violations.push({ propertyPath: 'dossier', message: DOCUMENT_MESSAGES.dossierRequired });
      const kind = UPLOAD_KINDS.find((k) => k === fields.kind);
      if (!kind)
        violations.push({ propertyPath: 'kind', message: fields.kind === 'summary' ? DOCUMENT_MESSAGES.summaryReserved : DOCUMENT_MESSAGES.kindInvalid });
      const checked = upload ? await contentCheck(upload.inspection, maxBytes, upload.truncated) : { problem: DOCUMENT_MESSAGES.fileRequired };
      const mime = 'mime' in checked ? checked.mime : undefined;
      if ('problem' in checked) violations.push({ propertyPath: 'file', message: checked.problem });
      // The file, as its reader sees it: another organisation's or another centre's is not found (422, not stored).
      const scope = pecReadScope(principal);
      const [dossier] =
        fields.dossier && dossierId
          ? await db
              .select({ id: pecDossiers.id, holdingId: pecDossiers.holdingId, numeroDossier: pecDossiers.numeroDossier, archived: pecDossiers.archived })
              .from(pecDossiers)
              .where(and(eq(pecDossiers.id, dossierId), scope ?? sql`true`))
          : [];
      if (fields.dossier && !dossier) violations.push({ propertyPath: 'dossier', message: DOCUMENT_MESSAGES.dossierNotFound });
      if (violations.length || !dossier || !kind || !mime || !upload) throw new ValidationError(violations);
      // An archived file is kept as it was (its edits are refused the same way).
      if (dossier.archived) throw conflict(ARCHIVE_MESSAGES.frozen(dossier.numeroDossier));

      const id = await db.transaction(async (tx) => {
        // The file's row locked: two uploads at once cannot both be the 30th.
        await tx.select({ id: pecDossiers.id }).from(pecDossiers).where(eq(pecDossiers.id, dossier.id)).for('update');
        await assertRoomForDocument(tx, dossier.id, maxPerFile);
        return storeDocument(tx, {
          holdingId: dossier.holdingId,
          dossierId: dossier.id,
          kind: kind as DocumentKind,
          name: documentName(upload.name, mime),
          mime,
          content: spool.read(),
          createdBy: principal,
          store: documents,
        });
      });
      repository.noteWrite(principal);
      const row = await repository.get(principal, id);
      const [item] = await repository.present(principal, [row], 'item');
      reply.header('Location', repository.iri(id));
      return sendJsonLd(reply, 201, itemDocument(request, repository.decl, item!));
    } finally {
      await spool.remove();
    }
  });

  app.get('/api/pec_documents/:id/content', async (request, reply) => {
    const principal = principalOf(request);
    const id = documentId(request);
    // Permission, organisation and the file's visibility, as for the document itself: 404 for what may not be seen.
    const row = await repository.get(principal, id);
    await recordAudit(db, principal, {
      action: 'pec_document.read',
      entity: 'pec_documents',
      entityId: id,
      entityLabel: row.originalName as string,
      holdingId: row.holdingId as number,
    });
    const download = (request.query as { download?: string }).download === '1';
    return sendDocumentContent(
      reply,
      app.ctx,
      { id, mimeType: row.mimeType as string, size: row.size as number, originalName: row.originalName as string },
      download,
    );
  });
}

/** A document's bytes, streamed from its store with the headers of every document read (never cached by shared caches). */
export function sendDocumentContent(
  reply: FastifyReply,
  { db, documents }: Pick<AppContext, 'db' | 'documents'>,
  row: { id: number; mimeType: string; size: number; originalName: string },
  download: boolean,
) {
  reply
    .header('Content-Type', row.mimeType)
    .header('Content-Length', String(row.size))
    .header('Content-Disposition', contentDisposition(download ? 'attachment' : 'inline', row.originalName))
    .header('X-Content-Type-Options', 'nosniff')
    // Opened on its own (not through the drawer's preview), a document runs nothing in the application's origin.
    .header('Content-Security-Policy', 'sandbox')
    .header('Cache-Control', 'private, no-store');
  return reply.send(Readable.from(documents.get(db, row.id)));
}
