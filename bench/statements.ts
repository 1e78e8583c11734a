// npm run bench -- statements [--files=100000[,1000000...]] [--lines=200] [--runs=10] [--previews=20] [--fresh] [--drop]
//   [--baseline=/path/to/an/earlier/checkout]
// The import of a payment statement (relevé) at scale: one organisation holding `files` files (seven in ten billed),
// a statement of `lines` lines naming billed files by PEC number, invoice number and Pecflow ID in turn (one line in
// twenty a reference no file has), sent as the office sends it (text/csv) to the preview
// (POST /api/payment_statements/preview: read, matched, nothing written) and to the import (POST /api/payment_statements:
// matched again under lock, applied, each file's payment recorded). The preview is measured `previews` times on one
// statement, the import `runs` times, each time a new statement naming files no statement paid yet; p50 and p99 of
// each, as the client waits for the answer. With --baseline, the server of that checkout is measured too, request by
// request right before this one (before/after on the same data and machine load). Beside them, the plan PostgreSQL runs
// for the files a statement names, written both ways (by `upper(...)`, as before migration 0037, and by `pecflow_fold`
// on its indexes). Each size has its own bench database (pecflow_bench_statements_{files}), kept between runs and rebuilt
// with --fresh; --drop drops them at the end. Results (every size) go to bench/results/statements.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '../server/auth/passwords';
import type { Database } from '../server/db/connect';
import type { SeededRoleKey } from '#domain/roles';
import { foldForKey } from '#domain/payments';
import { todayInFrance } from '#domain/pec';
import { benchAdminUrl, benchFlags } from './lib/args';
import { openKeptDatabase, withAdmin } from './lib/harness';
import { stopServerProcess, type ServerProcess } from './lib/serverProcess';
import { login, PASSWORD, startServer } from './pec';
import { loadAverage1m, loadWithoutIndexes, machineOf } from './lib/machine';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = path.join(ROOT, 'bench', 'results', 'statements.json');
const ORGANISATION = 'Bench relevés';
const EMAIL = 'bench-releves@pecflow.test';
const CENTRES = 20;
const APP_SECRET_KEY = 'c'.repeat(64);
const HEADER = 'Date de paiement;Payeur;Référence;Montant;Libellé';

interface Options {
  adminUrl: string;
  files: number[];
  lines: number;
  runs: number;
  previews: number;
  fresh: boolean;
  drop: boolean;
  baseline?: string;
}

const log = (message: string) => console.log(`[statements] ${message}`);
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

function parseArgs(argv: string[]): Options {
  const { flags } = benchFlags(argv);
  const count = (name: string, fallback: number) => {
    const value = Number((flags.get(name) ?? String(fallback)).replace(/_/g, ''));
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} : nombre invalide (${flags.get(name)})`);
    return value;
  };
  return {
    adminUrl: benchAdminUrl(),
    files: (flags.get('files') ?? '100000').split(',').map((n) => {
      const files = Number(n.replace(/_/g, ''));
      if (!Number.isInteger(files) || files < 10_000) throw new Error(`--files : nombre de dossiers invalide (${n})`);
      return files;
    }),
    lines: count('lines', 200),
    runs: count('runs', 10),
    previews: count('previews', 20),
    fresh: flags.has('fresh'),
    drop: flags.has('drop'),
    baseline: flags.has('baseline') ? path.resolve(flags.get('baseline')!) : undefined,
  };
}

// ---------- data ----------

/** The organisation, its centres and its administrator (who records payments), and `files` files; then VACUUM ANALYZE. */
async function buildDataset(database: Database, files: number) {
  const sql = <T = Record<string, unknown>>(text: string, values?: unknown[]) => database.query<T>(text, values);
  const started = Date.now();
  const [holding] = await sql<{ id: number }>(`insert into holdings (name, registration_number, country) values ($1, '699999999', 'France') returning id`, [
    ORGANISATION,
  ]);
  const [company] = await sql<{ id: number }>(
    `insert into companies (holding_id, name, registration_number, country) values ($1, 'Bench relevés entreprise', '699999999', 'France') returning id`,
    [holding!.id],
  );
  await sql(
    `insert into shops (holding_id, company_id, name, display_name, siret, city, country, finess, rpps, code_client, specialite)
     select $1, $2, 'Bench relevés centre ' || k, 'Centre ' || k, (71000000000000 + k)::text, 'Paris', 'France', (810000000 + k)::text,
       (21000000000 + k)::text, 'BR-' || k, 'Audioprothésiste'
     from generate_series(1, ${CENTRES}) k`,
    [holding!.id, company!.id],
  );
  const [user] = await sql<{ id: number }>(
    `insert into users (holding_id, email, password_hash, first_name, last_name) values ($1, $2, $3, 'Bench', 'Relevés') returning id`,
    [holding!.id, EMAIL, await hashPassword(PASSWORD)],
  );
  await sql(`insert into user_roles (user_id, role_id) select $1, id from roles where seed_key = $2`, [user!.id, 'organisationAdmin' satisfies SeededRoleKey]);

  // The files: the secondary indexes dropped, loaded in batches, built again (faster than maintaining them).
  await loadWithoutIndexes(database, async () => {
    const batch = 100_000;
    for (let from = 1; from <= files; from += batch) {
      // Seven files in ten billed (an invoice number, billed on 15/01/2026, owing 100 to 499 €), the others approved; every
      // file has its PEC number and its Pecflow ID.
      await sql(
        `insert into pec_dossiers (holding_id, shop_id, numero_dossier, status, num_pec, num_billing, part_complementaire, total_ttc,
           statut_facturation, date_facturation_effective, date_validation, created_at, updated_at, status_changed_at)
         select $1, s.ids[1 + g % ${CENTRES}], 'PEC-S-' || lpad(g::text, 7, '0'), st.status, 'SANTECLAIR-' || (900000000 + g),
           case when st.billed then 'FAC-S-' || lpad(g::text, 7, '0') end, 100 + g % 400, 1500 + g % 900, st.billed,
           case when st.billed then date '2026-01-15' end, c.at + interval '3 days', c.at, c.at, c.at + interval '3 days'
         from generate_series($2::int, $3::int) g
           cross join (select array_agg(id order by id) ids from shops where holding_id = $1) s
           cross join lateral (select g % 10 < 7 as billed, case when g % 10 < 7 then 'billed' else 'approved' end as status) st
           cross join lateral (select timestamptz '2025-12-01' - ((g % 700) || ' days')::interval as at) c`,
        [holding!.id, from, Math.min(files, from + batch - 1)],
      );
      log(`  ${Math.min(files, from + batch - 1).toLocaleString('fr-FR')} dossiers (${seconds(started)} s)`);
    }
  });
  log(`jeu de données construit en ${seconds(started)} s`);
}

const databaseName = (files: number) => `pecflow_bench_statements_${files}`;

async function prepareDatabase(options: Options, files: number): Promise<{ url: string; database: Database; holdingId: number }> {
  const name = databaseName(files);
  const { url, database } = await openKeptDatabase(options.adminUrl, name, { fresh: options.fresh, connections: 4, appSecretKey: APP_SECRET_KEY });
  const holdingOf = async () => (await database.query<{ id: number }>('select id from holdings where name = $1', [ORGANISATION]))[0]?.id;
  let holdingId = await holdingOf();
  const [current] = holdingId
    ? await database.query<{ n: number }>('select count(*)::int as n from pec_dossiers where holding_id = $1', [holdingId])
    : [{ n: 0 }];
  if (holdingId && current!.n === files) log(`base ${name} réutilisée (${files.toLocaleString('fr-FR')} dossiers) ; --fresh pour la reconstruire`);
  else {
    if (holdingId) {
      await database.close();
      await withAdmin(options.adminUrl, (c) => c.query(`drop database ${name} with (force)`));
      return prepareDatabase({ ...options, fresh: true }, files);
    }
    await buildDataset(database, files);
    holdingId = await holdingOf();
  }
  return { url, database, holdingId: holdingId! };
}

// ---------- statements ----------

interface NamedFile {
  id: number;
  numeroDossier: string;
  numPec: string;
  numBilling: string;
  owed: number;
}

const frenchDay = (iso: string) => iso.split('-').reverse().join('/');

/** Billed files no statement paid yet, after `afterId` (or the last ones: `last`). */
async function unpaidFiles(database: Database, holdingId: number, count: number, from: { afterId?: number; last?: boolean }) {
  return database.query<NamedFile>(
    `select id, numero_dossier as "numeroDossier", num_pec as "numPec", num_billing as "numBilling", part_complementaire::float8 as owed
     from pec_dossiers where holding_id = $1 and status = 'billed' and montant_paye is null and id > $2
     order by id ${from.last ? 'desc' : 'asc'} limit $3`,
    [holdingId, from.afterId ?? 0, count],
  );
}

/**
 * A statement paying each file what it owes, named in turn by its PEC number (in lower case), invoice number and Pecflow
 * ID, as stored otherwise (both servers find them: the same work before and after); one line in twenty names no file.
 */
function statementOf(files: NamedFile[], tag: string): string {
  const day = frenchDay(todayInFrance());
  const rows = files.map((file, i) => {
    const reference = i % 20 === 19 ? `INCONNU-${tag}-${i}` : [file.numPec.toLowerCase(), file.numBilling, file.numeroDossier][i % 3];
    return `${day};Santéclair;${reference};${file.owed.toFixed(2).replace('.', ',')};Virement ${tag}`;
  });
  return [HEADER, ...rows].join('\r\n');
}

/** Sends a statement; the time until its answer is read whole (ms). */
async function send(baseUrl: string, token: string, route: 'preview' | 'apply', body: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/payment_statements${route === 'preview' ? '/preview' : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/ld+json', 'content-type': 'text/csv' },
    body,
  });
  const text = await res.text();
  const elapsed = performance.now() - started;
  if (res.status !== (route === 'preview' ? 200 : 201)) throw new Error(`${route} : ${res.status} ${text.slice(0, 300)}`);
  return elapsed;
}

function percentile(sorted: number[], p: number) {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: percentile(sorted, 100) };
};

/** The plan of the read of the files a statement names, written as before migration 0037 and as now. */
async function plans(database: Database, holdingId: number, references: string[]) {
  const explain = async (fold: string, values: string[]) => {
    const rows = await database.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) select id from pec_dossiers
       where holding_id = $1 and (${fold}(num_pec) = any($2::text[]) or ${fold}(num_billing) = any($2::text[]) or ${fold}(numero_dossier) = any($2::text[]))`,
      [holdingId, values],
    );
    const lines = rows.map((r) => r['QUERY PLAN']);
    return {
      scans: lines.filter((l) => /Scan/.test(l)).map((l) => l.trim().replace(/\s+\(cost.*$/, '')),
      executionMs: Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? NaN),
    };
  };
  return {
    before: await explain('upper', [...new Set(references.map((r) => r.trim().toUpperCase()))]),
    after: await explain('pecflow_fold', [...new Set(references.map(foldForKey))]),
  };
}

// ---------- the run ----------

async function measureScale(options: Options, files: number) {
  const { url, database, holdingId } = await prepareDatabase(options, files);
  const loadBefore = loadAverage1m();
  log(`${files.toLocaleString('fr-FR')} dossiers : démarrage du serveur${options.baseline ? ` et de celui de ${options.baseline}` : ''}`);
  const servers: { name: 'baseline' | 'current'; server: ServerProcess; token: string }[] = [];
  try {
    // The earlier server first, each request of it right before the same one of this checkout.
    if (options.baseline) {
      const server = await startServer(url, options.baseline);
      servers.push({ name: 'baseline', server, token: await login(server.baseUrl, EMAIL) });
    }
    const server = await startServer(url);
    servers.push({ name: 'current', server, token: await login(server.baseUrl, EMAIL) });

    const samples = { preview: new Map<string, number[]>(), apply: new Map<string, number[]>() };
    for (const s of servers) {
      samples.preview.set(s.name, []);
      samples.apply.set(s.name, []);
    }
    const previewFiles = await unpaidFiles(database, holdingId, options.lines, { last: true });
    const previewed = statementOf(previewFiles, 'apercu');
    // One request each before measuring: the first loads what the route needs.
    for (const s of servers) await send(s.server.baseUrl, s.token, 'preview', previewed);
    for (let run = 0; run < options.previews; run++) {
      for (const s of servers) samples.preview.get(s.name)!.push(await send(s.server.baseUrl, s.token, 'preview', previewed));
    }
    log(`aperçu de ${options.lines} lignes mesuré ${options.previews} fois`);
    let afterId = 0;
    for (let run = 0; run < options.runs; run++) {
      for (const s of servers) {
        const named = await unpaidFiles(database, holdingId, options.lines, { afterId });
        if (named.length < options.lines) throw new Error('plus assez de dossiers facturés non payés : --fresh pour reconstruire la base');
        afterId = named.at(-1)!.id;
        samples.apply.get(s.name)!.push(await send(s.server.baseUrl, s.token, 'apply', statementOf(named, `${s.name}-${Date.now()}-${run}`)));
      }
    }
    log(`import de ${options.lines} lignes mesuré ${options.runs} fois`);
    const plan = await plans(
      database,
      holdingId,
      previewed
        .split('\r\n')
        .slice(1)
        .map((row) => row.split(';')[2]!),
    );
    const [{ version } = { version: '' }] = await database.query<{ version: string }>('select version()');
    const result = (name: 'baseline' | 'current') =>
      servers.some((s) => s.name === name) ? { preview: summary(samples.preview.get(name)!), apply: summary(samples.apply.get(name)!) } : null;
    return {
      version,
      scale: {
        files,
        database: databaseName(files),
        organisationFiles: files,
        billedFiles: Math.round(files * 0.7),
        lines: options.lines,
        loadAverage1mBefore: loadBefore,
        loadAverage1mAfter: loadAverage1m(),
        current: result('current')!,
        baseline: result('baseline'),
        filesQueryPlan: plan,
      },
    };
  } finally {
    for (const s of servers) await stopServerProcess(s.server.child, 15_000);
    await database.close();
  }
}

export async function runStatementsBench(argv: string[] = []): Promise<void> {
  const options = parseArgs(argv);
  const loadBefore = loadAverage1m();
  const scales = [];
  let version = '';
  for (const files of options.files) {
    const measured = await measureScale(options, files);
    scales.push(measured.scale);
    version = measured.version;
  }
  console.log(
    `\nImport d'un relevé de ${options.lines} lignes (ms, attente du client) — charge ${loadBefore} avant, ${loadAverage1m()} après (${os.cpus().length} cœurs)`,
  );
  const cell = (value: { p50Ms: number; p99Ms: number } | undefined) => (value ? `${value.p50Ms} / ${value.p99Ms}` : '-');
  for (const scale of scales) {
    console.log(
      `${scale.files.toLocaleString('fr-FR')} dossiers : aperçu p50/p99 ${cell(scale.current.preview)}${scale.baseline ? ` (avant ${cell(scale.baseline.preview)})` : ''} ; import ${cell(scale.current.apply)}${scale.baseline ? ` (avant ${cell(scale.baseline.apply)})` : ''} ; lecture des dossiers nommés ${scale.filesQueryPlan.after.executionMs} ms (avant ${scale.filesQueryPlan.before.executionMs} ms)`,
    );
  }
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        scenario: 'statements',
        description: `Relevé de paiement de ${options.lines} lignes : aperçu et import, dans une organisation de ${options.files.map((n) => n.toLocaleString('fr-FR')).join(', ')} dossiers`,
        measuredAt: new Date().toISOString(),
        command: `npm run bench -- statements ${argv.filter((a) => a !== 'statements').join(' ')}`.trim(),
        database: version.split(',')[0],
        machine: machineOf(loadBefore),
        baseline: options.baseline ?? null,
        previews: options.previews,
        runs: options.runs,
        scales,
      },
      null,
      2,
    )}\n`,
  );
  log(`résultats écrits dans ${path.relative(ROOT, RESULTS_FILE)}`);
  if (options.drop) {
    for (const files of options.files) await withAdmin(options.adminUrl, (c) => c.query(`drop database if exists ${databaseName(files)} with (force)`));
  }
}
