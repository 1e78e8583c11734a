// The payment routes beside the declared resources (issues 15 and 25): a statement's preview (writes nothing, says when
// the statement is applied already), its import (applied all or nothing and once, answers the statement), its undo, a
// manual payment on one file and its cancellation. The lists and records themselves are the payment_statements and
// pec_payments resources' own routes.
import { stringify } from 'csv-stringify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPlatformAdmin, requirePermission, type Principal } from '../auth/principal';
import { recordAudit } from '../audit/audit';
import { principalOf } from '../context';
import { ApiError, errorHandler, invalidField, numericParam } from '../http/errors';
import { NUL_MESSAGE } from '../http/body';
import { contextUrl, itemDocument, sendJsonLd } from '../hydra/output';
import { sameHolding } from '../hydra/tenancy';
import { paymentStatements } from '../db/schema';
import { RECEIVABLES_HEADER, receivablesPage } from './receivables';
import { pecReadScope } from '../auth/fileVisibility';
import { appliedTwin, previewFingerprint, readStatement, statementIdentity, statementTotals } from './statementFile';
import { evaluateStatement, presentLine, requireOrganisation } from './statementMatching';
import { cancelManualPayment, recordManualPayment } from './paymentHistory';
import { applyStatement, attachLine, countLine, detachLine, dismissLine, reopenLine, undoStatement, type StatementScope } from './statements';
import { PAYMENT_PERMISSION, todayInFrance } from '#domain/pec';
import { PEC_PERMISSIONS } from '#domain/permissions';
import { PAYMENT_STATEMENT_LIMITS, STATEMENT_MESSAGES } from '#domain/payments';
import { AMOUNTS_CHECKED_PARAM } from '#domain/confirmations';
import {
  manualPaymentSchema,
  paymentCancelSchema,
  statementApplyQuerySchema,
  statementLineAttachSchema,
  statementLineCountSchema,
  statementLineDetachSchema,
  statementLineDismissSchema,
  statementUndoSchema,
} from '#domain/pecSchemas';
import { DOCUMENT_NAME_MAX, plainFileName } from '#domain/documents';

const CSV_TYPES = ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel', 'application/octet-stream'];
/** A multipart upload carries the file and a little more (boundaries, part headers). */
const BODY_LIMIT = PAYMENT_STATEMENT_LIMITS.maxBytes + 64 * 1024;
const TOO_LARGE = `Le relevé dépasse ${PAYMENT_STATEMENT_LIMITS.maxBytes / 1024 / 1024} Mo : découpez-le.`;

/**
 * The upload routes: a body beyond BODY_LIMIT is refused by Fastify before the route runs; it is told as a statement
 * over its limit (TOO_LARGE), like one found too large in a multipart form, not as a request with the form's margin.
 */
const UPLOAD_ROUTE = {
  bodyLimit: BODY_LIMIT,
  errorHandler: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    errorHandler(error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? new ApiError(413, TOO_LARGE) : error, request, reply),
};

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
  if (!type.startsWith('multipart/form-data')) {
    if (body.length > PAYMENT_STATEMENT_LIMITS.maxBytes) throw new ApiError(413, TOO_LARGE);
    return { bytes: body, fileName: null };
  }
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
  return { bytes: new Uint8Array(await file.arrayBuffer()), fileName: plainFileName(file.name).slice(0, DOCUMENT_NAME_MAX) || null };
}

export async function paymentRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const statements = app.ctx.resources.get('payment_statements');
  const files = app.ctx.resources.get('pec_dossiers');
  const payments = app.ctx.resources.get('pec_payments');

  app.addContentTypeParser([...CSV_TYPES, 'multipart/form-data'], { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));

  const sendStatement = async (request: FastifyRequest, reply: Parameters<typeof sendJsonLd>[0], id: number, status: number) => {
    const principal = principalOf(request);
    const [item] = await statements.present(principal, [await statements.get(principal, id)], 'item');
    return sendJsonLd(reply, status, itemDocument(request, statements.decl, item!));
  };

  app.post('/api/payment_statements/preview', UPLOAD_ROUTE, async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    requireOrganisation(principal);
    const upload = await uploadOf(request);
    const read = await readStatement(upload.bytes);
    const identity = statementIdentity(read);
    const lines = await evaluateStatement(db, principal, read);
    return sendJsonLd(reply, 200, {
      '@context': contextUrl(request, statements.decl.className),
      '@type': 'PaymentStatementPreview',
      fileName: upload.fileName,
      payer: identity.payer,
      reference: identity.reference,
      period: identity.period,
      // The same statement applied already ("Relevé déjà importé le …"): applying it again is refused.
      alreadyImported: (await appliedTwin(db, principal.holdingId!, identity)) ?? null,
      // Sent back with the apply (?apercu=…): refused if the statement would now do something else.
      fingerprint: previewFingerprint(lines),
      lines: lines.map(presentLine),
      totals: statementTotals(lines),
    });
  });

  app.post('/api/payment_statements', UPLOAD_ROUTE, async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    requireOrganisation(principal);
    const upload = await uploadOf(request);
    const { apercu, [AMOUNTS_CHECKED_PARAM]: amountsChecked } = statementApplyQuerySchema.parse(request.query ?? {});
    const id = await applyStatement(db, principal, await readStatement(upload.bytes), upload.fileName, apercu, amountsChecked === '1');
    files.noteWrite(principal);
    payments.noteWrite(principal);
    reply.header('Location', statements.iri(id));
    return sendStatement(request, reply, id, 201);
  });

  app.post('/api/payment_statements/:id/undo', async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    const id = numericParam(request, 'id');
    const { motif } = statementUndoSchema.parse(request.body ?? {});
    await undoStatement(db, principal, id, motif, sameHolding(paymentStatements.holdingId, principal));
    files.noteWrite(principal);
    payments.noteWrite(principal);
    return sendStatement(request, reply, id, 200);
  });

  /**
   * A statement line's action: the payment permission, the line of a statement of the caller's organisation, the body
   * read by its schema; answers the statement read again. Those that pay or unpay a file say the files and payments
   * changed (their lists' caches).
   */
  const lineAction = <Body>(
    action: string,
    readBody: (body: unknown) => Body,
    act: (database: typeof db, principal: Principal, id: number, line: number, body: Body, scope: StatementScope) => Promise<void>,
    changesFiles: boolean,
  ) =>
    app.post(`/api/payment_statements/:id/lines/:line/${action}`, async (request, reply) => {
      const principal = principalOf(request);
      requirePermission(principal, PAYMENT_PERMISSION);
      const id = numericParam(request, 'id');
      const body = readBody(request.body ?? {});
      await act(db, principal, id, numericParam(request, 'line', STATEMENT_MESSAGES.lineNotFound), body, sameHolding(paymentStatements.holdingId, principal));
      if (changesFiles) {
        files.noteWrite(principal);
        payments.noteWrite(principal);
      }
      return sendStatement(request, reply, id, 200);
    });
  const reason = (schema: { parse: (body: unknown) => { motif: string } }) => (body: unknown) => schema.parse(body).motif;
  // A line to be handled ('À traiter'), attached to a billed file or set aside with its reason; set aside by mistake,
  // put back to be handled.
  lineAction('attach', (body) => statementLineAttachSchema.parse(body), attachLine, true);
  lineAction('dismiss', reason(statementLineDismissSchema), dismissLine, false);
  lineAction(
    'reopen',
    () => undefined,
    (database, principal, id, line, _body, scope) => reopenLine(database, principal, id, line, scope),
    false,
  );
  // A line taken for a payment already counted, counted as a distinct payment of its file with its reason.
  lineAction('count', reason(statementLineCountSchema), countLine, true);
  // A line attached or counted by hand by mistake, detached with its reason: its payment reversed, the line as before.
  lineAction('detach', reason(statementLineDetachSchema), detachLine, true);

  // 'Enregistrer un paiement' in the drawer: answers the file.
  app.post('/api/pec_dossiers/:id/payments', async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    const id = numericParam(request, 'id');
    await files.get(principal, id);
    const payment = manualPaymentSchema.parse(request.body ?? {});
    await recordManualPayment(db, principal, id, payment);
    files.noteWrite(principal);
    payments.noteWrite(principal);
    const [item] = await files.present(principal, [await files.get(principal, id)], 'item');
    return sendJsonLd(reply, 200, itemDocument(request, files.decl, item!));
  });

  // The dashboard's receivables for the accountant: one line per billed file with its age bucket and amounts due, as
  // the PEC export writes CSV (semicolons, UTF-8 with BOM, decimal commas, dd/mm/yyyy), the files the reader sees.
  app.get('/api/pec_dossiers/receivables/export', async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PEC_PERMISSIONS.export!);
    requirePermission(principal, PEC_PERMISSIONS.view);
    const scope = pecReadScope(principal);
    const today = todayInFrance();
    const size = 1000;
    // The first page is read before anything is sent: a query that fails is a problem+json answer, not a cut download.
    let records = await receivablesPage(db, scope, today, 1, size);
    const csv = stringify({ delimiter: ';', bom: true, record_delimiter: '\r\n', quoted_match: /[;"\r\n]/ });
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="creances-${today}.csv"`)
      .header('cache-control', 'no-store');
    const write = (record: string[]) => (csv.write(record) ? Promise.resolve() : new Promise<void>((resolve) => csv.once('drain', () => resolve())));
    void (async () => {
      let exported = 0;
      try {
        await write(RECEIVABLES_HEADER);
        for (let page = 1; records.length > 0; records = await receivablesPage(db, scope, today, ++page, size)) {
          for (const record of records) await write(record);
          exported += records.length;
          if (records.length < size) break;
        }
        await recordAudit(db, principal, {
          action: 'pec_dossier.receivables_export',
          entity: 'pec_dossiers',
          holdingId: isPlatformAdmin(principal) ? null : principal.holdingId,
          changes: { count: exported },
        });
        csv.end();
      } catch (error) {
        request.log.error({ err: error }, 'export des créances interrompu');
        csv.destroy(error as Error);
      }
    })();
    return reply.send(csv);
  });

  // 'Annuler' on a manual payment of the drawer's history, with its reason: answers the payment, cancelled.
  app.post('/api/pec_payments/:id/cancel', async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PAYMENT_PERMISSION);
    const id = numericParam(request, 'id');
    await payments.get(principal, id);
    const { motif } = paymentCancelSchema.parse(request.body ?? {});
    await cancelManualPayment(db, principal, id, motif);
    files.noteWrite(principal);
    payments.noteWrite(principal);
    const [item] = await payments.present(principal, [await payments.get(principal, id)], 'item');
    return sendJsonLd(reply, 200, itemDocument(request, payments.decl, item!));
  });
}
