// What the benches write about the machine and the table they load, written once.
import os from 'node:os';
import type { Database } from '../../server/db/connect';

/** The 1-minute load average, rounded: the machine may be shared, and its load says how far the times can be trusted. */
export const loadAverage1m = () => Number(os.loadavg()[0]!.toFixed(2));

/** The machine a result was measured on, with its load before and after the runs. */
export const machineOf = (loadAverage1mBefore: number) => ({
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'inconnu',
  memoryGb: Math.round(os.totalmem() / 1024 ** 3),
  node: process.version,
  loadAverage1mBefore,
  loadAverage1mAfter: loadAverage1m(),
});

/**
 * Loads pec_dossiers with its secondary indexes dropped, then builds them again and analyses (faster than maintaining
 * them row by row): the primary key and the unique numbers stay.
 */
export async function loadWithoutIndexes(database: Pick<Database, 'query'>, load: () => Promise<void>) {
  const indexes = await database.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where tablename = 'pec_dossiers' and indexname not in ('pec_dossiers_pkey', 'pec_dossiers_numero_idx', 'pec_dossiers_external_idx')`,
  );
  for (const index of indexes) await database.query(`drop index ${index.indexname}`);
  await load();
  for (const index of indexes) await database.query(index.indexdef);
  await database.query('vacuum analyze');
}
