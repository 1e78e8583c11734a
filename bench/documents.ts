// npm run bench -- documents [--clients=50] [--duration=30] [--size-mb=1]
// First, one 10 MB document alone, up and down again: the server streams it (multipart in, chunks encrypted into
// PostgreSQL, chunks decrypted out), so its RSS may not rise by more than SINGLE_TRANSFER_TARGET_MB while it passes
// (sampled every 20 ms, after a first transfer has loaded the modules it needs). Then, under load:
// `clients` closed-loop clients, each on a file of its own, upload a PDF
// of `size-mb` MB (multipart/form-data), download it whole (checking its hash) and delete it, again and again for
// `duration` seconds, against the compiled server (as production runs it) on a fresh PostgreSQL database with the demo
// data. Reports each action's p50/p99, the errors, and the server's RSS (sampled every 250 ms: highest, and at the end)
// and peak (VmHWM). Writes bench/results/documents.json.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPostgres } from '../server/db/connect';
import { DEMO_PASSWORD, seed } from '../server/seed';
import { databaseUrl, withAdmin } from './lib/harness';
import { compileServer, memoryMb } from './load';
import { startServerProcess, stopServerProcess } from './lib/serverProcess';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = path.join(ROOT, 'bench', 'results', 'documents.json');
const SECRETS = {
  JWT_SECRET: 'bench-jwt-secret-that-is-long-enough-0123456789',
  APP_SECRET_KEY: 'd'.repeat(64),
  ROBOT_CALLBACK_SECRET: 'bench-robot-callback-secret',
};
const ACTIONS = ['upload', 'download', 'delete'] as const;
const SINGLE_TRANSFER_BYTES = 10 * 1024 * 1024 - 2000;
const SINGLE_TRANSFER_TARGET_MB = 30;
type Action = (typeof ACTIONS)[number];

const log = (message: string) => console.log(`[documents] ${message}`);

/** A well-formed PDF of about `bytes` bytes (random content in a stream). */
function pdfOf(bytes: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n');
  const stream = randomBytes(Math.max(0, bytes - 400));
  const body = Buffer.concat([head, Buffer.from(`3 0 obj\n<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from('\nendstream\nendobj\n')]);
  return Buffer.concat([body, Buffer.from(`xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n${body.length}\n%%EOF\n`)]);
}

function percentile(sorted: number[], p: number) {
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

export async function runDocumentsBench(argv: string[] = []): Promise<void> {
  const flag = (name: string, fallback: number) => Number(argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
  const clients = flag('clients', 50);
  const durationSeconds = flag('duration', 30);
  const sizeBytes = Math.round(flag('size-mb', 1) * 1024 * 1024);
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

  const name = `pecflow_bench_docs_${Date.now().toString(36)}`;
  await withAdmin(adminUrl, (c) => c.query(`create database ${name}`));
  const url = databaseUrl(adminUrl, name);
  try {
    const database = await openPostgres(url, 4);
    let files: number[];
    try {
      await database.migrate();
      await seed(database, { demo: true, appSecretKey: SECRETS.APP_SECRET_KEY });
      // One file per client, in the organisation its administrator sees whole.
      files = (
        await database.query<{ id: number }>(
          `select d.id from pec_dossiers d join holdings h on h.id = d.holding_id join users u on u.holding_id = h.id
           where u.email = 'direction@audition-horizon.fr' order by d.id limit $1`,
          [clients],
        )
      ).map((r) => r.id);
    } finally {
      await database.close();
    }
    if (files.length < clients) throw new Error(`${files.length} dossiers de démonstration pour ${clients} clients`);

    log('compilation du serveur');
    const outdir = await compileServer(ROOT, 'documents');
    const server = await startServerProcess(['--enable-source-maps', path.join(outdir, 'main.js')], {
      cwd: outdir,
      env: {
        PATH: process.env.PATH,
        ...SECRETS,
        NODE_ENV: 'production',
        DATABASE_URL: url,
        DEMO_SEED: '0',
        DATA_DIR: path.join(outdir, 'data'),
        STATIC_DIR: path.join(outdir, 'no-front-end'),
      },
      timeoutMs: 180_000,
    });
    const pid = server.child.pid!;
    try {
      const login = await fetch(`${server.baseUrl}/api/login_check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'direction@audition-horizon.fr', password: DEMO_PASSWORD }),
      });
      const { token } = (await login.json()) as { token: string };
      const auth = { authorization: `Bearer ${token}` };
      const transfer = async (dossierId: number, content: Buffer) => {
        const form = new FormData();
        form.set('dossier', `/api/pec_dossiers/${dossierId}`);
        form.set('kind', 'other');
        form.set(
          'file',
          new Blob([new Uint8Array(content.buffer as ArrayBuffer, content.byteOffset, content.length)], { type: 'application/pdf' }),
          'bench.pdf',
        );
        const res = await fetch(`${server.baseUrl}/api/pec_documents`, { method: 'POST', headers: auth, body: form });
        return { status: res.status, id: ((await res.json()) as { id?: number }).id };
      };
      const sha256Of = async (id: number) => {
        const res = await fetch(`${server.baseUrl}/api/pec_documents/${id}/content`, { headers: auth });
        const hash = createHash('sha256');
        for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) hash.update(piece);
        return { status: res.status, sha256: hash.digest('hex') };
      };

      const single = pdfOf(SINGLE_TRANSFER_BYTES);
      const singleSha = createHash('sha256').update(single).digest('hex');
      const singleTransfer = async () => {
        const up = await transfer(files[0]!, single);
        const down = up.id ? await sha256Of(up.id) : undefined;
        if (up.status !== 201 || down?.sha256 !== singleSha) throw new Error(`transfert de 10 Mo : ${up.status} ${down?.status}`);
        await fetch(`${server.baseUrl}/api/pec_documents/${up.id}`, { method: 'DELETE', headers: auth });
      };
      await singleTransfer();
      const singleBefore = memoryMb(pid).rssMb;
      let singleHighest = singleBefore;
      const singleSampler = setInterval(() => (singleHighest = Math.max(singleHighest, memoryMb(pid).rssMb)), 20);
      await singleTransfer();
      clearInterval(singleSampler);
      const singleRise = singleHighest - singleBefore;
      log(
        `un document de 10 Mo, envoyé puis relu : RSS du serveur ${singleBefore} → au plus ${singleHighest} Mo (+${singleRise}, cible < ${SINGLE_TRANSFER_TARGET_MB})`,
      );

      const content = pdfOf(sizeBytes);
      const expected = createHash('sha256').update(content).digest('hex');
      const samples: Record<Action, number[]> = { upload: [], download: [], delete: [] };
      const errors: Record<string, number> = {};
      const error = (what: string) => (errors[what] = (errors[what] ?? 0) + 1);

      const rssBefore = memoryMb(pid).rssMb;
      let rssHighest = rssBefore;
      const sampler = setInterval(() => (rssHighest = Math.max(rssHighest, memoryMb(pid).rssMb)), 250);
      const timed = async <T>(action: Action, run: () => Promise<T>) => {
        const started = performance.now();
        const result = await run();
        samples[action].push(performance.now() - started);
        return result;
      };
      const deadline = Date.now() + durationSeconds * 1000;
      log(`${clients} clients, fichiers de ${(sizeBytes / 1024 / 1024).toFixed(1)} Mo, ${durationSeconds} s`);
      await Promise.all(
        files.map(async (dossierId) => {
          while (Date.now() < deadline) {
            const id = await timed('upload', async () => {
              const { status, id } = await transfer(dossierId, content);
              if (status !== 201) error(`upload ${status}`);
              return id;
            });
            if (!id) continue;
            await timed('download', async () => {
              const { status, sha256 } = await sha256Of(id);
              if (status !== 200 || sha256 !== expected) error(`download ${status}`);
            });
            await timed('delete', async () => {
              const res = await fetch(`${server.baseUrl}/api/pec_documents/${id}`, { method: 'DELETE', headers: auth });
              if (res.status !== 204) error(`delete ${res.status}`);
            });
          }
        }),
      );
      clearInterval(sampler);
      const memory = memoryMb(pid);
      const result = {
        measuredAt: new Date().toISOString(),
        command: `npm run bench -- documents ${argv.join(' ')}`.trim(),
        clients,
        singleTransfer: {
          fileBytes: single.length,
          serverRssMb: { before: singleBefore, highest: singleHighest, rise: singleRise },
          targetRiseMb: SINGLE_TRANSFER_TARGET_MB,
          met: singleRise < SINGLE_TRANSFER_TARGET_MB,
        },
        durationSeconds,
        fileBytes: content.length,
        actions: Object.fromEntries(
          ACTIONS.map((action) => {
            const sorted = [...samples[action]].sort((a, b) => a - b);
            return [action, { count: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) }];
          }),
        ),
        errors,
        serverRssMb: { before: rssBefore, highest: rssHighest, after: memory.rssMb, peak: memory.peakRssMb },
      };
      for (const action of ACTIONS) {
        const a = result.actions[action]!;
        log(`${action} : ${a.count} requêtes, p50 ${a.p50Ms} ms, p99 ${a.p99Ms} ms`);
      }
      log(`erreurs : ${JSON.stringify(errors)} ; RSS du serveur ${rssBefore} → ${memory.rssMb} Mo (au plus ${rssHighest} Mo, pic ${memory.peakRssMb} Mo)`);
      mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
      writeFileSync(RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
      log(`résultats écrits dans ${RESULTS_FILE}`);
      if (!result.singleTransfer.met) process.exitCode = 1;
    } finally {
      await stopServerProcess(server.child);
    }
  } finally {
    await withAdmin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
  }
}
