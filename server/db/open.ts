import type { Config } from '../config';
import { openPglite, openPostgres, type Database } from './connect';

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise. */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'databaseDirectUrl' | 'pgliteDir'>): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, 10, config.databaseDirectUrl) : openPglite(config.pgliteDir);
}
