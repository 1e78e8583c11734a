// The notification bell: the signed-in user's notifications, newest first, with the unread count
// (`?unread=true` keeps the unread ones only). Created by server/notifications/service.ts.
// And each user's choice of the kinds they receive (Mon profil): GET and PATCH /api/user/notification-preferences.
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notificationPreferences, notifications } from '../db/schema';
import { principalOf } from '../context';
import { notFound, ValidationError } from '../http/errors';
import { recordAudit } from '../audit/audit';
import type { DbOrTx } from '../db/connect';
import { isNotificationKind, NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, type NotificationKind, type NotificationPreferences } from '#domain/notifications';

export const PREFERENCES_PATH = '/api/user/notification-preferences';

async function mutedKinds(db: DbOrTx, userId: number): Promise<NotificationKind[]> {
  const [row] = await db
    .select({ mutedKinds: notificationPreferences.mutedKinds })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return (row?.mutedKinds ?? []).filter(isNotificationKind);
}

/** The answer of both calls: each kind with its French label and whether the user receives it. */
function preferencesView(muted: readonly NotificationKind[]) {
  const preferences = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, !muted.includes(kind)])) as NotificationPreferences;
  return {
    '@id': PREFERENCES_PATH,
    '@type': 'NotificationPreferences',
    preferences,
    kinds: NOTIFICATION_KINDS.map((kind) => ({ kind, ...NOTIFICATION_KIND_LABELS[kind], enabled: preferences[kind] })),
  };
}

/** `{kind: boolean, ...}`, some kinds or all: 422 naming each unknown kind or non-boolean value. */
function parsePreferencesPatch(body: unknown): Partial<NotificationPreferences> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError([{ propertyPath: '', message: 'Objet attendu : pour chaque type de notification, true ou false.' }]);
  }
  const violations: { propertyPath: string; message: string }[] = [];
  const patch: Partial<NotificationPreferences> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('@')) continue;
    if (!isNotificationKind(key)) violations.push({ propertyPath: key, message: `Type de notification inconnu : ${key.slice(0, 50)}.` });
    else if (typeof value !== 'boolean') violations.push({ propertyPath: key, message: 'Valeur oui/non attendue (true ou false).' });
    else patch[key] = value;
  }
  if (violations.length) throw new ValidationError(violations);
  return patch;
}

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
      db
        .select({ n: count() })
        .from(notifications)
        .where(and(mine, isNull(notifications.readAt))),
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

  app.get(PREFERENCES_PATH, async (request) => preferencesView(await mutedKinds(db, principalOf(request).id)));

  app.patch(PREFERENCES_PATH, async (request) => {
    const principal = principalOf(request);
    const patch = parsePreferencesPatch(request.body);
    return db.transaction(async (tx) => {
      const before = await mutedKinds(tx, principal.id);
      const muted = NOTIFICATION_KINDS.filter((kind) => (kind in patch ? patch[kind] === false : before.includes(kind)));
      await tx
        .insert(notificationPreferences)
        .values({ userId: principal.id, mutedKinds: muted })
        .onConflictDoUpdate({ target: notificationPreferences.userId, set: { mutedKinds: muted, updatedAt: new Date() } });
      await recordAudit(tx, principal, {
        action: 'user.notification_preferences',
        entity: 'users',
        entityId: principal.id,
        holdingId: principal.holdingId,
        changes: { mutedKinds: { before, after: muted } },
      });
      return preferencesView(muted);
    });
  });
}
