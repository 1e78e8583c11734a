// Creates the notifications of a PEC file, in the caller's transaction, and announces each one on the live events.
// They go to who acts on the file: active users who see it (same rule as the list) and may act on it (pec.create) —
// its creator among them while they do, read-only staff never — and only for the kinds each one chose to receive.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { notifications } from '../db/schema';
import { publish } from '../events/bus';
import { mayReadFile } from '../auth/fileVisibility';
import { ACT_ON_FILE_PERMISSION, hasPermission } from '#domain/permissions';
import type { NotificationKind } from '#domain/notifications';
import { NOTE_LINK_PARAM } from '#domain/followUps';

export interface FileRef {
  id: number;
  holdingId: number;
  shopId: number;
  createdById?: number | null;
}

export interface NotificationContent {
  kind: NotificationKind;
  title: string;
  description?: string | null;
  /** The note it is about (a mention): its link opens the file at that note. */
  noteId?: number;
}

interface RecipientRow {
  id: number;
  holding_id: number | null;
  permissions: string[] | null;
  assigned: boolean;
}

/**
 * Active users of the file's organisation, and its creator, who see the file, may act on it, and receive this kind.
 * Platform administrators are not notified of each organisation's files unless they created the file.
 */
export async function recipientsOf(tx: DbOrTx, file: FileRef, kind: NotificationKind): Promise<number[]> {
  const result = await tx.execute(sql`
    select u.id, u.holding_id,
      (select coalesce(array_agg(distinct p), '{}') from user_roles ur join roles r on r.id = ur.role_id, unnest(r.permissions) p
        where ur.user_id = u.id) as permissions,
      exists(select 1 from user_shops us where us.user_id = u.id and us.shop_id = ${file.shopId}) as assigned
    from users u
    where (u.holding_id = ${file.holdingId} or u.id = ${file.createdById ?? null}) and u.status = 'Active'
      and not exists (select 1 from notification_preferences np where np.user_id = u.id and ${kind} = any(np.muted_kinds))`);
  const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as RecipientRow[];
  return rows
    .filter((row) => {
      const permissions = row.permissions ?? [];
      const viewer = { permissions, holdingId: row.holding_id, shopIds: row.assigned ? [file.shopId] : [] };
      return hasPermission(permissions, ACT_ON_FILE_PERMISSION) && mayReadFile(viewer, { holdingId: file.holdingId, shopId: file.shopId });
    })
    .map((row) => Number(row.id));
}

/** One notification per recipient; returns how many were created. */
export async function notifyFile(tx: DbOrTx, file: FileRef, content: NotificationContent): Promise<number> {
  return notifyUsers(tx, await recipientsOf(tx, file, content.kind), file, content);
}

/** One notification of the file to each of these users (chosen by the caller: a note's mentions). */
export async function notifyUsers(tx: DbOrTx, userIds: number[], file: FileRef, content: NotificationContent): Promise<number> {
  if (userIds.length === 0) return 0;
  const created = await tx
    .insert(notifications)
    .values(
      userIds.map((userId) => ({
        userId,
        holdingId: file.holdingId,
        dossierId: file.id,
        kind: content.kind,
        title: content.title.slice(0, 300),
        description: content.description?.slice(0, 1000) ?? null,
        link: `/pec?id=${file.id}${content.noteId ? `&${NOTE_LINK_PARAM}=${content.noteId}` : ''}`,
      })),
    )
    .returning({ id: notifications.id, userId: notifications.userId });
  await publish(
    tx,
    ...created.map((n) => ({
      type: 'notification.created' as const,
      userId: n.userId,
      notificationId: n.id,
      dossierId: file.id,
      kind: content.kind,
      title: content.title,
      description: content.description ?? null,
    })),
  );
  return created.length;
}
