// Whether a session (a refresh-token family, the `sid` of its access tokens) is still open, checked on every request.
// Cheap: each instance keeps the answer per session for up to `ttlMs`, so a user's burst costs one indexed query.
// Exact: an instance that ends a session forgets its answer at once, and tells the others through PostgreSQL's
// NOTIFY (sent in the ending transaction, delivered at commit); the ttl only bounds a missed notification.
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/connect';

export const SESSIONS_CHANNEL = 'pecflow_sessions_ended';

export class SessionRegistry {
  private readonly entries = new Map<string, { open: Promise<boolean>; at: number }>();
  private readonly watchers = new Map<string, Set<() => void>>();
  private unlisten?: () => Promise<void>;

  constructor(
    private readonly database: Database,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
  ) {}

  /** Listens for the sessions other instances end. */
  async start(): Promise<void> {
    this.unlisten ??= await this.database.listen(SESSIONS_CHANNEL, (payload) => {
      for (const sid of payload.split(',')) {
        this.entries.delete(sid);
        for (const onEnd of this.watchers.get(sid) ?? []) onEnd();
      }
    });
  }

  /**
   * Calls `onEnd` when the session ends, on whichever instance ended it (a live events stream closes with its session,
   * not at its next heartbeat). Returns the function that stops watching.
   */
  watch(sid: string, onEnd: () => void): () => void {
    const watchers = this.watchers.get(sid) ?? new Set();
    watchers.add(onEnd);
    this.watchers.set(sid, watchers);
    return () => {
      watchers.delete(onEnd);
      if (watchers.size === 0 && this.watchers.get(sid) === watchers) this.watchers.delete(sid);
    };
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
  }

  isOpen(sid: string): Promise<boolean> {
    const hit = this.entries.get(sid);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.open;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    // Open while one of its refresh tokens is neither revoked nor expired (the current one of the chain).
    const open = this.database
      .query<{ open: boolean }>('select exists(select 1 from refresh_tokens where family_id = $1 and revoked_at is null and expires_at > now()) as open', [sid])
      .then(([row]) => row?.open === true);
    this.entries.set(sid, { open, at: Date.now() });
    open.catch(() => this.entries.delete(sid));
    return open;
  }

  /** After sessions were ended with `tx` (inside its transaction: the others learn it at commit). */
  async ended(tx: DbOrTx, sids: string[]): Promise<void> {
    if (sids.length === 0) return;
    for (const sid of sids) this.entries.delete(sid);
    // NOTIFY payloads stay under 8000 bytes: ids are 36 characters.
    for (let i = 0; i < sids.length; i += 150) {
      await tx.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${sids.slice(i, i + 150).join(',')})`);
    }
  }
}
