// Opens the database: embedded PGlite (on disk under DATA_DIR, or in memory for tests) or a PostgreSQL server.
// Both give the same Drizzle API; the rest of the server never knows which one it talks to.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: every data function accepts either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/** What pg-boss needs to run its SQL (its `db` option). */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs raw SQL with parameters; for the few queries Drizzle cannot express. */
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** pg-boss adapter on PGlite; undefined on PostgreSQL, where pg-boss opens its own pool. */
  bossExecutor?: SqlExecutor;
  /** PGlite only: the whole database as a tarball, to start test databases from. */
  dump?(): Promise<Blob>;
  /** A session-level connection string (never through a transaction pooler): pg-boss's own pool. */
  connectionString?: string;
  /** PostgreSQL only: the data pool's use, for the metrics. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * `onPayload` for each notice on `channel`; `onGap` when listening again after the LISTEN connection was lost (the
   * notices sent meanwhile are lost).
   */
  listen(channel: string, onPayload: (payload: string) => void, onGap?: () => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * A notice sent from the LISTEN connection itself: it comes back to this instance's listeners after every notice
   * committed before it (PostgreSQL delivers them in commit order), without waiting for a connection of the data pool.
   */
  notifyFromListener(channel: string, payload: string): Promise<void>;
  /** Applies the migrations, then runs `then` (the seed) while still holding the lock other instances wait on. */
  migrate(then?: () => Promise<unknown>): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** dataDir: a folder, or 'memory://' for a throw-away database; loadDataDir: a dump to start from (tests). */
export async function openPglite(dataDir: string, options: { loadDataDir?: Blob | File } = {}): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: { btree_gin, pg_trgm, unaccent }, loadDataDir: options.loadDataDir });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  const notify = async (channel: string, payload: string) => {
    await client.query('select pg_notify($1, $2)', [channel, payload]);
  };
  return {
    kind: 'pglite',
    db,
    async query(text, values) {
      const res = await client.query(text, values as unknown[]);
      return res.rows as never[];
    },
    bossExecutor: {
      // pg-boss sends its schema creation as parameterless multi-statement SQL, which only `exec` accepts.
      async executeSql(text, values) {
        if (!values || values.length === 0) {
          const results = await client.exec(text);
          return results[results.length - 1] ?? { rows: [] };
        }
        return client.query(text, values);
      },
    },
    // One connection, in this process: it is never lost, so there is no gap.
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return async () => unsubscribe();
    },
    notify,
    // One connection: the listener's is the data's.
    notifyFromListener: notify,
    async migrate(then) {
      await migratePglite(drizzlePglite({ client }), { migrationsFolder });
      await then?.();
    },
    async dump() {
      return client.dumpDataDir('none');
    },
    async close() {
      await client.close();
    },
  };
}

/** Data statements worth keeping prepared; DDL and multi-statement scripts stay unnamed. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * A client that prepares every data statement once per connection (a name derived from its text). Parsing and planning
 * cost more than running the small queries of a list page; a named statement skips the parse, and PostgreSQL's plan
 * cache can skip the planning. Values still travel as parameters.
 */
class PreparingClient extends pg.Client {
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    if (typeof config === 'string' && Array.isArray(values) && PREPARABLE.test(config)) {
      config = { text: config, values, name: statementName(config) };
      values = undefined;
    } else if (config && typeof config === 'object' && 'text' in config) {
      const query = config as { text: string; name?: string };
      if (!query.name && PREPARABLE.test(query.text)) config = { ...query, name: statementName(query.text) };
    }
    return (super.query as (...args: unknown[]) => never)(config, values, callback);
  }
}

/** The statement names of the texts seen so far: hashing every query's text again costs more than the lookup. */
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(text).digest('hex')}`;
    // The texts are the application's own queries (values travel apart): a bound only guards against a runaway.
    if (statementNames.size >= 5000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * connectionString: the data pool (may be PgBouncer in transaction mode). directUrl: set when it is; LISTEN, the
 * session advisory lock of the migrations and pg-boss then use it, since a transaction pooler carries none of them
 * across transactions, and data statements stay unnamed (PgBouncer before 1.21 cannot keep named statements).
 */
export async function openPostgres(connectionString: string, poolSize = 10, directUrl?: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: poolSize, ...(directUrl ? {} : { Client: PreparingClient }) });
  const sessionUrl = directUrl ?? connectionString;
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  let listener: Promise<pg.Client> | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const gapHandlers = new Set<() => void>();

  /** The LISTEN connection; reopened (and every channel listened again) when the server drops it. */
  function listenerClient(): Promise<pg.Client> {
    listener ??= (async () => {
      const client = new pg.Client({ connectionString: sessionUrl });
      let lost = false;
      const reconnect = () => {
        if (closed || lost) return;
        lost = true;
        listener = undefined;
        setTimeout(() => void listenAgain(), 1000).unref();
      };
      client.on('error', reconnect);
      client.on('end', reconnect);
      client.on('notification', (msg) => {
        for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
      });
      try {
        await client.connect();
        // Its own notices (notifyFromListener) need no durable commit: without this, each waits for a WAL flush.
        await client.query('set synchronous_commit = off');
      } catch (error) {
        listener = undefined;
        throw error;
      }
      return client;
    })();
    return listener;
  }
  /** The LISTEN connection's queries, one at a time (a pg client does not take a query while one runs). */
  let listenerTurn: Promise<unknown> = Promise.resolve();
  function onListener<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
    const turn = listenerTurn.then(async () => use(await listenerClient()));
    listenerTurn = turn.catch(() => undefined);
    return turn;
  }
  let closed = false;
  async function listenAgain() {
    if (closed || handlers.size === 0) return;
    try {
      await onListener(async (client) => {
        for (const channel of handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      });
      for (const onGap of gapHandlers) onGap();
    } catch {
      setTimeout(() => void listenAgain(), 1000).unref();
    }
  }

  return {
    kind: 'postgres',
    db,
    connectionString: sessionUrl,
    async query(text, values) {
      const res = await pool.query(text, values as unknown[]);
      return res.rows;
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    async listen(channel, onPayload, onGap) {
      if (onGap) gapHandlers.add(onGap);
      if (!handlers.has(channel)) {
        handlers.set(channel, new Set());
        await onListener((client) => client.query(`LISTEN ${pg.escapeIdentifier(channel)}`));
      }
      handlers.get(channel)!.add(onPayload);
      return async () => {
        handlers.get(channel)?.delete(onPayload);
        if (onGap) gapHandlers.delete(onGap);
      };
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async notifyFromListener(channel, payload) {
      await onListener((client) => client.query('select pg_notify($1, $2)', [channel, payload]));
    },
    async migrate(then) {
      // Several instances may start together: one migrates and seeds, the others wait for it. A session lock needs
      // one session for the whole migration: its own direct connection.
      const lock = new pg.Client({ connectionString: sessionUrl });
      await lock.connect();
      try {
        await lock.query('select pg_advisory_lock(727001)');
        await migratePg(drizzlePg({ client: lock }), { migrationsFolder });
        await then?.();
      } finally {
        await lock.end().catch(() => undefined);
      }
    },
    async close() {
      closed = true;
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
