// Durable background jobs with pg-boss (a queue in PostgreSQL): robot runs, the simulator's callbacks, run timeouts and
// the daily expiry scan and follow-up notice. Jobs survive a restart: a job that was waiting runs on the next start; a stopping server
// finishes the jobs in hand for a few seconds, and one still running after that (or at a crash) stays active until
// its expiry, then pg-boss retries it on whichever instance runs. Every handler is idempotent, so a stopping server hands
// the jobs it could not finish back to the queue at once (another instance takes them after the queue's retry delay).
// On PGlite pg-boss runs through the database's executor; on PostgreSQL it opens its own small pool.
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Database, DbOrTx } from '../db/connect';

export const QUEUES = {
  /** Dispatch of a run to the robot driver (simulator or HTTP). */
  robotRun: 'robot-run',
  /** One callback of the built-in simulator, posted over HTTP. */
  robotSim: 'robot-sim',
  /** Fails a run still open at its deadline. */
  robotTimeout: 'robot-timeout',
  /** Every minute: fails any open run past its deadline whose timeout job was lost. */
  robotSweep: 'robot-sweep',
  /** Every morning: notifies the files whose agreement expires within 15 days. */
  expiryScan: 'pec-expiry-scan',
  /** Every morning: tells each owner how many of their files are "À relancer" (server/pec/followUps.ts). */
  followUpNotice: 'pec-follow-up-notice',
  /** One email to send (server/mail/mailer.ts). */
  mailSend: 'mail-send',
  /** A forgotten password: finds the account and queues its email, apart from the request (server/auth/accounts.ts). */
  passwordResetRequest: 'password-reset-request',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

const QUEUE_OPTIONS: Record<QueueName, Omit<PgBoss.Queue, 'name'>> = {
  'robot-run': { retryLimit: 3, retryDelay: 2, expireInSeconds: 60 },
  'robot-sim': { retryLimit: 5, retryDelay: 1, expireInSeconds: 60 },
  'robot-timeout': { retryLimit: 5, retryDelay: 5, expireInSeconds: 60 },
  'robot-sweep': { retryLimit: 0, expireInSeconds: 60 },
  'pec-expiry-scan': { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 },
  'pec-follow-up-notice': { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 },
  // An SMTP server that refuses or cannot be reached is tried again for about a day (backoff from 10 s).
  'mail-send': { retryLimit: 12, retryDelay: 10, retryBackoff: true, expireInSeconds: 45 },
  'password-reset-request': { retryLimit: 5, retryDelay: 5, expireInSeconds: 30 },
};

export const SCHEDULES: { queue: QueueName; cron: string; tz: string }[] = [
  { queue: QUEUES.robotSweep, cron: '* * * * *', tz: 'Europe/Paris' },
  { queue: QUEUES.expiryScan, cron: '0 7 * * *', tz: 'Europe/Paris' },
  { queue: QUEUES.followUpNotice, cron: '30 7 * * *', tz: 'Europe/Paris' },
];

export type JobHandler<T> = (data: T, job: PgBoss.Job<T>) => Promise<void>;

interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

/** One fetch-and-run loop of a queue (our own instead of pg-boss's work(), so that a stop never races a fetch). */
interface Loop {
  queue: QueueName;
  wake(): void;
  done: Promise<void>;
}

export class JobService {
  private boss?: PgBoss;
  private starting?: Promise<PgBoss>;
  private readonly loops: Loop[] = [];
  /** Jobs being run by this instance, to hand back at a stop. */
  private readonly inHand = new Map<string, QueueName>();
  private stopping = false;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly options: { workers: boolean; log: Logger },
  ) {}

  /** Starts pg-boss on first use (installing its schema on a new database). Maintenance runs only on worker instances. */
  start(): Promise<PgBoss> {
    if (this.stopped) return Promise.reject(new Error('Le service de tâches est arrêté.'));
    this.starting ??= (async () => {
      const connection: PgBoss.ConstructorOptions = this.database.bossExecutor
        ? { db: this.database.bossExecutor as PgBoss.Db }
        : { connectionString: this.database.connectionString, max: 4 };
      const boss = new PgBoss({
        ...connection,
        schema: 'pgboss',
        supervise: this.options.workers,
        schedule: this.options.workers,
        maintenanceIntervalSeconds: 30,
      });
      boss.on('error', (error) => this.options.log.error({ err: error }, 'pg-boss'));
      await boss.start();
      for (const queue of Object.values(QUEUES)) {
        if (!(await boss.getQueue(queue))) await boss.createQueue(queue, { name: queue, ...QUEUE_OPTIONS[queue] });
      }
      this.boss = boss;
      return boss;
    })();
    // A failed start (database unreachable) is tried again on the next use.
    this.starting.catch(() => (this.starting = undefined));
    return this.starting;
  }

  async send<T extends object>(queue: QueueName, data: T, options: PgBoss.SendOptions = {}): Promise<string | null> {
    const boss = await this.start();
    const id = await boss.send(queue, data, options);
    // A job due now starts at once on this instance instead of at the next poll.
    const due = !options.startAfter || (options.startAfter instanceof Date && options.startAfter.getTime() <= Date.now());
    if (due) for (const loop of this.loops) if (loop.queue === queue) loop.wake();
    return id;
  }

  /**
   * Queues a job in the caller's transaction: it exists once the transaction commits, not before and not otherwise.
   * pg-boss must already be started (at the server's start): on PGlite, starting it inside a transaction would wait
   * for the transaction's one connection.
   */
  async sendInTransaction<T extends object>(tx: DbOrTx, queue: QueueName, data: T, options: PgBoss.SendOptions = {}): Promise<string | null> {
    if (!this.boss) throw new Error('Le service de tâches n’est pas démarré.');
    const db = {
      // pg-boss's SQL with its $n parameters, run on the transaction's connection.
      async executeSql(text: string, values: unknown[] = []) {
        const parts = text.split(/\$(\d+)/);
        const query = sql.empty();
        parts.forEach((part, i) => query.append(i % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1])}`));
        const result = await tx.execute(query);
        return { rows: (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as unknown[] };
      },
    };
    return this.boss.send(queue, data, { ...options, db });
  }

  /**
   * Runs a handler on a queue: `workers` loops each fetch up to `batchSize` jobs and run them concurrently; each job
   * completes or fails on its own (a failed job is retried by pg-boss after the queue's delay).
   */
  async work<T extends object>(
    queue: QueueName,
    handler: JobHandler<T>,
    options: { batchSize?: number; workers?: number; pollingIntervalSeconds?: number } = {},
  ) {
    const boss = await this.start();
    const interval = (options.pollingIntervalSeconds ?? 1) * 1000;
    for (let i = 0; i < (options.workers ?? 1); i++) {
      let wakeUp: (() => void) | undefined;
      let woken = false;
      const loop: Loop = {
        queue,
        wake() {
          woken = true;
          wakeUp?.();
        },
        done: Promise.resolve(),
      };
      loop.done = (async () => {
        while (!this.stopping) {
          let jobs: PgBoss.Job<T>[] = [];
          try {
            woken = false;
            jobs = (await boss.fetch<T>(queue, { batchSize: options.batchSize ?? 10 })) ?? [];
            await Promise.all(
              jobs.map(async (job) => {
                this.inHand.set(job.id, queue);
                try {
                  await handler(job.data, job);
                  if (this.inHand.delete(job.id)) await boss.complete(queue, job.id);
                } catch (error) {
                  if (!this.inHand.delete(job.id)) return;
                  this.options.log.warn({ err: error, queue }, 'tâche en échec, nouvel essai prévu');
                  await boss.fail(queue, job.id, { message: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
                }
              }),
            );
          } catch (error) {
            this.options.log.error({ err: error, queue }, 'lecture de la file de tâches impossible');
          }
          if (jobs.length === 0 && !woken && !this.stopping) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, interval);
              wakeUp = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wakeUp = undefined;
          }
        }
      })();
      this.loops.push(loop);
    }
  }

  async schedule(queue: QueueName, cron: string, tz: string) {
    const boss = await this.start();
    await boss.schedule(queue, cron, {}, { tz });
  }

  async getSchedules() {
    const boss = await this.start();
    return boss.getSchedules();
  }

  /** The pg-boss instance (tests and the bench inspect jobs through it). */
  instance(): Promise<PgBoss> {
    return this.start();
  }

  get hasWorkers() {
    return this.loops.length > 0;
  }

  /**
   * Stops fetching and lets the jobs in hand finish (they may still queue their next step) for up to `timeoutMs`;
   * a job still running then is handed back (failed, so pg-boss retries it after the queue's delay). Jobs can still be
   * queued afterwards (requests in flight at a graceful stop) until close().
   */
  async stopWorking(timeoutMs = 5000) {
    this.stopping = true;
    for (const loop of this.loops) loop.wake();
    await Promise.race([Promise.all(this.loops.map((l) => l.done)), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    const unfinished = [...this.inHand];
    this.inHand.clear();
    if (unfinished.length === 0 || !this.boss) return;
    for (const [id, queue] of unfinished) await this.boss.fail(queue, id, { message: 'instance arrêtée : tâche rendue à la file' }).catch(() => undefined);
  }

  /** Stops pg-boss and closes its connections (once no request can queue a job any more). */
  async close() {
    if (!this.stopping) await this.stopWorking();
    const boss = this.boss ?? (this.starting ? await this.starting.catch(() => undefined) : undefined);
    this.stopped = true;
    await boss?.stop({ graceful: false, close: true, wait: true }).catch(() => undefined);
  }
}
