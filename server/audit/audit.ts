// The audit trail: who did what to which record, when, with the before/after of changed fields (secrets masked).
import { notLike, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { auditLogs } from '../db/schema';

export type Changes = Record<string, { before?: unknown; after?: unknown }>;

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: number | string | null;
  /** What the record is called (a PEC file's number): the trail names it so, even once it is deleted. */
  entityLabel?: string | null;
  /**
   * The organisation whose trail the entry joins: the record's (null for platform-wide records and platform-wide
   * actions). Required, never the actor's by default: a platform administrator who belongs to an organisation would
   * otherwise show that organisation their changes to the platform's reference data.
   */
  holdingId: number | null;
  changes?: Changes | Record<string, unknown> | null;
}

export const MASK = '••••••';

/**
 * Entries that change the record, as opposed to the reads also recorded (`pec_dossier.read`: who opened a health file,
 * domain.md): actions ending in `.read` are reads, every other one is a change.
 */
export const changesOnly: SQL = notLike(auditLogs.action, '%.read');

/** Who made a change (a signed-in Principal has it); null for the server itself (a run's timeout). */
export interface AuditActor {
  id: number;
  email: string;
}

/** Written in the caller's transaction: the change and its trace land together or not at all. */
export async function recordAudit(tx: DbOrTx, principal: AuditActor | null, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLogs).values({
    holdingId: entry.holdingId,
    actorId: principal?.id ?? null,
    actorEmail: principal?.email ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    entityLabel: entry.entityLabel ?? null,
    changes: entry.changes ?? null,
  });
}

/** The fields whose value differs, as {before, after}; `secret` fields show only that they changed. */
export function diff(before: Record<string, unknown>, after: Record<string, unknown>, secret: Set<string> = new Set()): Changes {
  const changes: Changes = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[key];
    const b = after[key];
    if (JSON.stringify(a ?? null) === JSON.stringify(b ?? null)) continue;
    changes[key] = secret.has(key) ? { before: a == null ? null : MASK, after: b == null ? null : MASK } : { before: a ?? null, after: b ?? null };
  }
  return changes;
}
