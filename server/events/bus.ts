// Live events (dossier, workflow and notification changes) through PostgreSQL LISTEN/NOTIFY, so that every server
// instance sees the changes made by the others. Events are published inside the writing transaction with pg_notify:
// PostgreSQL delivers them at commit, and never for a write that is rolled back.
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/connect';

export const EVENTS_CHANNEL = 'pecflow_events';

interface FileScope {
  holdingId: number;
  shopId: number;
  dossierId: number;
}

export type PecEvent =
  | (FileScope & { type: 'dossier.created' | 'dossier.updated' | 'dossier.deleted'; status?: string; numeroDossier?: string })
  | (FileScope & {
      type: 'workflow.updated';
      executionId: number;
      runId: number | null;
      callbackType: string | null;
      outcome: string | null;
      success: boolean | null;
      completed: boolean;
    })
  | {
      type: 'notification.created';
      userId: number;
      notificationId: number;
      dossierId: number | null;
      kind: string | null;
      title: string;
      description: string | null;
    };

/** NOTIFY payloads are limited to 8000 bytes: texts are cut well below. */
function encode(event: PecEvent): string {
  const copy = { ...event } as Record<string, unknown>;
  if (typeof copy.title === 'string') copy.title = copy.title.slice(0, 300);
  if (typeof copy.description === 'string') copy.description = copy.description.slice(0, 1000);
  return JSON.stringify({ ...copy, at: new Date().toISOString() });
}

/** Queues the event in the caller's transaction (or sends it at once outside one). */
export async function publish(tx: DbOrTx, ...events: PecEvent[]): Promise<void> {
  for (const event of events) await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${encode(event)})`);
}

export type EventListener = (event: PecEvent & { at: string }) => void;

/** One LISTEN per instance, fanned out to the connected streams. */
export class EventHub {
  private readonly listeners = new Set<EventListener>();
  private unlisten?: () => Promise<void>;
  private starting?: Promise<void>;

  constructor(private readonly database: Database) {}

  /** Starts listening on first use. */
  async start(): Promise<void> {
    this.starting ??= this.database
      .listen(EVENTS_CHANNEL, (payload) => {
        let event: PecEvent & { at: string };
        try {
          event = JSON.parse(payload);
        } catch {
          return;
        }
        for (const listener of this.listeners) {
          try {
            listener(event);
          } catch {
            // one broken stream must not stop the others
          }
        }
      })
      .then((unlisten) => {
        this.unlisten = unlisten;
      });
    return this.starting;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size() {
    return this.listeners.size;
  }

  async stop(): Promise<void> {
    this.listeners.clear();
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
    this.starting = undefined;
  }
}
