// The notification bell: the signed-in user's notifications, newest first, with the unread count
// (`?unread=true` keeps the unread ones only). Created by server/notifications/service.ts.
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notifications } from '../db/schema';
import { principalOf } from '../context';
import { notFound } from '../http/errors';

const idParam = z.object({ id: z.coerce.number().int().positive().catch(0) });

const listQuery = z.object({
  itemsPerPage: z.coerce.number().int().min(1).max(100).catch(20),
  limit: z.coerce.number().int().min(1).max(100).optional().catch(undefined),
  unread: z.enum(['true', 'false', '1', '0']).optional().catch(undefined),
});

export async function notificationRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/notifications', async (request) => {
    const principal = principalOf(request);
    const query = listQuery.parse(request.query ?? {});
    const mine = eq(notifications.userId, principal.id);
    const onlyUnread = query.unread === 'true' || query.unread === '1';
    const [rows, [total], [unread]] = await Promise.all([
      db
        .select()
        .from(notifications)
        .where(onlyUnread ? and(mine, isNull(notifications.readAt)) : mine)
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(query.limit ?? query.itemsPerPage),
      db.select({ n: count() }).from(notifications).where(mine),
      db.select({ n: count() }).from(notifications).where(and(mine, isNull(notifications.readAt))),
    ]);
    return {
      '@id': '/api/notifications',
      '@type': 'hydra:Collection',
      totalItems: total?.n ?? 0,
      unreadCount: unread?.n ?? 0,
      member: rows.map((n) => ({
        '@id': `/api/notifications/${n.id}`,
        '@type': 'Notification',
        id: n.id,
        title: n.title,
        description: n.description,
        link: n.link,
        kind: n.kind,
        dossierId: n.dossierId,
        dossier: n.dossierId ? `/api/pec_dossiers/${n.dossierId}` : null,
        read: n.readAt !== null,
        readAt: n.readAt?.toISOString() ?? null,
        createdAt: n.createdAt.toISOString(),
      })),
    };
  });

  app.post('/api/notifications/:id/read', async (request, reply) => {
    const principal = principalOf(request);
    const { id } = idParam.parse(request.params);
    const updated = await db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.id, id), eq(notifications.userId, principal.id)))
      .returning({ id: notifications.id });
    // Someone else's notification does not exist for this user.
    if (updated.length === 0) throw notFound('Notification introuvable.');
    return reply.status(204).send();
  });

  app.post('/api/notifications/read-all', async (request, reply) => {
    const principal = principalOf(request);
    await db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.userId, principal.id), isNull(notifications.readAt)));
    return reply.status(204).send();
  });
}
