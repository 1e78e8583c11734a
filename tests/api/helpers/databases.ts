// Test databases: each test file gets its own, cloned from a template migrated and seeded once per run.
// TEST_DB=postgres clones a PostgreSQL template database (DATABASE_URL); otherwise a PGlite dump is loaded in memory.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../../../server/db/connect';
import { seed } from '../../../server/seed';
import { ensureListTriggers } from '../../../server/hydra/listTriggers';
import { RESOURCES } from '../../../server/resources';

export const usePostgres = () => process.env.TEST_DB === 'postgres';

export function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres demande DATABASE_URL');
  return url;
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

/** The key every test server encrypts secrets with (the template's demo credentials use it too). */
export const TEST_APP_SECRET_KEY = '0'.repeat(64);

/** Migrates and seeds a fresh database the way `npm start` does, with the demo data. */
export async function prepareDatabase(database: Database) {
  await database.migrate(() => ensureListTriggers(database, RESOURCES));
  await seed(database, { demo: true, appSecretKey: TEST_APP_SECRET_KEY });
}

/** A fresh database for one test file, cloned from the run's template. */
export async function cloneTemplate(template: string): Promise<{ database: Database; drop(): Promise<void> }> {
  if (usePostgres()) {
    const name = uniqueName(`${template}_f`);
    await withAdminClient((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
    const database = await openPostgres(databaseUrl(name), 5);
    return {
      database,
      async drop() {
        await database.close().catch(() => undefined);
        await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      },
    };
  }
  const { readFile } = await import('node:fs/promises');
  const dump = new Blob([await readFile(template)]);
  const database = await openPglite('memory://', { loadDataDir: dump });
  return { database, drop: () => database.close() };
}
