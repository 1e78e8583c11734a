// Creates notifications for the users who can see a PEC file (same rule as the list: organisation, assigned centres
// or settings.shops.view, and pec.view), in the caller's transaction, and announces each one on the live events.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { notifications } from '../db/schema';
import { publish } from '../events/bus';
import { mayReadFile } from '../pec/visibility';

export interface FileRef {
  id: number;
  holdingId: number;
  shopId: number;
}

export interface NotificationContent {
  kind: string;
  title: string;
  description?: string | null;
}

interface RecipientRow {
  id: number;
  permissions: string[] | null;
  assigned: boolean;
}

/**
 * Active users of the file's organisation who may read it. Platform administrators, who belong to no organisation,
 * are not notified of each organisation's files.
 */
export async function recipientsOf(tx: DbOrTx, file: FileRef): Promise<number[]> {
  const result = await tx.execute(sql`
    select u.id,
      (select coalesce(array_agg(distinct p), '{}') from user_roles ur join roles r on r.id = ur.role_id, unnest(r.permissions) p
        where ur.user_id = u.id) as permissions,
      exists(select 1 from user_shops us where us.user_id = u.id and us.shop_id = ${file.shopId}) as assigned
    from users u
    where u.holding_id = ${file.holdingId} and u.status = 'Active'`);
  const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as RecipientRow[];
  return rows
    .filter((row) =>
      mayReadFile({ permissions: row.permissions ?? [], holdingId: file.holdingId, shopIds: row.assigned ? [file.shopId] : [] }, { holdingId: file.holdingId, shopId: file.shopId }),
    )
    .map((row) => Number(row.id));
}

/** One notification per recipient; returns how many were created. */
export async function notifyFile(tx: DbOrTx, file: FileRef, content: NotificationContent): Promise<number> {
  const userIds = await recipientsOf(tx, file);
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
        link: `/pec?id=${file.id}`,
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
