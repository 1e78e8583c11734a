// The payment routes beside the declared resources (issue 15): a statement's preview (writes nothing), its import
// (applied all or nothing, answers the statement), its undo, and a manual payment on one file. The list and the
// statement itself are the payment_statements resource's own routes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission } from '../auth/principal';
import { principalOf } from '../context';
import { ApiError, invalidField, notFound } from '../http/errors';
import { NUL_MESSAGE } from '../http/body';
import { contextUrl, itemDocument, sendJsonLd } from '../hydra/output';
import { sameHolding } from '../hydra/tenancy';
import { paymentStatements } from '../db/schema';
import {
  applyStatement,
  evaluateStatement,
  presentLine,
  readStatement,
  recordManualPayment,
  requireOrganisation,
  statementTotals,
  undoStatement,
} from './payments';
import { PAYMENT_PERMISSION } from '#domain/pec';
import { PAYMENT_STATEMENT_LIMITS } from '#domain/payments';
import { manualPaymentSchema } from '#domain/pecSchemas';

const CSV_TYPES = ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel', 'application/octet-stream'];
/** A multipart upload carries the file and a little more (boundaries, part headers). */
const BODY_LIMIT = PAYMENT_STATEMENT_LIMITS.maxBytes + 64 * 1024;
const TOO_LARGE = `Le relevé dépasse ${PAYMENT_STATEMENT_LIMITS.maxBytes / 1024 / 1024} Mo : découpez-le.`;

interface Upload {
  bytes: Uint8Array;
  fileName: string | null;
}

/**
 * The statement's bytes, sent as the body (text/csv) or as the first file of a multipart form. The bytes, not a text:
 * the encoding (UTF-8 or Windows-1252) is decided when reading them. Multipart is parsed by Node's own fetch
 * implementation (Response.formData), so no upload library is needed for one small file.
 */
async function uploadOf(request: FastifyRequest): Promise<Upload> {
  const body = request.body;
  if (!(body instanceof Buffer)) throw new ApiError(415, 'Envoyez le relevé en CSV (text/csv) ou en fichier joint (multipart/form-data).');
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) return { bytes: body, fileName: null };
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
  } catch {
    throw new ApiError(400, 'Envoi du fichier illisible : réessayez.');
  }
  const file = [...form.values()].find((value): value is File => typeof value !== 'string');
  if (!file) throw new ApiError(422, 'Aucun fichier joint : choisissez le relevé à importer.');
  if (file.size > PAYMENT_STATEMENT_LIMITS.maxBytes) throw new ApiError(413, TOO_LARGE);
  if (file.name.includes('\u0000')) throw invalidField('fichier', NUL_MESSAGE);
  return { bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name || null };
}

export async function paymentRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const statements = app.ctx.resources.get('payment_statements');
  const files = app.ctx.resources.get('pec_dossiers');

  app.addContentTypeParser([...CSV_TYPES, 'multipart/form-data'], { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));

  const idOf = (request: FastifyRequest) => {
    const raw = (request.params as { id: string }).id;
    if (!/^\d{1,9}$/.test(raw)) throw notFound('Ressource introuvable.');
    return Number(raw);
  };

  const sendStatement = async (request: FastifyRequest, reply: Parameters<typeof sendJsonLd>[0], id: number, status: number) => {
    const principal = principalOf(request);
    const [item] = await statements.present(principal, [await statements.get(principal, id)], 'item');
    return sendJsonLd(reply, status, itemDocument(request, statements.decl, item!));
  };

  app.post('/api/payment_statements/preview', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    requireOrganisation(principal);
    const upload = await uploadOf(request);
    const lines = await evaluateStatement(db, principal, readStatement(upload.bytes));
    return sendJsonLd(reply, 200, {
      '@context': contextUrl(request, statements.decl.className),
      '@type': 'PaymentStatementPreview',
      fileName: upload.fileName,
      payer: [...new Set(lines.map((l) => l.payer))].join(', '),
      lines: lines.map(presentLine),
      totals: statementTotals(lines),
    });
  });

  app.post('/api/payment_statements', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    requireOrganisation(principal);
    const upload = await uploadOf(request);
    const id = await applyStatement(db, principal, readStatement(upload.bytes), upload.fileName);
    files.noteWrite(principal);
    reply.header('Location', statements.iri(id));
    return sendStatement(request, reply, id, 201);
  });

  app.post('/api/payment_statements/:id/undo', async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    const id = idOf(request);
    await undoStatement(db, principal, id, sameHolding(paymentStatements.holdingId, principal));
    files.noteWrite(principal);
    return sendStatement(request, reply, id, 200);
  });

  // 'Enregistrer un paiement' in the drawer: answers the file.
  app.post('/api/pec_dossiers/:id/payments', async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    const id = idOf(request);
    await files.get(principal, id);
    const payment = manualPaymentSchema.parse(request.body ?? {});
    await recordManualPayment(db, principal, id, payment);
    files.noteWrite(principal);
    const [item] = await files.present(principal, [await files.get(principal, id)], 'item');
    return sendJsonLd(reply, 200, itemDocument(request, files.decl, item!));
  });
}
