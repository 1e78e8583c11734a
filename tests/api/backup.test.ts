// npm run backup / npm run restore of the embedded database (server/backup.ts), on a PGlite folder on disk: the data,
// and the PEC files' documents with it (their encrypted chunks live in the same database).
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupPglite, restorePglite } from '../../server/backup';
import { openPglite } from '../../server/db/connect';
import { seed } from '../../server/seed';
import { SecretBox } from '../../server/crypto';
import { storeDocument } from '../../server/pec/documents';
import { PostgresDocumentStore } from '../../server/pec/documentStore';
import { TEST_APP_SECRET_KEY } from './helpers/databases';

const dir = mkdtempSync(path.join(tmpdir(), 'pecflow-backup-'));
const pgliteDir = path.join(dir, 'data', 'pglite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function withDatabase<T>(fn: (query: <R>(text: string, values?: unknown[]) => Promise<R[]>) => Promise<T>): Promise<T> {
  const database = await openPglite(pgliteDir);
  try {
    return await fn((text, values) => database.query(text, values));
  } finally {
    await database.close();
  }
}

const networkNames = () =>
  withDatabase((q) => q<{ name: string; code: string }>(`select name, code from networks where name like 'Réseau sauvegarde%' order by name`));

describe('backup and restore of the embedded database', () => {
  it('restores exactly what was there at the backup: later changes are gone, earlier data is back', async () => {
    const database = await openPglite(pgliteDir);
    await database.migrate(() =>
      seed(database, { demo: false, appSecretKey: TEST_APP_SECRET_KEY, adminEmail: 'admin@exemple.fr', adminPassword: 'Sauvegarde2026!' }),
    );
    await database.query(`insert into networks (name, code) values ('Réseau sauvegarde A', 'AVANT')`);
    // While the database is open (a server running), the backup refuses and says why.
    await expect(backupPglite(pgliteDir, path.join(dir, 'refused.tar'))).rejects.toThrow(/ouverte par un serveur Pecflow/);
    await database.close();

    const file = path.join(dir, 'pecflow.tar');
    expect(await backupPglite(pgliteDir, file)).toBeGreaterThan(1_000_000);

    await withDatabase(async (q) => {
      await q(`update networks set code = 'APRES' where name = 'Réseau sauvegarde A'`);
      await q(`insert into networks (name, code) values ('Réseau sauvegarde B', 'NOUVEAU')`);
      await q(`delete from users where email = 'admin@exemple.fr'`);
    });
    expect(await networkNames()).toEqual([
      { name: 'Réseau sauvegarde A', code: 'APRES' },
      { name: 'Réseau sauvegarde B', code: 'NOUVEAU' },
    ]);

    await restorePglite(pgliteDir, file);
    expect(await networkNames()).toEqual([{ name: 'Réseau sauvegarde A', code: 'AVANT' }]);
    const users = await withDatabase((q) => q<{ email: string }>(`select email from users`));
    expect(users.map((u) => u.email)).toEqual(['admin@exemple.fr']);
    // The replaced database is kept beside, in case.
    expect(existsSync(path.join(dir, 'data', 'pglite.before-restore', 'PG_VERSION'))).toBe(true);
  }, 180_000);

  it('carries the documents: a document deleted after the backup is back, whole and still encrypted, after the restore', async () => {
    const docsDir = path.join(dir, 'documents', 'pglite');
    const store = new PostgresDocumentStore(new SecretBox(TEST_APP_SECRET_KEY));
    const content = randomBytes(600_000); // three chunks
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    const read = async (database: Awaited<ReturnType<typeof openPglite>>, id: number) => {
      const pieces: Buffer[] = [];
      for await (const piece of store.get(database.db, id)) pieces.push(piece);
      return Buffer.concat(pieces);
    };

    let database = await openPglite(docsDir);
    await database.migrate(() => seed(database, { demo: true, appSecretKey: TEST_APP_SECRET_KEY }));
    const [file] = await database.query<{ id: number; holding_id: number }>('select id, holding_id from pec_dossiers order by id limit 1');
    const id = await storeDocument(database.db, {
      holdingId: file!.holding_id,
      dossierId: file!.id,
      kind: 'prescription',
      name: 'ordonnance.pdf',
      mime: 'application/pdf',
      content,
      createdBy: null,
      store,
    });
    await database.close();
    const backup = path.join(dir, 'documents.tar');
    await backupPglite(docsDir, backup);

    database = await openPglite(docsDir);
    await database.query('delete from pec_document_chunks where document_id = $1', [id]);
    await database.query('delete from pec_documents where id = $1', [id]);
    await database.close();

    await restorePglite(docsDir, backup);
    database = await openPglite(docsDir);
    try {
      const [row] = await database.query<{ sha256: string; size: number }>('select sha256, size from pec_documents where id = $1', [id]);
      expect(row).toEqual({ sha256: sha(content), size: content.length });
      expect(sha(await read(database, id))).toBe(sha(content));
      // At rest, the chunks are not the file's bytes.
      const chunks = await database.query<{ bytes: Uint8Array }>('select bytes from pec_document_chunks where document_id = $1 order by seq', [id]);
      expect(chunks).toHaveLength(3);
      expect(Buffer.from(chunks[0]!.bytes).includes(content.subarray(0, 64))).toBe(false);
    } finally {
      await database.close();
    }
  }, 240_000);

  it('a file that is not a backup leaves the database untouched', async () => {
    const bad = path.join(dir, 'pas-une-sauvegarde.tar');
    writeFileSync(bad, 'ceci n’est pas une archive');
    await expect(restorePglite(pgliteDir, bad)).rejects.toThrow();
    expect(await networkNames()).toEqual([{ name: 'Réseau sauvegarde A', code: 'AVANT' }]);
  });

  it('npm run backup / restore: the command line, and PostgreSQL pointed to pg_dump', () => {
    const cli = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'server/backup.ts', ...args], {
        encoding: 'utf8',
        env: { ...process.env, DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '', ...env },
      });
    const file = path.join(dir, 'cli.tar');
    const backup = cli(['backup', file]);
    expect(backup.stdout + backup.stderr).toContain('Sauvegarde écrite');
    expect(backup.status).toBe(0);
    const restore = cli(['restore', file]);
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain('Base restaurée');
    const onPostgres = cli(['backup', file], { DATABASE_URL: 'postgres://x@127.0.0.1/x' });
    expect(onPostgres.status).toBe(1);
    expect(onPostgres.stderr).toContain('pg_dump');
  }, 180_000);
});
