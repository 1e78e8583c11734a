// npm run backup -- FILE / npm run restore -- FILE: a copy of the embedded database (DATA_DIR/pglite) as one tarball.
// The server must be stopped: PGlite is PostgreSQL inside the server's own process; another process can neither read
// its files consistently nor share them, so the copy is taken by opening the stopped database (PGlite's dumpDataDir).
// On PostgreSQL (DATABASE_URL) use pg_dump / pg_restore (README, docs/DEPLOYING.md).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { databaseLocation } from './config';
import { openPglite } from './db/connect';

/** PostgreSQL's lock file: present while a server has the database open (or after a crash, until the next start). */
function assertStopped(pgliteDir: string) {
  if (existsSync(path.join(pgliteDir, 'postmaster.pid'))) {
    throw new Error(
      `La base ${pgliteDir} est ouverte par un serveur Pecflow : arrêtez-le d’abord. (Après un arrêt brutal, démarrez puis arrêtez le serveur une fois.)`,
    );
  }
}

/** Writes the whole embedded database to `file`; returns its size in bytes. */
export async function backupPglite(pgliteDir: string, file: string): Promise<number> {
  if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) throw new Error(`Aucune base embarquée dans ${pgliteDir}.`);
  assertStopped(pgliteDir);
  const database = await openPglite(pgliteDir);
  try {
    const tarball = Buffer.from(await (await database.dump!()).arrayBuffer());
    // Written beside, then renamed: a backup file is never half-written.
    writeFileSync(`${file}.partial`, tarball);
    renameSync(`${file}.partial`, file);
    return tarball.length;
  } finally {
    await database.close();
  }
}

/** Replaces the embedded database by the backup in `file`; the replaced one is kept beside as pglite.before-restore. */
export async function restorePglite(pgliteDir: string, file: string): Promise<void> {
  if (!existsSync(file)) throw new Error(`Fichier de sauvegarde introuvable : ${file}`);
  if (existsSync(pgliteDir)) assertStopped(pgliteDir);
  const incoming = `${pgliteDir}.restoring`;
  rmSync(incoming, { recursive: true, force: true });
  // Loaded and checked in a folder of its own first: a bad file leaves the current database untouched.
  const database = await openPglite(incoming, { loadDataDir: new Blob([readFileSync(file)]) });
  try {
    await database.query('select count(*) from users');
  } catch (error) {
    await database.close().catch(() => undefined);
    rmSync(incoming, { recursive: true, force: true });
    throw new Error(`Ce fichier n’est pas une sauvegarde Pecflow lisible (${error instanceof Error ? error.message : error}).`, { cause: error });
  }
  await database.close();
  const previous = `${pgliteDir}.before-restore`;
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(pgliteDir)) renameSync(pgliteDir, previous);
  renameSync(incoming, pgliteDir);
}

async function cli(command: string | undefined, file: string | undefined) {
  if ((command !== 'backup' && command !== 'restore') || !file) throw new Error('Usage : npm run backup -- FICHIER   |   npm run restore -- FICHIER');
  const config = databaseLocation();
  if (config.databaseUrl) {
    throw new Error('DATABASE_URL est défini : sauvegardez PostgreSQL avec pg_dump -Fc et restaurez avec pg_restore (voir docs/DEPLOYING.md).');
  }
  const target = path.resolve(file);
  if (command === 'backup') {
    const bytes = await backupPglite(config.pgliteDir, target);
    console.log(`Sauvegarde écrite : ${target} (${(bytes / 1024 / 1024).toFixed(1)} Mo)`);
  } else {
    await restorePglite(config.pgliteDir, target);
    console.log(`Base restaurée dans ${config.pgliteDir} depuis ${target} (l’ancienne est gardée dans ${config.pgliteDir}.before-restore)`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  cli(process.argv[2], process.argv[3]).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
