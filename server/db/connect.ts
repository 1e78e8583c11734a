// Opens the database: embedded PGlite (on disk under DATA_DIR, or in memory for tests) or a PostgreSQL server.
// Both give the same Drizzle API; the rest of the server never knows which one it talks to.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
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
  connectionString?: string;
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** dataDir: a folder, or 'memory://' for a throw-away database; loadDataDir: a dump to start from (tests). */
export async function openPglite(dataDir: string, options: { loadDataDir?: Blob | File } = {}): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm, unaccent }, loadDataDir: options.loadDataDir });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
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
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return async () => unsubscribe();
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client }), { migrationsFolder });
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

const statementName = (text: string) => `p_${createHash('sha1').update(text).digest('hex')}`;

export async function openPostgres(connectionString: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: poolSize, Client: PreparingClient });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  let listener: pg.Client | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  async function listenerClient() {
    if (listener) return listener;
    listener = new pg.Client({ connectionString });
    listener.on('error', () => undefined);
    await listener.connect();
    listener.on('notification', (msg) => {
      for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
    });
    return listener;
  }

  return {
    kind: 'postgres',
    db,
    connectionString,
    async query(text, values) {
      const res = await pool.query(text, values as unknown[]);
      return res.rows;
    },
    async listen(channel, onPayload) {
      const client = await listenerClient();
      if (!handlers.has(channel)) {
        handlers.set(channel, new Set());
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      handlers.get(channel)!.add(onPayload);
      return async () => {
        handlers.get(channel)?.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async migrate() {
      // Several instances may start together: one migrates, the others wait for it.
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock(727001)');
        await migratePg(drizzlePg({ client: pool }), { migrationsFolder });
      } finally {
        await lock.query('select pg_advisory_unlock(727001)').catch(() => undefined);
        lock.release();
      }
    },
    async close() {
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
