// PEC routes beside the generic resource: the CSV export and import, the dashboard's figures, and the read trail
// (a file is health data: who opened which one is recorded, domain.md).
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify';
import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can, isPlatformAdmin, requirePermission, type Principal } from '../auth/principal';
import type { Database } from '../db/connect';
import { principalOf } from '../context';
import { mutuals, networks, paymentStatements, pecDocuments, pecDossiers, shops } from '../db/schema';
import { ApiError, numericParam, ValidationError, type Violation } from '../http/errors';
import { recordAudit } from '../audit/audit';
import { parseListQuery } from '../hydra/query';
import { normaliseSearch } from './numbering';
import { canUseShop, pecReadScope } from '../auth/fileVisibility';
import { expiringCondition } from './expiry';
import { followUpDueCondition } from './followUps';
import { receivables, unplacedPayments } from './receivables';
import { sameHolding } from '../hydra/tenancy';
import { robotFailedWithin } from './robotFailures';
import { filesMatching, lockImport, matchingFile, type ImportLine } from './duplicates';
import { archivedFilter } from './archive';
import { EXPORT_HEADER, exportRecord, IMPORT_MAX_ROWS, unsafeText } from './csv';
import { PEC_IMPORT_COLUMNS, pecImportColumnOf } from '#domain/pecImport';
import { equipmentOf } from './equipmentCsv';
import { countByKind } from './fileKind';
import { summaryFileName, summaryPdf, type SummaryFile } from './summary';
import { storeDocument } from './documents';
import { EXPIRY_WARNING_DAYS, ROBOT_FAILURE_WINDOW_DAYS } from '#domain/limits';
import { PAYMENT_PERMISSION, PEC_MESSAGES, PEC_STATUSES, todayInFrance } from '#domain/pec';
import { DUPLICATE_MESSAGES } from '#domain/duplicates';
import { pecDossierSchema } from '#domain/pecSchemas';
import { hasPermission, PEC_PERMISSIONS } from '#domain/permissions';
import { DOCUMENT_MAX_PER_FILE, DOCUMENT_MAX_PER_FILE_KEY, DOCUMENT_PERMISSIONS } from '#domain/documents';
import type { ImportLineErrors, ImportResult, SkippedImportLine } from '#domain/pecAnswers';

const PERMS = PEC_PERMISSIONS;
const IMPORT_PERMISSION = 'import.pec';

/**
 * The reads of PEC files waiting to be written: one INSERT records every read answered while the previous one ran
 * (group commit), so that a busy instance writes one statement per batch instead of two per read.
 */
class ReadTrail {
  private pending: { dossierId: number; principal: Principal; written: () => void }[] = [];
  private writing = false;

  constructor(private readonly database: Database) {}

  /** Resolves once the read is in the audit trail (or its write failed: a read is never refused for it). */
  record(principal: Principal, dossierId: number): Promise<void> {
    return new Promise((written) => {
      this.pending.push({ dossierId, principal, written });
      if (!this.writing) void this.write();
    });
  }

  private async write() {
    this.writing = true;
    while (this.pending.length) {
      const batch = this.pending.splice(0, 500);
      // The organisation and the number are the file's (null if it is gone meanwhile), as recordAudit would write them;
      // in request order.
      await this.database
        .query(
          `insert into audit_logs (holding_id, actor_id, actor_email, action, entity, entity_id, entity_label)
           select d.holding_id, r.actor_id, r.actor_email, 'pec_dossier.read', 'pec_dossiers', r.id::text, d.numero_dossier
           from unnest($1::int[], $2::int[], $3::text[]) with ordinality as r(id, actor_id, actor_email, n) left join pec_dossiers d on d.id = r.id
           order by r.n`,
          [batch.map((r) => r.dossierId), batch.map((r) => r.principal.id), batch.map((r) => r.principal.email)],
        )
        .catch(() => undefined);
      for (const read of batch) read.written();
    }
    this.writing = false;
  }
}

/** Records GET /api/pec_dossiers/{id} answered 200 in the audit trail (action pec_dossier.read), before answering. */
export const readAuditHook = fp(
  async (app: FastifyInstance) => {
    const trail = new ReadTrail(app.ctx.database);
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' || reply.statusCode !== 200 || request.routeOptions.url !== '/api/pec_dossiers/:id' || !request.principal) return payload;
      await trail.record(request.principal, Number((request.params as { id: string }).id));
      return payload;
    });
  },
  { name: 'pecflow-read-audit', dependencies: ['pecflow-auth'] },
);

const key = (value: string) => normaliseSearch(value).replace(/\s+/g, ' ').trim();

/** The import's 422: every line in error with its messages; nothing created. */
function importRefused(errors: ImportLineErrors[]) {
  errors.sort((a, b) => a.line - b.line);
  const violations: Violation[] = errors.flatMap((e) => e.messages.map((message) => ({ propertyPath: `ligne ${e.line}`, message })));
  return new ApiError(
    422,
    `Import refusé : ${errors.length} ligne${errors.length > 1 ? 's' : ''} en erreur, aucune demande créée.\n${errors.map((e) => `Ligne ${e.line} : ${e.messages.join(' ; ')}`).join('\n')}`,
    {
      '@type': 'ConstraintViolationList',
      violations,
      errors,
    },
  );
}

export async function pecRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const repository = app.ctx.resources.get('pec_dossiers');

  app.addContentTypeParser(['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, String(body)),
  );

  // ---------- export ----------

  app.get('/api/pec_dossiers/export', async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = principalOf(request);
    requirePermission(principal, PERMS.export!);
    requirePermission(principal, PERMS.view);
    const query = parseListQuery(request.query as Record<string, string>, { paginated: true, rangeAliasKey: 'createdAt' });
    // The accountant's file keeps every file, archived ones flagged (their columns say so), unless the filter says otherwise.
    if (!query.filters.has('archived')) query.filters.set('archived', ['all']);
    // Pages of 500 read one after the other: no transaction held while the client downloads.
    const pageOf = async (page: number) => {
      const { rows } = await repository.list(principal, { ...query, paginate: false, itemsPerPage: 500, page });
      const [items, equipment] = await Promise.all([
        repository.present(principal, rows, 'list'),
        equipmentOf(
          db,
          rows.map((r) => r.id as number),
        ),
      ]);
      return items.map((item, index) => exportRecord(item, equipment.get(rows[index]!.id as number)));
    };
    // The first page is read before anything is sent: a query that fails is a problem+json answer, not a cut download.
    let items = await pageOf(1);
    const csv = stringify({ delimiter: ';', bom: true, record_delimiter: '\r\n', quoted_match: /[;"\r\n]/ });
    const filename = `demandes-pec-${todayInFrance()}.csv`;
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store');

    const write = (record: string[]) => (csv.write(record) ? Promise.resolve() : new Promise<void>((resolve) => csv.once('drain', () => resolve())));
    void (async () => {
      let exported = 0;
      try {
        await write(EXPORT_HEADER);
        for (let page = 1; items.length > 0; items = await pageOf(++page)) {
          for (const record of items) await write(record);
          exported += items.length;
          if (items.length < 500) break;
        }
        // A platform administrator's export spans every organisation: it is the platform's entry, not their organisation's.
        await recordAudit(db, principal, {
          action: 'pec_dossier.export',
          entity: 'pec_dossiers',
          holdingId: isPlatformAdmin(principal) ? null : principal.holdingId,
          changes: { count: exported },
        });
        csv.end();
      } catch (error) {
        request.log.error({ err: error }, 'export PEC interrompu');
        csv.destroy(error as Error);
      }
    })();
    return reply.send(csv);
  });

  // ---------- import ----------

  app.post('/api/pec_dossiers/import', { bodyLimit: 5 * 1024 * 1024 }, async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = principalOf(request);
    requirePermission(principal, IMPORT_PERMISSION);
    const text = typeof request.body === 'string' ? request.body : '';
    if (!text.trim()) throw new ValidationError([{ propertyPath: 'fichier', message: 'Le fichier est vide.' }]);

    let records: { record: string[]; info: { lines: number } }[];
    try {
      const delimiter = (text.split(/\r?\n/)[0] ?? '').includes(';') ? ';' : ',';
      records = parse(text, { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true }) as never;
    } catch (error) {
      // csv-parse explains in English; the user needs the line and what to check.
      const line = (error as { lines?: number }).lines;
      throw new ValidationError([
        {
          propertyPath: 'fichier',
          message: `Fichier CSV illisible${line ? ` à la ligne ${line}` : ''} : vérifiez les guillemets et le séparateur (point-virgule).`,
        },
      ]);
    }
    const [header, ...data] = records;
    if (!header || data.length === 0) throw new ValidationError([{ propertyPath: 'fichier', message: 'Le fichier ne contient aucune ligne de données.' }]);
    if (data.length > IMPORT_MAX_ROWS)
      throw new ValidationError([{ propertyPath: 'fichier', message: `Le fichier dépasse ${IMPORT_MAX_ROWS} lignes : découpez-le.` }]);

    const columns = new Map<string, number>();
    header.record.forEach((h, index) => {
      const column = pecImportColumnOf(h);
      if (column && !columns.has(column.field)) columns.set(column.field, index);
    });
    const missingColumns = PEC_IMPORT_COLUMNS.filter((c) => c.required && !columns.has(c.field));
    if (missingColumns.length) {
      throw new ValidationError([{ propertyPath: 'fichier', message: `Colonnes manquantes : ${missingColumns.map((c) => c.label).join(', ')}.` }]);
    }

    // Names people type, matched without case or accents: centres the user may use, every mutual and network.
    const shopRows = await db
      .select({ id: shops.id, holdingId: shops.holdingId, name: shops.name, displayName: shops.displayName, codeClient: shops.codeClient })
      .from(shops);
    const shopsByKey = new Map<string, typeof shopRows>();
    for (const shop of shopRows.filter((s) => canUseShop(principal, s))) {
      for (const label of [shop.name, shop.displayName, shop.codeClient]) {
        if (!label) continue;
        const list = shopsByKey.get(key(label)) ?? [];
        if (!list.includes(shop)) list.push(shop);
        shopsByKey.set(key(label), list);
      }
    }
    const networkRows = await db.select({ id: networks.id, name: networks.name, code: networks.code }).from(networks);
    const mutualRows = await db.select({ id: mutuals.id, name: mutuals.name, code: mutuals.code, networkId: mutuals.networkId }).from(mutuals);
    const findNetwork = (label: string) => networkRows.filter((n) => key(n.name) === key(label) || (n.code && key(n.code) === key(label)));

    const errors: ImportLineErrors[] = [];
    const bodies: { line: number; body: Record<string, unknown>; holdingId: number }[] = [];
    const numbersInFile = new Map<string, number>();
    for (const { record, info } of data) {
      const line = info.lines;
      const cell = (field: string) => {
        const index = columns.get(field);
        return index === undefined ? '' : unsafeText(record[index] ?? '');
      };
      const messages: string[] = [];
      const body: Record<string, unknown> = {
        numeroDossier: cell('numeroDossier'),
        numeroDossierAssure: cell('numeroDossierAssure'),
        numeroDevisAssure: cell('numeroDevisAssure'),
        commentaire: cell('commentaire'),
        totalTtc: cell('totalTtc'),
      };

      const shopLabel = cell('shop');
      const shopMatches = shopLabel ? (shopsByKey.get(key(shopLabel)) ?? []) : [];
      if (!shopLabel) messages.push(PEC_MESSAGES.shop);
      else if (shopMatches.length === 0) messages.push(`Centre « ${shopLabel} » introuvable ou hors de votre périmètre`);
      else if (shopMatches.length > 1) messages.push(`Centre « ${shopLabel} » ambigu : indiquez son code client`);
      else body.shop = shopMatches[0]!.id;

      const networkLabel = cell('network');
      let networkId: number | undefined;
      if (networkLabel) {
        const found = findNetwork(networkLabel);
        if (found.length !== 1) messages.push(`Réseau « ${networkLabel} » introuvable`);
        else networkId = body.network = found[0]!.id;
      }
      const mutualLabel = cell('mutual');
      if (!mutualLabel) messages.push(PEC_MESSAGES.mutual);
      else {
        let found = mutualRows.filter((m) => key(m.name) === key(mutualLabel) || (m.code && key(m.code) === key(mutualLabel)));
        if (networkId !== undefined && found.length > 1) found = found.filter((m) => m.networkId === networkId);
        if (found.length === 0) messages.push(`Mutuelle « ${mutualLabel} » introuvable`);
        else if (found.length > 1) messages.push(`Mutuelle « ${mutualLabel} » ambiguë : indiquez son réseau`);
        else if (networkId !== undefined && found[0]!.networkId !== networkId) messages.push(PEC_MESSAGES.mutualOutsideNetwork);
        else body.mutual = found[0]!.id;
      }

      const parsed = pecDossierSchema.safeParse(body);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          // The centre and the mutual are reported above with the name that was not found.
          if ((issue.path[0] === 'shop' || issue.path[0] === 'mutual') && messages.length) continue;
          if (!messages.includes(issue.message)) messages.push(issue.message);
        }
      }
      const numero = body.numeroDossier as string;
      if (numero) {
        const first = numbersInFile.get(numero);
        if (first !== undefined) messages.push(`Numéro de dossier déjà présent ligne ${first}`);
        else numbersInFile.set(numero, line);
      }
      if (messages.length) errors.push({ line, messages });
      else bodies.push({ line, body, holdingId: shopMatches[0]!.holdingId });
    }

    // In one transaction, after the organisations' import locks (two imports of one file sent at once: the second
    // waits, then finds the first's files): lines that match a file already there are skipped and reported, then the
    // numbers typed must be free, then every other line is created, or none.
    const { ids, skipped } = await db.transaction(async (tx) => {
      for (const holdingId of [...new Set(bodies.map((b) => b.holdingId))].sort((a, b) => a - b)) await lockImport(tx, holdingId);
      const keyOf = (b: (typeof bodies)[number]): ImportLine => ({
        holdingId: b.holdingId,
        mutualId: b.body.mutual as number,
        numeroDossierAssure: b.body.numeroDossierAssure as string,
        numeroDevisAssure: b.body.numeroDevisAssure as string,
      });
      const existing = await filesMatching(tx, bodies.map(keyOf));
      const skipped: SkippedImportLine[] = [];
      const kept: { line: number; body: Record<string, unknown>; key: ImportLine }[] = [];
      for (const b of bodies) {
        const key = keyOf(b);
        const file = matchingFile(key, existing);
        const above = file ? undefined : kept.find((k) => matchingFile(key, [{ id: 0, numeroDossier: '', ...k.key }]));
        if (file)
          skipped.push({
            line: b.line,
            message: DUPLICATE_MESSAGES.alreadyThere(file.numeroDossier),
            numeroDossier: file.numeroDossier,
            '@id': repository.iri(file.id),
          });
        else if (above) skipped.push({ line: b.line, message: DUPLICATE_MESSAGES.sameLineAbove(above.line), numeroDossier: null, '@id': null });
        else kept.push({ line: b.line, body: b.body, key });
      }
      // Numbers already used in the organisation.
      const wanted = kept.filter((k) => k.body.numeroDossier);
      if (wanted.length) {
        const taken = await tx
          .select({ holdingId: pecDossiers.holdingId, numero: pecDossiers.numeroDossier })
          .from(pecDossiers)
          .where(
            inArray(
              pecDossiers.numeroDossier,
              wanted.map((k) => k.body.numeroDossier as string),
            ),
          );
        for (const k of wanted) {
          if (taken.some((t) => t.holdingId === k.key.holdingId && t.numero === k.body.numeroDossier))
            errors.push({ line: k.line, messages: [PEC_MESSAGES.numeroTaken] });
        }
      }
      if (errors.length) throw importRefused(errors);
      const created: number[] = [];
      for (const { body } of kept) created.push(await repository.create(principal, body, tx));
      return { ids: created, skipped };
    });
    repository.noteWrite(principal);
    // In the trail of the organisation the files went to (none when a platform administrator filled several).
    const organisations = new Set(bodies.map((b) => b.holdingId));
    const holdingId = organisations.size === 1 ? [...organisations][0]! : null;
    await recordAudit(db, principal, {
      action: 'pec_dossier.import',
      entity: 'pec_dossiers',
      holdingId,
      changes: { count: ids.length, ...(skipped.length ? { skipped: skipped.length } : {}) },
    });
    // 201 when something was created; a file imported again creates nothing and says which lines were already there.
    return reply
      .status(ids.length ? 201 : 200)
      .send({ created: ids.length, ids, member: ids.map((id) => repository.iri(id)), skipped: skipped.sort((a, b) => a.line - b.line) } satisfies ImportResult);
  });

  // ---------- the summary to print (issue 29) ----------

  // 'Imprimer le récapitulatif': the file as its reader sees it (another organisation's: 404), as a PDF; a read of
  // health data, so in the read trail.
  app.post('/api/pec_dossiers/:id/summary', async (request, reply) => {
    const principal = principalOf(request);
    requirePermission(principal, PERMS.view);
    const row = await repository.get(principal, numericParam(request, 'id', 'Demande de PEC introuvable.'));
    const [item] = await repository.present(principal, [row], 'item');
    const [centre] = await db
      .select({
        name: shops.name,
        displayName: shops.displayName,
        street: shops.street,
        postalCode: shops.postalCode,
        city: shops.city,
        finess: shops.finess,
        phone: shops.phone,
      })
      .from(shops)
      .where(eq(shops.id, row.shopId as number));
    const pdf = await summaryPdf(item as unknown as SummaryFile, centre!, new Date());
    const name = `recapitulatif-${summaryFileName(row.numeroDossier as string)}.pdf`;
    // Kept with the file as printed (a 'Récapitulatif' document) by who may add documents: the last print replaces the
    // previous one, so prints never fill the file's documents. An archived file is printed but kept as it was, its
    // documents with it (an upload or a deletion there is refused). The print is in the audit trail either way.
    const maxPerFile = await app.ctx.settings.number(DOCUMENT_MAX_PER_FILE_KEY, DOCUMENT_MAX_PER_FILE);
    await db.transaction(async (tx) => {
      let kept = false;
      let replaced: number[] = [];
      // Read under the file's lock: an archive committed since the file was read is seen.
      const [file] = hasPermission(principal.permissions, DOCUMENT_PERMISSIONS.create)
        ? await tx
            .select({ archived: pecDossiers.archived })
            .from(pecDossiers)
            .where(eq(pecDossiers.id, row.id as number))
            .for('update')
        : [];
      if (file && !file.archived) {
        const held = await tx
          .select({ id: pecDocuments.id, kind: pecDocuments.kind })
          .from(pecDocuments)
          .where(eq(pecDocuments.dossierId, row.id as number));
        const previous = held.filter((d) => d.kind === 'summary');
        replaced = previous.map((d) => d.id);
        for (const { id } of previous) {
          await app.ctx.documents.delete(tx, id);
          await tx.delete(pecDocuments).where(eq(pecDocuments.id, id));
        }
        kept = held.length - previous.length < maxPerFile;
        if (kept)
          await storeDocument(tx, {
            holdingId: row.holdingId as number,
            dossierId: row.id as number,
            kind: 'summary',
            name,
            mime: 'application/pdf',
            content: pdf,
            createdBy: principal,
            store: app.ctx.documents,
          });
      }
      await recordAudit(tx, principal, {
        action: 'pec_dossier.summary',
        entity: 'pec_dossiers',
        entityId: row.id as number,
        entityLabel: row.numeroDossier as string,
        holdingId: row.holdingId as number,
        changes: { kept: { after: kept }, ...(replaced.length ? { replaced: { before: replaced } } : {}) },
      });
    });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${name}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(pdf);
  });

  // ---------- dashboard ----------

  app.get('/api/pec_dossiers/stats', async (request: FastifyRequest) => {
    const principal = principalOf(request);
    requirePermission(principal, PERMS.view);
    const scope = pecReadScope(principal);
    const today = todayInFrance();
    const monthStart = `${today.slice(0, 7)}-01`;
    const monthStartInstant = sql`timezone('Europe/Paris', ${monthStart}::timestamp)`;
    const money = (column: typeof pecDossiers.totalTtc) => sql<string | null>`sum(${column})`;
    // The work in hand (files by status and kind, expiring, robot failures) counts the files of the default list, whose
    // links open it; the money (approved and billed this month, receivables) counts archived files too, as their links
    // do (archived=all): an archived file's money is still history (issue 25).
    const inHand = and(scope, archivedFilter('false'));

    const [byStatus, byShop, [expiring], [failures], [approved], [billed], [followUps]] = await Promise.all([
      db.select({ status: pecDossiers.status, n: count() }).from(pecDossiers).where(inHand).groupBy(pecDossiers.status),
      // Per kind of file (its centre's specialty): counted per centre, the centres' kinds read after.
      db.select({ shopId: pecDossiers.shopId, n: count() }).from(pecDossiers).where(inHand).groupBy(pecDossiers.shopId),
      db
        .select({ n: count() })
        .from(pecDossiers)
        .where(and(scope, expiringCondition(today))),
      db
        .select({ n: count() })
        .from(pecDossiers)
        .where(and(inHand, robotFailedWithin(ROBOT_FAILURE_WINDOW_DAYS))),
      db
        .select({ n: count(), total: money(pecDossiers.totalTtc), insurer: money(pecDossiers.partComplementaire) })
        .from(pecDossiers)
        .where(and(scope, gte(pecDossiers.dateValidation, monthStartInstant))),
      db
        .select({ n: count(), total: money(pecDossiers.totalTtc), insurer: money(pecDossiers.partComplementaire) })
        .from(pecDossiers)
        .where(and(scope, eq(pecDossiers.statutFacturation, true), gte(pecDossiers.dateFacturationEffective, monthStart))),
      // "À relancer": the list behind the card (aRelancer=true).
      db.select({ n: count() }).from(pecDossiers).where(and(scope, followUpDueCondition())),
    ]);
    const counts = Object.fromEntries(PEC_STATUSES.map((s) => [s, 0])) as Record<string, number>;
    for (const row of byStatus) counts[row.status] = Number(row.n);
    const byKind = await countByKind(db, byShop);
    const amount = (value: string | null | undefined) => Math.round(Number(value ?? 0) * 100) / 100;
    return {
      '@id': '/api/pec_dossiers/stats',
      '@type': 'PecStats',
      month: today.slice(0, 7),
      total: Object.values(counts).reduce((a, b) => a + b, 0),
      byStatus: counts,
      byKind,
      expiringSoon: Number(expiring?.n ?? 0),
      expiringWithinDays: EXPIRY_WARNING_DAYS,
      // Files (not runs), so that the figure is the length of the list behind its link.
      robotFailures7d: Number(failures?.n ?? 0),
      robotFailureWindowDays: ROBOT_FAILURE_WINDOW_DAYS,
      followUpsDue: Number(followUps?.n ?? 0),
      approvedThisMonth: { count: Number(approved?.n ?? 0), totalTtc: amount(approved?.total), partComplementaire: amount(approved?.insurer) },
      billedThisMonth: { count: Number(billed?.n ?? 0), totalTtc: amount(billed?.total), partComplementaire: amount(billed?.insurer) },
      receivables: await receivables(db, scope, today),
      // For who handles payments: the statements' lines whose money reached no file yet.
      unplacedPayments: can(principal, PAYMENT_PERMISSION) ? await unplacedPayments(db, sameHolding(paymentStatements.holdingId, principal)) : null,
    };
  });
}
