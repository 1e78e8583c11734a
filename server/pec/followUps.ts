// Follow-ups (issue 28, domain/followUps.ts): "À relancer" in SQL (the twin of isFollowUpDue, for the list filter, the
// dashboard's card and the daily notification), the 'Suivi par' filter, who may own a file, and the daily notification
// to each owner, sent once per owner and day whatever the instances and restarts (its unique key).
import { and, count, eq, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { configs, notifications, pecDossiers, pecNotes } from '../db/schema';
import { publish } from '../events/bus';
import { mayReadFile, PEC_VIEW_PERMISSION, pecReadScope, seesWholeOrganisation, type Viewer } from '../auth/fileVisibility';
import { invalidField } from '../http/errors';
import { notifyUsers } from '../notifications/service';
import {
  DEFAULT_FOLLOW_UP_PENDING_DAYS,
  FOLLOW_UP_FILTER,
  FOLLOW_UP_MESSAGES,
  FOLLOW_UP_PENDING_DAYS_KEY,
  mentionedUsers,
  NOTE_MESSAGES,
  OWNER_FILTER,
  OWNER_FILTER_ME,
  OWNER_FILTER_NOBODY,
} from '#domain/followUps';
import { todayInFrance } from '#domain/pec';
import { ACT_ON_FILE_PERMISSION, hasPermission } from '#domain/permissions';
import { archivedFilter } from './archive';

/** The setting, read by the statement itself (a list filter is a condition, not a query of its own). */
const pendingDays = sql`coalesce((select (${configs.value} #>> '{}')::int from ${configs} where ${configs.key} = ${FOLLOW_UP_PENDING_DAYS_KEY}), ${DEFAULT_FOLLOW_UP_PENDING_DAYS}::int)`;

/** "À relancer" (isFollowUpDue): not archived, and its follow-up date has come or, without one, it has been pending too long. */
export function followUpDueCondition(): SQL {
  return and(
    archivedFilter('false'),
    or(
      lte(pecDossiers.followUpDate, sql`(now() at time zone 'Europe/Paris')::date`),
      and(
        isNull(pecDossiers.followUpDate),
        eq(pecDossiers.status, 'pending'),
        lt(pecDossiers.statusChangedAt, sql`now() - make_interval(days => ${pendingDays})`),
      ),
    ),
  )!;
}

/** `aRelancer=true` lists the files due; any other value, the files not due. */
export const followUpFilter = (value: string) => (value === 'true' ? followUpDueCondition() : sql`not coalesce(${followUpDueCondition()}, false)`);

/** `suiviPar=me` (the reader's files), `none` (nobody follows them) or a user's id or IRI. */
export function ownerFilter(value: string, principal: Principal): SQL {
  if (value === OWNER_FILTER_ME) return eq(pecDossiers.ownerId, principal.id);
  if (value === OWNER_FILTER_NOBODY) return isNull(pecDossiers.ownerId);
  const id = /^(?:\/api\/users\/)?(\d{1,9})$/.exec(value);
  return id ? eq(pecDossiers.ownerId, Number(id[1])) : sql`false`;
}

export const FOLLOW_UP_CONDITION_FILTERS = { [FOLLOW_UP_FILTER]: followUpFilter, [OWNER_FILTER]: ownerFilter };

/** An active user's visibility (their roles' permissions, their centres), as the file rules read it. */
async function viewerOf(tx: DbOrTx, userId: number): Promise<(Viewer & { id: number }) | undefined> {
  const result = await tx.execute(sql`
    select u.id, u.holding_id,
      (select coalesce(array_agg(distinct p), '{}') from user_roles ur join roles r on r.id = ur.role_id, unnest(r.permissions) p
        where ur.user_id = u.id) as permissions,
      (select coalesce(array_agg(us.shop_id), '{}') from user_shops us where us.user_id = u.id) as shop_ids
    from users u where u.id = ${userId} and u.status = 'Active'`);
  const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as {
    id: number;
    holding_id: number | null;
    permissions: string[] | null;
    shop_ids: number[] | null;
  }[];
  const row = rows[0];
  if (!row) return undefined;
  return { id: Number(row.id), holdingId: row.holding_id, permissions: row.permissions ?? [], shopIds: (row.shop_ids ?? []).map(Number) };
}

/** A file's owner must be an active user who sees it (its organisation, its centre); else a French 422. */
export async function assertOwnerSeesFile(tx: DbOrTx, ownerId: unknown, file: { holdingId: number; shopId: number }) {
  if (typeof ownerId !== 'number') return;
  const viewer = await viewerOf(tx, ownerId);
  if (!viewer || !mayReadFile(viewer, file)) throw invalidField('owner', FOLLOW_UP_MESSAGES.ownerCannotSee);
  // Following a file is chasing it: read-only staff could not, and the daily notice skips them.
  if (!hasPermission(viewer.permissions, ACT_ON_FILE_PERMISSION)) throw invalidField('owner', FOLLOW_UP_MESSAGES.ownerCannotAct);
}

/** The link of the notification: the owner's files to chase. */
export const FOLLOW_UP_LINK = `/pec?filter=${encodeURIComponent(JSON.stringify({ [FOLLOW_UP_FILTER]: 'true', [OWNER_FILTER]: OWNER_FILTER_ME }))}`;

/**
 * The daily notification: each owner who may act on files (not read-only staff) and has files to chase gets one
 * notification with their count. Its key (`follow_up:{user}:{day}`) makes a second run the same day send nothing.
 * Returns the number of notifications created.
 */
export async function notifyFollowUps(app: AppContext, now = new Date()): Promise<number> {
  const day = todayInFrance(now);
  const owners = await app.db
    .selectDistinct({ ownerId: pecDossiers.ownerId })
    .from(pecDossiers)
    .where(and(isNotNull(pecDossiers.ownerId), followUpDueCondition()));
  let sent = 0;
  for (const { ownerId } of owners) {
    const viewer = await viewerOf(app.db, ownerId!);
    if (!viewer || !hasPermission(viewer.permissions, ACT_ON_FILE_PERMISSION)) continue;
    const [muted] = await app.db
      .execute(sql`select 1 from notification_preferences where user_id = ${viewer.id} and 'follow_up' = any(muted_kinds)`)
      .then((r) => ((r as { rows?: unknown[] }).rows ?? (r as unknown as unknown[])) as unknown[]);
    if (muted) continue;
    // Only the files the owner still sees (a centre may have been taken from them since).
    const [due] = await app.db
      .select({ n: count() })
      .from(pecDossiers)
      .where(and(eq(pecDossiers.ownerId, viewer.id), followUpDueCondition(), pecReadScope(viewer)));
    const n = Number(due?.n ?? 0);
    if (n === 0) continue;
    const title = FOLLOW_UP_MESSAGES.notificationTitle(n);
    await app.db.transaction(async (tx) => {
      const created = await tx
        .insert(notifications)
        .values({
          userId: viewer.id,
          holdingId: viewer.holdingId,
          kind: 'follow_up',
          title,
          description: FOLLOW_UP_MESSAGES.notificationDescription,
          link: FOLLOW_UP_LINK,
          uniqueKey: `follow_up:${viewer.id}:${day}`,
        })
        .onConflictDoNothing({ target: notifications.uniqueKey })
        .returning({ id: notifications.id });
      if (created.length === 0) return;
      sent++;
      await publish(tx, {
        type: 'notification.created',
        userId: viewer.id,
        notificationId: created[0]!.id,
        dossierId: null,
        kind: 'follow_up',
        title,
        description: FOLLOW_UP_MESSAGES.notificationDescription,
      });
    });
  }
  return sent;
}

export interface Colleague {
  id: number;
  firstName: string;
  lastName: string;
  /** May follow files ('Suivi par'): acts on them, not read-only. */
  mayFollow: boolean;
  /** Among the reader's centres, the ones whose files the colleague sees; null: every centre (colleaguesOfReader). */
  shopIds?: number[] | null;
}

/** The active users of an organisation, with what file visibility needs (their roles' permissions, their centres). */
async function organisationViewers(tx: DbOrTx, holdingId: number): Promise<(Viewer & { id: number; first_name: string; last_name: string })[]> {
  const result = await tx.execute(sql`
    select u.id, u.first_name, u.last_name,
      (select coalesce(array_agg(distinct p), '{}') from user_roles ur join roles r on r.id = ur.role_id, unnest(r.permissions) p
        where ur.user_id = u.id) as permissions,
      (select coalesce(array_agg(us.shop_id), '{}') from user_shops us where us.user_id = u.id) as shop_ids
    from users u
    where u.holding_id = ${holdingId} and u.status = 'Active'
    order by u.last_name, u.first_name, u.id`);
  const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as {
    id: number;
    first_name: string;
    last_name: string;
    permissions: string[] | null;
    shop_ids: number[] | null;
  }[];
  return rows.map((row) => ({ ...row, holdingId, permissions: row.permissions ?? [], shopIds: (row.shop_ids ?? []).map(Number) }));
}

/** The active users of the file's organisation who see it: who may follow it, and who a note may mention. */
export async function colleaguesOf(tx: DbOrTx, file: { holdingId: number; shopId: number }): Promise<Colleague[]> {
  return (await organisationViewers(tx, file.holdingId)).filter((viewer) => mayReadFile(viewer, file)).map(colleagueOf);
}

/**
 * The reader's colleagues: the active users of their organisation who see at least one of the files the reader sees
 * (the 'Suivi par' list filter and the bulk 'Assigner à…'; each file's own owner rule still applies on saving).
 */
export async function colleaguesOfReader(tx: DbOrTx, reader: Principal): Promise<Colleague[]> {
  if (!reader.holdingId) return [];
  const viewers = await organisationViewers(tx, reader.holdingId);
  const readerShops = seesWholeOrganisation(reader) ? undefined : new Set(reader.shopIds);
  return viewers
    .filter((viewer) => {
      if (!hasPermission(viewer.permissions, PEC_VIEW_PERMISSION)) return false;
      // Someone who sees the whole organisation shares every file; otherwise one centre in common is enough.
      if (seesWholeOrganisation(viewer)) return true;
      return viewer.shopIds.some((shopId) => !readerShops || readerShops.has(shopId));
    })
    .map((viewer) => ({
      ...colleagueOf(viewer),
      shopIds: seesWholeOrganisation(viewer) ? null : viewer.shopIds.filter((shopId) => !readerShops || readerShops.has(shopId)),
    }));
}

const colleagueOf = (row: { id: number; first_name: string; last_name: string; permissions: readonly string[] }): Colleague => ({
  id: Number(row.id),
  firstName: row.first_name,
  lastName: row.last_name,
  mayFollow: hasPermission(row.permissions, ACT_ON_FILE_PERMISSION),
});

export const colleagueName = (c: Pick<Colleague, 'firstName' | 'lastName'>) => `${c.firstName} ${c.lastName}`.trim();

/** A note's new mentions (not in its previous text) notify the colleagues named, its author excepted. */
export async function notifyMentions(tx: DbOrTx, author: Principal, noteId: number, previousBody: string) {
  const [note] = await tx
    .select({ body: pecNotes.body, id: pecDossiers.id, holdingId: pecDossiers.holdingId, shopId: pecDossiers.shopId, numero: pecDossiers.numeroDossier })
    .from(pecNotes)
    .innerJoin(pecDossiers, eq(pecDossiers.id, pecNotes.dossierId))
    .where(eq(pecNotes.id, noteId));
  if (!note || !note.body.includes('@')) return;
  const colleagues = (await colleaguesOf(tx, note)).map((c) => ({ ...c, name: colleagueName(c) }));
  const before = new Set(mentionedUsers(previousBody, colleagues).map((c) => c.id));
  const mentioned = mentionedUsers(note.body, colleagues)
    .map((c) => c.id)
    .filter((id) => id !== author.id && !before.has(id));
  if (mentioned.length === 0) return;
  const muted = await tx.execute(sql`select user_id from notification_preferences where 'mention' = any(muted_kinds)`);
  const mutedIds = new Set((((muted as { rows?: unknown[] }).rows ?? (muted as unknown as unknown[])) as { user_id: number }[]).map((r) => Number(r.user_id)));
  await notifyUsers(
    tx,
    mentioned.filter((id) => !mutedIds.has(id)),
    note,
    { kind: 'mention', title: NOTE_MESSAGES.mentionTitle(colleagueName(author), note.numero), description: note.body, noteId },
  );
}
