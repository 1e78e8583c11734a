// npm run bench -- pec [--files=1000000[,5000000...]] [--duration=10] [--warmup=2] [--connections=16] [--runs=1000] [--fresh] [--drop]
//   [--baseline=/path/to/an/earlier/checkout]
// The PEC list at scale: 1,000,000 files (or each size of --files, e.g. --files=100000,1000000,5000000 to see how the
// times grow with the data) over 50 organisations and 2,000 centres on PostgreSQL, one file in a hundred archived. Fifteen
// scenarios (default page, status filter, several statuses, search, a file's number typed with spaces, a search of several words, date range, sort by amount, sort by centre name, page 50, the archived files, a centre + mutual + unpaid view, the files paid in full, the follow-ups due, a colleague's files), each measured through the API with autocannon
// (p50, p99, requests per second at 16 connections) and next to the same SQL run directly through `pg` in the same run
// (the list and count queries the API runs, captured from the resource layer), with their throughput ratio. Then
// 1,000 DPEC runs through the built-in simulator with no delay: throughput, and a check that each run ended once.
// With --baseline, the server of that checkout is measured too, just before this one, scenario by scenario (before/after
// on the same data and machine load). The DPEC runs are measured once, at the first size (--runs=0 skips them).
// The server runs as in production, in its own process (tsx server/main.ts). Each size has its own bench database
// (pecflow_bench_pec_{files}), kept between runs and rebuilt with --fresh; --drop drops them at the end. Results (every
// size) go to bench/results/pec.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { hashPassword } from '../server/auth/passwords';
import { loadPrincipal } from '../server/auth/principal';
import type { AppContext } from '../server/context';
import type { Database, Db } from '../server/db/connect';
import * as schema from '../server/db/schema';
import { ListCache } from '../server/hydra/listCache';
import { ResourceRegistry } from '../server/hydra/registry';
import { parseListQuery } from '../server/hydra/query';
import { RESOURCES } from '../server/resources';
import type { SeededRoleKey } from '#domain/roles';
import { benchAdminUrl, benchFlags } from './lib/args';
import { openKeptDatabase, withAdmin } from './lib/harness';
import { loadAverage1m, loadWithoutIndexes, machineOf } from './lib/machine';
import { cpuMs, startServerProcess, stopServerProcess, type ServerProcess } from './lib/serverProcess';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = path.join(ROOT, 'bench', 'results', 'pec.json');
const ORGANISATIONS = 50;
const CENTRES_PER_ORGANISATION = 40;
const DEFAULT_FILES = 1_000_000;
// Meets the password policy (domain/passwordPolicy.ts): a weaker one would be asked to change at sign-in.
export const PASSWORD = 'Banc-Essai-2026!';
const TARGET_P99_MS = 50;
const TARGET_RATIO = 0.85;
const SECRETS = {
  JWT_SECRET: 'bench-jwt-secret-that-is-long-enough-0123456789',
  APP_SECRET_KEY: 'c'.repeat(64),
  ROBOT_CALLBACK_SECRET: 'bench-robot-callback-secret',
};

export interface PecBenchOptions {
  adminUrl: string;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  runs: number;
  fresh: boolean;
  drop: boolean;
  /** The data sizes measured, in files, one bench database each. */
  files: number[];
  /** Another checkout of Pecflow (an earlier commit) whose server is measured too, scenario by scenario in the same run. */
  baseline?: string;
}

interface Latency {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  requests: number;
  errors: number;
}

const log = (message: string) => console.log(`[pec] ${message}`);
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

// ---------- data ----------

async function volumes(database: Database) {
  const [row] = await database.query<{ files: number; shops: number; holdings: number }>(
    `select (select count(*)::int from pec_dossiers) as files, (select count(*)::int from shops where name like 'Bench centre %') as shops,
       (select count(*)::int from holdings where name like 'Bench organisation %') as holdings`,
  );
  return row!;
}

/** 50 organisations, 2,000 centres, their users, 5 networks and 30 mutuals, `files` files; then VACUUM ANALYZE. */
async function buildDataset(database: Database, files: number) {
  const sql = (text: string, values?: unknown[]) => database.query(text, values);
  const started = Date.now();
  const hash = await hashPassword(PASSWORD);

  await sql(`insert into networks (name, code, description) select 'Bench réseau ' || g, 'BENCHNET' || g, 'Réseau de benchmark' from generate_series(1, 5) g`);
  await sql(`insert into mutuals (name, code, network_id)
    select 'Bench mutuelle ' || g, 'BENCHMUT' || g, n.ids[1 + g % 5] from generate_series(1, 30) g, (select array_agg(id order by id) ids from networks where code like 'BENCHNET%') n`);
  await sql(
    `insert into holdings (name, registration_number, country) select 'Bench organisation ' || lpad(g::text, 2, '0'), (600000000 + g)::text, 'France' from generate_series(1, ${ORGANISATIONS}) g`,
  );
  await sql(
    `insert into companies (holding_id, name, registration_number, country) select id, replace(name, 'organisation', 'entreprise'), registration_number, 'France' from holdings where name like 'Bench organisation %'`,
  );
  await sql(`
    insert into shops (holding_id, company_id, name, display_name, siret, city, country, finess, rpps, code_client, specialite)
    select c.holding_id, c.id, 'Bench centre ' || c.holding_id || '-' || k, (array['Paris','Lyon','Nantes','Lille','Nice','Rennes','Metz','Dijon'])[1 + k % 8] || ' ' || k,
      (70000000000000 + c.holding_id * 100 + k)::text, (array['Paris','Lyon','Nantes','Lille','Nice','Rennes','Metz','Dijon'])[1 + k % 8], 'France',
      (800000000 + c.holding_id * 100 + k)::text, (20000000000 + c.holding_id * 100 + k)::text, 'BC-' || c.holding_id || '-' || k, 'Audioprothésiste'
    from companies c join holdings h on h.id = c.holding_id and h.name like 'Bench organisation %', generate_series(1, ${CENTRES_PER_ORGANISATION}) k`);

  // One organisation administrator and one audioprothésiste (two centres) per organisation.
  const roles = await sql(`select id, seed_key from roles where seed_key is not null`);
  const roleId = (key: SeededRoleKey) => roles.find((r) => r.seed_key === key)!.id as number;
  await sql(
    `insert into users (holding_id, email, password_hash, first_name, last_name)
     select h.id, 'bench-' || kind || '-' || h.id || '@pecflow.test', $1, 'Bench', kind || ' ' || h.id
     from holdings h, unnest(array['admin','audio']) kind where h.name like 'Bench organisation %'`,
    [hash],
  );
  await sql(
    `insert into user_roles (user_id, role_id) select id, case when email like 'bench-admin-%' then $1::int else $2::int end from users where email like 'bench-%@pecflow.test'`,
    [roleId('organisationAdmin'), roleId('audioprothesiste')],
  );
  await sql(`insert into user_shops (user_id, shop_id)
    select u.id, s.id from users u join shops s on s.holding_id = u.holding_id and s.code_client in ('BC-' || u.holding_id || '-1', 'BC-' || u.holding_id || '-2')
    where u.email like 'bench-audio-%'`);

  // The files: drop the secondary indexes, load in batches, build the indexes again (faster than maintaining them).
  await loadWithoutIndexes(database, async () => {
    const batch = 100_000;
    for (let from = 1; from <= files; from += batch) {
      await sql(
        `insert into pec_dossiers (holding_id, shop_id, network_id, mutual_id, numero_dossier, status, numero_dossier_assure, numero_devis_assure,
           commentaire, total_ttc, created_at, updated_at, date_validation, date_peremption, statut_facturation, date_facturation_effective,
           archived, archived_at, archive_reason, status_changed_at, follow_up_date, owner_id)
         select h.ids[1 + g % ${ORGANISATIONS}], s.ids[(g % ${ORGANISATIONS}) * ${CENTRES_PER_ORGANISATION} + 1 + k % ${CENTRES_PER_ORGANISATION}],
           m.nets[1 + (k * 7) % 30], m.ids[1 + (k * 7) % 30],
           'PEC-B-' || lpad(g::text, 7, '0'), st.status,
           'DP-' || lpad(((g::bigint * 7919) % 9000000 + 1000000)::text, 7, '0'), 'DEV-' || lpad(g::text, 7, '0'),
           case when k % 5 = 0 then 'Renouvellement bilatéral' end,
           round((900 + (k * 37 % 4200) + (k % 97) / 100.0)::numeric, 2), c.at, c.at,
           case when st.status in ('approved', 'billed', 'paid') then c.at + interval '3 days' end,
           case when st.status in ('approved', 'billed', 'paid') then (c.at + interval '93 days')::date end,
           st.status in ('billed', 'paid'),
           case when st.status in ('billed', 'paid') then (c.at + interval '20 days')::date end,
           -- One file in a hundred archived (a duplicate): the default list leaves them out, the archived filter lists them.
           n.k % 100 = 37, case when n.k % 100 = 37 then c.at + interval '1 day' end, case when n.k % 100 = 37 then 'duplicate' end,
           -- Issue 28: the status changed two days after creation; one file in forty has a follow-up date a month later.
           c.at + interval '2 days', case when n.k % 40 = 3 then (c.at + interval '30 days')::date end,
           -- Two files in three followed by the organisation's audioprothésiste, the others by nobody.
           case when n.k % 3 <> 0 then au.ids[1 + g % ${ORGANISATIONS}] end
         -- g picks the organisation (g % 50); k = g / 50 numbers the organisation's files and spreads their attributes.
         from generate_series($1::int, $2::int) g
           cross join lateral (select g / ${ORGANISATIONS} as k) n
           cross join (select array_agg(id order by id) ids from holdings where name like 'Bench organisation %') h
           cross join (select array_agg(id order by holding_id, id) ids from shops where name like 'Bench centre %') s
           cross join (select array_agg(id order by id) ids, array_agg(network_id order by id) nets from mutuals where code like 'BENCHMUT%') m
           cross join (select array_agg(id order by holding_id) ids from users where email like 'bench-audio-%') au
           cross join lateral (select now() - ((n.k % 730) || ' days')::interval - ((n.k * 7919 % 86400) || ' seconds')::interval as at) c
           cross join lateral (select case when (n.k * 3) % 100 < 15 then 'draft' when (n.k * 3) % 100 < 17 then 'processing' when (n.k * 3) % 100 < 27 then 'pending'
             when (n.k * 3) % 100 < 55 then 'approved' when (n.k * 3) % 100 < 63 then 'rejected' when (n.k * 3) % 100 < 88 then 'billed' else 'paid' end as status) st`,
        [from, Math.min(files, from + batch - 1)],
      );
      log(`  ${Math.min(files, from + batch - 1).toLocaleString('fr-FR')} dossiers (${seconds(started)} s)`);
    }
  });
  log(`jeu de données construit en ${seconds(started)} s`);
}

const databaseName = (files: number) => `pecflow_bench_pec_${files}`;

async function prepareDatabase(options: PecBenchOptions, files: number): Promise<{ url: string; database: Database }> {
  const name = databaseName(files);
  const { url, database } = await openKeptDatabase(options.adminUrl, name, { fresh: options.fresh, connections: 20, appSecretKey: SECRETS.APP_SECRET_KEY });
  const current = await volumes(database);
  if (current.files < files || current.shops !== ORGANISATIONS * CENTRES_PER_ORGANISATION) {
    if (current.files > 0) {
      await database.close();
      await withAdmin(options.adminUrl, (c) => c.query(`drop database ${name} with (force)`));
      return prepareDatabase({ ...options, fresh: true }, files);
    }
    await buildDataset(database, files);
  } else {
    log(`base ${name} réutilisée (${current.files.toLocaleString('fr-FR')} dossiers) ; --fresh pour la reconstruire`);
    // A base built before archiving existed (issue 25): one file in a hundred archived, as buildDataset does.
    const [archived] = await database.query<{ any: boolean }>(`select exists (select 1 from pec_dossiers where archived) as any`);
    if (!archived!.any) {
      await database.query(
        `update pec_dossiers set archived = true, archived_at = created_at + interval '1 day', archive_reason = 'duplicate' where id % 100 = 37`,
      );
      await database.query('vacuum analyze pec_dossiers');
    }
  }
  // Files left by an earlier DPEC measurement are removed, so that each run measures the same data.
  await database.query(`delete from pec_dossiers where numero_dossier like 'DPEC-BENCH-%'`);
  await database.query(`delete from notifications where title like '%DPEC-BENCH-%'`);
  return { url, database };
}

// ---------- the server, as in production ----------

export function startServer(url: string, root = ROOT): Promise<ServerProcess> {
  return startServerProcess(['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ...SECRETS,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      DEMO_SEED: '0',
      LOG_LEVEL: 'warn',
      ROBOT_SIM_DELAY_MS: '0',
      // Every client of the bench comes from loopback: limits it never reaches (they are not what it measures).
      RATE_LIMIT_LOGIN_MAX: '1000000',
      RATE_LIMIT_API_MAX: '1000000',
      RATE_LIMIT_CALLBACK_MAX: '1000000',
      DATA_DIR: path.join(os.tmpdir(), 'pecflow-bench-pec'),
      STATIC_DIR: path.join(os.tmpdir(), 'pecflow-bench-pec', 'no-front-end'),
    },
    // A shared machine under load may take minutes to compile the server with tsx.
    timeoutMs: 240_000,
  });
}

export async function login(baseUrl: string, email: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`connexion de ${email} impossible : ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

// ---------- measuring ----------

function autocannonRun(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));
}

async function measureApi(
  baseUrl: string,
  token: string,
  pathAndQuery: string,
  options: PecBenchOptions,
  serverPid?: number,
): Promise<Latency & { totalItems: number; serverCpuMsPerRequest: number | null }> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/ld+json' };
  const check = await fetch(`${baseUrl}${pathAndQuery}`, { headers });
  if (check.status !== 200) throw new Error(`${pathAndQuery} : ${check.status} ${(await check.text()).slice(0, 200)}`);
  const body = (await check.json()) as { totalItems: number };
  const common = { url: `${baseUrl}${pathAndQuery}`, headers, connections: options.connections };
  if (options.warmupSeconds > 0) await autocannonRun({ ...common, duration: options.warmupSeconds });
  const cpuBefore = cpuMs(serverPid);
  const result = await autocannonRun({ ...common, duration: options.durationSeconds });
  const cpuAfter = cpuMs(serverPid);
  return {
    // The server's own CPU per request, whatever the machine's load: what one process can serve at most.
    serverCpuMsPerRequest:
      cpuBefore !== undefined && cpuAfter !== undefined ? Math.round(((cpuAfter - cpuBefore) / Math.max(1, result.requests.total)) * 100) / 100 : null,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    totalItems: body.totalItems,
  };
}

interface CapturedQuery {
  text: string;
  params: unknown[];
}

/** The SQL the API runs for a list request (the page and its count), captured from the resource layer itself. */
async function captureListSql(url: string, database: Database, userId: number, query: ScenarioQuery): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const db = drizzle({ client: pool, schema, logger: { logQuery: (text, params) => captured.push({ text, params }) } }) as unknown as Db;
    // The page and its count go through `database.query`, other statements through Drizzle: all are recorded.
    const recording = Object.create(database) as Database;
    recording.query = ((text: string, params: unknown[] = []) => {
      captured.push({ text, params });
      return database.query(text, params);
    }) as Database['query'];
    const ctx = { db, database: recording, lists: new ListCache(recording) } as AppContext;
    const registry = new ResourceRegistry(RESOURCES, ctx);
    const principal = await loadPrincipal(database, userId);
    if (!principal) throw new Error('compte de benchmark introuvable');
    // The route's own path: the page written by PostgreSQL (listJson), else the rows read for the serializer.
    const repository = registry.get('pec_dossiers');
    const listQuery = parseListQuery(query, { paginated: true, rangeAliasKey: 'createdAt' });
    if (!(await repository.listJson(principal, listQuery))) await repository.list(principal, listQuery);
    return captured;
  } finally {
    await pool.end();
  }
}

/** A scenario's query: a key sent once, or several times (status[]=a&status[]=b). */
type ScenarioQuery = Record<string, string | string[]>;
const queryString = (query: ScenarioQuery) =>
  new URLSearchParams(Object.entries(query).flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => [key, v]))).toString();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The same queries, as the API runs them (rows and count together), from `connections` clients in a loop. */
async function measureSql(url: string, queries: CapturedQuery[], options: PecBenchOptions): Promise<Latency> {
  const pool = new pg.Pool({ connectionString: url, max: options.connections });
  try {
    const runFor = async (ms: number) => {
      const latencies: number[] = [];
      let errors = 0;
      const end = Date.now() + ms;
      await Promise.all(
        Array.from({ length: options.connections }, async () => {
          while (Date.now() < end) {
            const start = performance.now();
            try {
              await Promise.all(queries.map((q) => pool.query(q.text, q.params)));
              latencies.push(performance.now() - start);
            } catch {
              errors++;
            }
          }
        }),
      );
      return { latencies, errors };
    };
    if (options.warmupSeconds > 0) await runFor(options.warmupSeconds * 1000);
    const { latencies, errors } = await runFor(options.durationSeconds * 1000);
    latencies.sort((a, b) => a - b);
    return {
      p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
      p99Ms: Math.round(percentile(latencies, 99) * 10) / 10,
      requestsPerSecond: Math.round(latencies.length / options.durationSeconds),
      requests: latencies.length,
      errors,
    };
  } finally {
    await pool.end();
  }
}

// ---------- DPEC runs ----------

async function dpecRuns(baseUrl: string, database: Database, holdingId: number, email: string, options: PecBenchOptions) {
  const token = await login(baseUrl, email);
  const shop = await database.query<{ id: number; mutual: number }>(
    `select s.id, (select id from mutuals where code = 'BENCHMUT1') as mutual from shops s where s.holding_id = $1 order by s.id limit 1`,
    [holdingId],
  );
  const created = await database.query<{ id: number }>(
    `insert into pec_dossiers (holding_id, shop_id, mutual_id, network_id, numero_dossier, status, numero_dossier_assure, numero_devis_assure)
     select $1, $2, $3, (select network_id from mutuals where id = $3), 'DPEC-BENCH-' || lpad(g::text, 5, '0'), 'draft', 'DPB-' || g, 'DEVB-' || g
     from generate_series(1, $4::int) g returning id`,
    [holdingId, shop[0]!.id, shop[0]!.mutual, options.runs],
  );
  const ids = created.map((r) => r.id);
  const started = Date.now();
  let next = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const res = await fetch(`${baseUrl}/api/robot-frontend/setup-and-create-dpec`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pecDossierId: id }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) refused++;
      }
    }),
  );
  const acceptedSeconds = (Date.now() - started) / 1000;
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const [open] = await database.query<{ n: number }>(
      `select count(*)::int as n from workflow_executions where completed_at is null and dossier_id = any($1)`,
      [ids],
    );
    if (open!.n === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const totalSeconds = (Date.now() - started) / 1000;
  // Each run ended exactly once: one scraping and one dpec step, both completed, one final outcome, one notification each.
  const [check] = await database.query<{ runs: number; ended_once: number; approved: number; open: number; notified_once: number }>(
    `select count(distinct e.run_id)::int as runs,
       (select count(*)::int from (select dossier_id from workflow_executions where dossier_id = any($1) group by dossier_id
          having count(*) filter (where callback_type like 'dpec%' and completed_at is not null) = 1
             and count(*) filter (where callback_type like 'scraping%' and completed_at is not null) = 1
             and count(*) = 2) x) as ended_once,
       (select count(*)::int from pec_dossiers where id = any($1) and status = 'approved') as approved,
       (select count(*)::int from workflow_executions where dossier_id = any($1) and completed_at is null) as open,
       (select count(*)::int from (select dossier_id, user_id from notifications where dossier_id = any($1) group by dossier_id, user_id having count(*) = 1) n) as notified_once
     from workflow_executions e where e.dossier_id = any($1)`,
    [ids],
  );
  const [jobs] = await database.query<{ failed: number }>(
    `select count(*)::int as failed from pgboss.job where name in ('robot-run', 'robot-sim') and state = 'failed'`,
  );
  return {
    runs: ids.length,
    refused,
    acceptedInSeconds: Math.round(acceptedSeconds * 10) / 10,
    seconds: Math.round(totalSeconds * 10) / 10,
    runsPerSecond: Math.round((ids.length / totalSeconds) * 10) / 10,
    endedExactlyOnce: check!.ended_once,
    approved: check!.approved,
    stillOpen: check!.open,
    notifiedOnce: check!.notified_once,
    failedJobs: jobs!.failed,
    allEndedExactlyOnce: check!.ended_once === ids.length && check!.open === 0 && refused === 0,
  };
}

// ---------- the run ----------

export function parsePecBenchArgs(argv: string[], env = process.env): PecBenchOptions {
  const { flags } = benchFlags(argv);
  return {
    adminUrl: benchAdminUrl(env),
    durationSeconds: Number(flags.get('duration') ?? 10),
    warmupSeconds: Number(flags.get('warmup') ?? 2),
    connections: Number(flags.get('connections') ?? 16),
    runs: Number(flags.get('runs') ?? 1000),
    fresh: flags.has('fresh'),
    drop: flags.has('drop'),
    files: (flags.get('files') ?? String(DEFAULT_FILES)).split(',').map((n) => {
      const files = Number(n.replace(/_/g, ''));
      if (!Number.isInteger(files) || files < 1000) throw new Error(`--files : nombre de dossiers invalide (${n})`);
      return files;
    }),
    baseline: flags.has('baseline') ? path.resolve(flags.get('baseline')!) : undefined,
  };
}

export async function runPecBench(argv: string[] = []): Promise<void> {
  const options = parsePecBenchArgs(argv);
  // The machine may be shared: its load while measuring says how far to trust the numbers.
  const loadBefore = loadAverage1m();
  const scales = [];
  let dpec: Awaited<ReturnType<typeof dpecRuns>> | undefined;
  let version = '';
  for (const [index, files] of options.files.entries()) {
    const measured = await measureScale(options, files, index === 0 && options.runs > 0);
    scales.push(measured.scale);
    dpec ??= measured.dpec;
    version = measured.version;
  }
  console.log(`\nCharge de la machine (1 min) : ${loadBefore} avant, ${os.loadavg()[0]!.toFixed(2)} après (${os.cpus().length} cœurs)`);
  for (const scale of scales) printScale(scale, options);
  if (dpec)
    console.log(
      `\nDPEC par le simulateur : ${dpec.runs} appels en ${dpec.seconds} s, ${dpec.runsPerSecond} par seconde ; terminés exactement une fois : ${dpec.endedExactlyOnce}/${dpec.runs}${dpec.allEndedExactlyOnce ? '' : ' (ÉCHEC)'}`,
    );

  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  const sizes = options.files.map((n) => n.toLocaleString('fr-FR')).join(', ');
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        scenario: 'pec',
        description: `Liste des PEC à ${sizes} dossiers (API et même SQL en direct)${dpec ? `, puis ${dpec.runs} DPEC par le simulateur` : ''}`,
        measuredAt: new Date().toISOString(),
        command: `npm run bench -- pec ${argv.filter((a) => a !== 'pec').join(' ')}`.trim(),
        database: version.split(',')[0],
        machine: machineOf(loadBefore),
        baseline: options.baseline ?? null,
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        targets: { p99Ms: TARGET_P99_MS, apiToSqlThroughput: TARGET_RATIO },
        scales,
        dpec: dpec ?? null,
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

type ScaleResult = Awaited<ReturnType<typeof measureScale>>['scale'];

/** The scenarios on the bench database of `files` files (and the DPEC runs when asked). */
async function measureScale(options: PecBenchOptions, files: number, withDpec: boolean) {
  const { url, database } = await prepareDatabase(options, files);
  const [org] = await database.query<{ id: number; admin: number; email: string; audio: string; audioId: number }>(
    `select h.id, u.id as admin, u.email, (select email from users where email = 'bench-audio-' || h.id || '@pecflow.test') as audio,
       (select id from users where email = 'bench-audio-' || h.id || '@pecflow.test') as "audioId"
     from holdings h join users u on u.holding_id = h.id and u.email like 'bench-admin-%' where h.name = 'Bench organisation 01'`,
  );
  const [sample] = await database.query<{ patient: string; numero: string }>(
    `select numero_dossier_assure as patient, numero_dossier as numero from pec_dossiers where holding_id = $1 order by id offset 500 limit 1`,
    [org!.id],
  );
  // A centre of the organisation and the mutual it uses most: the office's "this centre, this insurer" view (issue 28).
  const [busiest] = await database.query<{ shop: number; mutual: number }>(
    `select shop_id as shop, mutual_id as mutual from pec_dossiers where holding_id = $1 group by shop_id, mutual_id order by count(*) desc limit 1`,
    [org!.id],
  );
  // Three words of three fields of one of its files, as an office types them: the centre's town, the mutual's code and
  // four digits of the patient's number.
  const [words] = await database.query<{ city: string; mutual: string; patient: string }>(
    `select s.city, m.code as mutual, p.numero_dossier_assure as patient from pec_dossiers p join shops s on s.id = p.shop_id
       join mutuals m on m.id = p.mutual_id where p.shop_id = $1 and p.mutual_id = $2 order by p.id offset 10 limit 1`,
    [busiest!.shop, busiest!.mutual],
  );
  const [window] = await database.query<{ from: string; to: string }>(
    `select to_char(current_date - 120, 'YYYY-MM-DD') as "from", to_char(current_date - 90, 'YYYY-MM-DD') as "to"`,
  );
  const scenarios: { name: string; query: ScenarioQuery }[] = [
    { name: 'Page par défaut', query: {} },
    { name: 'Filtre sur l’état', query: { status: 'approved' } },
    // Issue 28: several statuses at once, as the list's status filter sends them.
    { name: 'Plusieurs états', query: { 'status[]': ['pending', 'approved', 'rejected'] } },
    // Six digits of a patient number, as people type it.
    { name: 'Recherche', query: { search: sample!.patient.replace(/\D/g, '').slice(1, 7) } },
    // A Pecflow ID typed with spaces for its dashes ("pec b 0025001" for PEC-B-0025001): found folded, as a statement
    // names it (migration 0038; the PEC and invoice numbers are searched the same way).
    { name: 'Recherche d’un numéro autrement écrit', query: { search: sample!.numero.toLowerCase().replace(/-/g, ' ') } },
    // Each word a condition of the trigram index, all of them together ("lyon benchmut12 5021"; before, one text).
    { name: 'Recherche de plusieurs mots', query: { search: `${words!.city} ${words!.mutual} ${words!.patient.replace(/\D/g, '').slice(2, 6)}` } },
    { name: 'Période de création', query: { dateFrom: window!.from, dateTo: window!.to } },
    { name: 'Tri par montant', query: { sort: '-totalTtc' } },
    // The centre's name (a subquery per file of the organisation: no index serves it).
    { name: 'Tri par centre', query: { sort: 'shop' } },
    { name: 'Page 50', query: { page: '50' } },
    // Issue 25: the archived files alone (one in a hundred); every other scenario leaves them out, as the list does.
    { name: 'Demandes archivées', query: { archived: 'true' } },
    // Issue 28: the panel's filters together (centre, mutual, payment state), and the files paid in full.
    { name: 'Centre + mutuelle + non payées', query: { shop: String(busiest!.shop), mutual: String(busiest!.mutual), payment: 'unpaid' } },
    { name: 'Payées', query: { payment: 'paid' } },
    // Issue 28: "À relancer" (pending too long, or a follow-up date that has come).
    { name: 'Relances dues', query: { aRelancer: 'true' } },
    // Issue 28: the files a colleague follows ('Suivi par'), as the panel's filter sends it.
    { name: 'Suivi par un collègue', query: { suiviPar: String(org!.audioId) } },
  ];

  log(`${files.toLocaleString('fr-FR')} dossiers : démarrage du serveur (tsx server/main.ts, PostgreSQL)`);
  const loadBefore = loadAverage1m();
  const { baseUrl, child } = await startServer(url);
  let baseline: Awaited<ReturnType<typeof startServer>> | undefined;
  const results = [];
  let dpec: Awaited<ReturnType<typeof dpecRuns>> | undefined;
  try {
    if (options.baseline) baseline = await startServer(url, options.baseline);
    const token = await login(baseUrl, org!.email);
    for (const scenario of scenarios) {
      const qs = queryString(scenario.query);
      const pathAndQuery = `/api/pec_dossiers${qs ? `?${qs}` : ''}`;
      const queries = await captureListSql(url, database, org!.admin, scenario.query);
      // The earlier server right before this one, on the same data and the same machine load.
      const before = baseline
        ? await measureApi(baseline.baseUrl, await login(baseline.baseUrl, org!.email), pathAndQuery, options, baseline.child.pid)
        : undefined;
      const api = await measureApi(baseUrl, token, pathAndQuery, options, child.pid);
      const direct = await measureSql(url, queries, options);
      const ratio = Math.round((api.requestsPerSecond / Math.max(1, direct.requestsPerSecond)) * 100) / 100;
      const row = {
        scenario: scenario.name,
        path: pathAndQuery,
        totalItems: api.totalItems,
        api,
        sql: direct,
        ratio,
        ...(before ? { baselineApi: before } : {}),
        p99Ok: api.p99Ms < TARGET_P99_MS,
        ratioOk: ratio >= TARGET_RATIO,
        queries: queries.map((q) => q.text),
      };
      results.push(row);
      if (before)
        log(
          `${scenario.name} : avant (${options.baseline}) p50 ${before.p50Ms} ms, p99 ${before.p99Ms} ms, ${before.requestsPerSecond} req/s (${before.serverCpuMsPerRequest} ms CPU)`,
        );
      log(
        `${scenario.name} : API p50 ${api.p50Ms} ms, p99 ${api.p99Ms} ms, ${api.requestsPerSecond} req/s (${api.serverCpuMsPerRequest} ms CPU serveur par requête) — SQL p50 ${direct.p50Ms} ms, p99 ${direct.p99Ms} ms, ${direct.requestsPerSecond} req/s — ratio ${ratio}`,
      );
    }
    if (withDpec) {
      log(`${options.runs} DPEC par le simulateur (sans délai)`);
      dpec = await dpecRuns(baseUrl, database, org!.id, org!.audio, options);
      log(`DPEC : ${dpec.runs} en ${dpec.seconds} s (${dpec.runsPerSecond} /s), terminés exactement une fois : ${dpec.endedExactlyOnce}/${dpec.runs}`);
    }
  } finally {
    await stopServerProcess(child, 15_000);
    if (baseline) await stopServerProcess(baseline.child, 15_000);
  }
  const [{ version } = { version: '' }] = await database.query<{ version: string }>('select version()');
  await database.close();
  return {
    version,
    dpec,
    scale: {
      files,
      database: databaseName(files),
      loadAverage1mBefore: loadBefore,
      loadAverage1mAfter: loadAverage1m(),
      dataset: {
        files,
        organisations: ORGANISATIONS,
        centres: ORGANISATIONS * CENTRES_PER_ORGANISATION,
        filesPerOrganisation: files / ORGANISATIONS,
        measuredAs: "administrateur d'organisation (tous les centres de l'organisation)",
      },
      results,
    },
  };
}

function printScale(scale: ScaleResult, options: PecBenchOptions) {
  const header = [
    'Scénario',
    'Éléments',
    'API p50',
    'API p99',
    'API req/s',
    'CPU/req',
    'SQL p50',
    'SQL p99',
    'SQL req/s',
    'Ratio',
    `p99 < ${TARGET_P99_MS}`,
    `ratio ≥ ${TARGET_RATIO}`,
    ...(options.baseline ? ['Avant p99', 'Avant req/s', 'Avant CPU/req'] : []),
  ];
  const lines = scale.results.map((r) => [
    r.scenario,
    String(r.totalItems),
    String(r.api.p50Ms),
    String(r.api.p99Ms),
    String(r.api.requestsPerSecond),
    String(r.api.serverCpuMsPerRequest ?? '-'),
    String(r.sql.p50Ms),
    String(r.sql.p99Ms),
    String(r.sql.requestsPerSecond),
    r.ratio.toFixed(2),
    r.p99Ok ? 'oui' : 'NON',
    r.ratioOk ? 'oui' : 'NON',
    ...(options.baseline
      ? [String(r.baselineApi?.p99Ms ?? '-'), String(r.baselineApi?.requestsPerSecond ?? '-'), String(r.baselineApi?.serverCpuMsPerRequest ?? '-')]
      : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(
    `\nListe des PEC — ${scale.files.toLocaleString('fr-FR')} dossiers, ${ORGANISATIONS} organisations, ${ORGANISATIONS * CENTRES_PER_ORGANISATION} centres, ${options.connections} connexions (ms, req/s) — charge ${scale.loadAverage1mBefore} avant, ${scale.loadAverage1mAfter} après`,
  );
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
}

// Run directly: tsx bench/pec.ts [options]
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  runPecBench(process.argv.slice(2)).then(
    () => process.exit(0),
    (error) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    },
  );
}
