// Once per API test run: build the template database every test file clones.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../../server/db/connect';
import { databaseUrl, prepareDatabase, uniqueName, usePostgres, withAdminClient } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  if (usePostgres()) {
    // Test databases are named after the template, so that concurrent runs never drop each other's.
    const name = uniqueName('pecflow_tpl');
    await withAdminClient((c) => c.query(`CREATE DATABASE ${name}`));
    const database = await openPostgres(databaseUrl(name), 2);
    await prepareDatabase(database);
    await database.close();
    project.provide('templateDatabase', name);
    return async () => {
      await withAdminClient(async (c) => {
        // The template and any test database a crashed file left behind.
        const { rows } = await c.query<{ datname: string }>(`select datname from pg_database where datname = $1 or starts_with(datname, $2)`, [
          name,
          `${name}_f`,
        ]);
        for (const row of rows) await c.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      });
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'pecflow-api-'));
  const database = await openPglite('memory://');
  await prepareDatabase(database);
  // Written to disk first: each copy then starts without replaying the migrations' log (a sixth faster to open).
  await database.query('CHECKPOINT');
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await (await database.dump!()).arrayBuffer()));
  await database.close();
  project.provide('templateDatabase', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
