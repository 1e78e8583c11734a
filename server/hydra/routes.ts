// The routes of every declared resource, generated: no per-entity route code.
import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can } from '../auth/principal';
import { changesOnly } from '../audit/audit';
import { principalOf } from '../context';
import { auditLogs } from '../db/schema';
import { sendKept } from '../http/compression';
import { badRequest, notFound } from '../http/errors';
import { publicBaseUrl } from '../http/links';
import { apiDocumentation, entrypoint } from './docs';
import { contextRoutes } from './contexts';
import { collectionDocument, collectionText, contextUrl, itemDocument, JSON_LD, sendJsonLd } from './output';
import { MAX_PAGE_SIZE } from '#domain/limits';
import { parseListQuery } from './query';
import { API_MAX_ITEMS_PER_PAGE_KEY } from '#domain/settings';
import type { ResourceRepository } from './repository';

/** The numeric id of /api/{c}/{id}; anything else is a record that does not exist. */
function idParam(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  const id = Number(raw);
  if (!/^\d{1,10}$/.test(raw) || id < 1 || id > 2_147_483_647) throw notFound('Ressource introuvable.');
  return id;
}

export async function hydraRoutes(app: FastifyInstance) {
  const registry = app.ctx.resources;
  const declarations = registry.all().map((r) => r.decl);

  app.get(
    '/api',
    { config: { public: true } },
    describedOnce((request) => entrypoint(request, declarations)),
  );
  const docs = describedOnce((request) => apiDocumentation(request, declarations));
  for (const path of ['/api/docs.jsonld', '/api/docs']) app.get(path, { config: { public: true } }, docs);

  await contextRoutes(app, declarations);
  for (const repository of registry.all()) registerResource(app, repository);
}

/** An If-None-Match header naming this tag (or `*`), compared weakly as RFC 9110 asks for GET. */
function matchesTag(header: string | undefined, tag: string) {
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  return !!header && header.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === opaque(tag));
}

/**
 * The entrypoint and the docs describe the API, not its data, and change only with a release (or PUBLIC_URL): unlike
 * every other /api answer (no-store), they are sent with an ETag and `Cache-Control: no-cache`, so a browser asks again
 * each time and gets a 304 while they are the same. Each is written and hashed once per base URL (@fastify/etag would
 * hash every answer again, and after @fastify/compress has made it a stream).
 */
function describedOnce(describe: (request: FastifyRequest) => unknown) {
  const written = new Map<string, { body: string; tag: string }>();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const base = publicBaseUrl(request.server);
    let document = written.get(base);
    if (!document) {
      const body = JSON.stringify(describe(request));
      document = { body, tag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
      written.set(base, document);
    }
    reply.header('ETag', document.tag).header('Cache-Control', 'no-cache');
    if (matchesTag(request.headers['if-none-match'], document.tag)) return reply.status(304).send();
    return reply.status(200).type(JSON_LD).send(document.body);
  };
}

function registerResource(app: FastifyInstance, repository: ResourceRepository) {
  const { decl } = repository;
  const base = `/api/${decl.name}`;

  const sendItem = async (request: FastifyRequest, reply: Parameters<typeof sendJsonLd>[0], id: number, status = 200) => {
    const principal = principalOf(request);
    const row = await repository.get(principal, id);
    const [item] = await repository.present(principal, [row], 'item');
    return sendJsonLd(reply, status, itemDocument(request, decl, item!));
  };

  app.get(base, async (request, reply) => {
    const maxItemsPerPage = await app.ctx.settings.number(API_MAX_ITEMS_PER_PAGE_KEY, MAX_PAGE_SIZE);
    const query = parseListQuery(request.query as Record<string, string>, {
      paginated: decl.paginated !== false,
      rangeAliasKey: Object.keys(decl.rangeFilters ?? {})[0],
      maxItemsPerPage,
    });
    if (!query.paginate && decl.paginated !== false && decl.unpaginatedAllowed === false) {
      throw badRequest(`Cette liste se lit page par page (${maxItemsPerPage} éléments au plus par page) : pagination=false n’est pas accepté.`);
    }
    const principal = principalOf(request);
    // The page written by PostgreSQL when the declaration allows it; otherwise serialized here.
    const page = await repository.listJson(principal, query);
    if (page) return sendKept(request, reply.status(200).type(JSON_LD), collectionText(request, decl, page.members, page.total, query), page.copies);
    const { rows, total } = await repository.list(principal, query);
    return sendJsonLd(reply, 200, collectionDocument(request, decl, await repository.present(principal, rows, 'list'), total, query));
  });

  app.get(`${base}/:id`, async (request, reply) => sendItem(request, reply, idParam(request)));

  if (!decl.readOnly) {
    if (decl.creatable !== false) {
      app.post(base, async (request, reply) => {
        const id = await repository.create(principalOf(request), request.body);
        reply.header('Location', repository.iri(id));
        return sendItem(request, reply, id, 201);
      });
    }
    if (decl.updatable !== false) {
      app.put(`${base}/:id`, async (request, reply) => {
        const id = idParam(request);
        await repository.update(principalOf(request), id, request.body, 'put');
        return sendItem(request, reply, id);
      });
      app.patch(`${base}/:id`, async (request, reply) => {
        const id = idParam(request);
        await repository.update(principalOf(request), id, request.body, 'patch');
        return sendItem(request, reply, id);
      });
    }
    if (decl.deletion.mode !== 'none') {
      app.delete(`${base}/:id`, async (request, reply) => {
        await repository.remove(principalOf(request), idParam(request));
        return reply.status(204).send();
      });
      app.post(`${base}/bulk-delete`, async (request, reply) => {
        const count = await repository.bulk(principalOf(request), 'delete', request.body);
        return sendJsonLd(reply, 200, { '@context': contextUrl(request, decl.className), count, message: `${count} élément(s) supprimé(s)` });
      });
    }
    if (decl.deletion.mode === 'soft') {
      app.patch(`${base}/:id/archive`, async (request, reply) => {
        await repository.remove(principalOf(request), idParam(request), undefined, 'archive');
        return reply.status(204).send();
      });
    }
    if (decl.updatable !== false) {
      app.post(`${base}/bulk-update`, async (request, reply) => {
        const count = await repository.bulk(principalOf(request), 'update', request.body);
        return sendJsonLd(reply, 200, { '@context': contextUrl(request, decl.className), count, message: `${count} élément(s) mis à jour` });
      });
    }
  }

  if (decl.versioned) {
    const trail = app.ctx.resources.get('audit_logs');
    // The versions of a record, oldest first: its changes in the audit trail (reads are recorded too, but are no version).
    app.get(`${base}/:id/history`, async (request, reply) => {
      const principal = principalOf(request);
      const id = idParam(request);
      await repository.get(principal, id);
      const entries = await app.ctx.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.entity, decl.name), eq(auditLogs.entityId, String(id)), changesOnly))
        .orderBy(asc(auditLogs.createdAt), asc(auditLogs.id));
      // Who made a change is shown to those who may read the same entry in /api/audit_logs (audit.view, and the entry in
      // their organisation's trail; platform administrators: every entry), to nobody else: reading a record does not
      // reveal a user of the platform or of another organisation, nor anyone to a user without audit.view.
      const actorShown = can(principal, trail.decl.permissions.view)
        ? await trail.visibleIds(
            principal,
            entries.map((e) => e.id),
          )
        : new Set<number>();
      const member = entries.map((entry, index) => ({
        '@id': `/api/audit_logs/${entry.id}`,
        '@type': trail.decl.className,
        id: entry.id,
        version: index + 1,
        action: entry.action,
        actorId: actorShown.has(entry.id) ? entry.actorId : null,
        actorEmail: actorShown.has(entry.id) ? entry.actorEmail : null,
        changes: entry.changes,
        createdAt: entry.createdAt.toISOString(),
      }));
      return sendJsonLd(reply, 200, {
        '@context': contextUrl(request, trail.decl.className),
        '@id': `${base}/${id}/history`,
        '@type': 'hydra:Collection',
        totalItems: member.length,
        member,
      });
    });
  }
}
