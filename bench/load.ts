// npm run bench -- load [--clients=200] [--duration=60] [--warmup=10] [--files=50000] [--fresh] [--compare=DIR] [--rounds=N]
//   [--cpu-prof=DIR] [--mix=openFile:100]
// The office's load on one machine: `clients` closed-loop clients (each its own signed-in user of the demo organisations
// and its own address) mix the office's actions for `duration` seconds, after `warmup` seconds not counted: list the PEC
// files with filters, open a file, list settings, create a file. On PostgreSQL, with the demo organisations scaled to
// `files` files by SQL (copies of the demo files with their devices and robot executions, built once into the template
// database pecflow_bench_load_tpl, rebuilt with --fresh); each measured server gets a fresh copy of it.
// The server runs as production runs it on one machine: compiled (esbuild, like `npm run build`), `node
// --enable-source-maps main.js`, NODE_ENV=production, PECFLOW_ROLE=all, default LOG_LEVEL and rate limits, behind a
// proxy (TRUST_PROXY=1: each client's X-Forwarded-For is its own address, as the TLS proxy of DEPLOYING.md sets it).
// --compare=DIR measures the server of another checkout (e.g. /work/main) in the same run, on its own copy of the data,
// in rounds (2 by default with --compare, else 1; --rounds=N) whose order alternates: here the server measured second
// got about 10 % less throughput than the same server measured first. An odd N measures the other checkout first once
// more than this one.
// Writes bench/results/load.json: throughput, latency per action, errors by status, server and PostgreSQL CPU per
// request, the server's memory, the machine and its load average before and after.
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';
import { hashPassword } from '../server/auth/passwords';
import { openPostgres } from '../server/db/connect';
import { DEMO_PASSWORD, seed } from '../server/seed';
import type { SeededRoleKey } from '#domain/roles';
import { benchAdminUrl, benchFlags } from './lib/args';
import { loadAverage1m, machineOf } from './lib/machine';
import { databaseUrl, withAdmin } from './lib/harness';
import { cpuMs, startServerProcess, stopServerProcess, type ServerProcess } from './lib/serverProcess';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = path.join(ROOT, 'bench', 'results', 'load.json');
const TEMPLATE = 'pecflow_bench_load_tpl';
const TARGETS = { requestsPerSecond: 550, p99Ms: 800, errors: 0, openFileP99Ms: 300 };
const SECRETS = {
  JWT_SECRET: 'bench-jwt-secret-that-is-long-enough-0123456789',
  APP_SECRET_KEY: 'd'.repeat(64),
  ROBOT_CALLBACK_SECRET: 'bench-robot-callback-secret',
};
/** The office's actions and their share of the requests. */
const MIX = { listFiles: 40, openFile: 35, listSettings: 15, createFile: 10 } as const;
type Action = keyof typeof MIX;
type Mix = Record<Action, number>;
const ACTION_LABELS: Record<Action, string> = {
  listFiles: 'Lister les PEC (filtres)',
  openFile: 'Ouvrir un dossier',
  listSettings: 'Lister des paramètres',
  createFile: 'Créer un dossier',
};

export interface LoadBenchOptions {
  adminUrl: string;
  clients: number;
  durationSeconds: number;
  warmupSeconds: number;
  files: number;
  fresh: boolean;
  compare?: string;
  /** Measurements of each server, in alternating order. */
  rounds: number;
  cpuProfDir?: string;
  mix: Mix;
}

const log = (message: string) => console.log(`[load] ${message}`);
const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

// ---------- data: the demo organisations scaled ----------

interface BenchUser {
  id: number;
  email: string;
  holdingId: number;
  admin: boolean;
  shopIds: number[];
}

/** Copies of every demo file (devices, optical equipment, finished robot executions) up to `files` files in all. */
async function scaleFiles(client: pg.Client, files: number) {
  const columns = async (table: string, except: string[]) =>
    (
      await client.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`,
        [table],
      )
    ).rows
      .map((r) => r.column_name)
      .filter((c) => !except.includes(c));
  const [{ n: demo } = { n: 0 }] = (await client.query<{ n: number }>('select count(*)::int as n from pec_dossiers')).rows;
  const copies = Math.ceil((files - demo) / demo);
  await client.query(`create unlogged table bench_copies as
    select source, copy, nextval(pg_get_serial_sequence('pec_dossiers', 'id'))::int as id
    from (select d.id as source, g as copy from pec_dossiers d cross join generate_series(1, ${copies}) g order by g, d.id limit ${files - demo}) x`);
  await client.query('create index on bench_copies (source, copy)');
  // Older copies: the same files spread over the previous years (three days apart per copy).
  const fileColumns = await columns('pec_dossiers', ['id', 'numero_dossier', 'external_id', 'created_at', 'updated_at']);
  await client.query(`insert into pec_dossiers (id, numero_dossier, external_id, created_at, updated_at, ${fileColumns.join(', ')})
    select c.id, d.numero_dossier || '-C' || c.copy, d.external_id || '-C' || c.copy,
      d.created_at - make_interval(days => c.copy * 3), d.updated_at - make_interval(days => c.copy * 3), ${fileColumns.map((x) => `d.${x}`).join(', ')}
    from bench_copies c join pec_dossiers d on d.id = c.source`);
  for (const table of ['appareils', 'optical_equipments']) {
    const exists = (await client.query(`select to_regclass($1) as t`, [table])).rows[0]?.t;
    if (!exists) continue;
    const cols = await columns(table, ['id', 'dossier_id']);
    await client.query(`insert into ${table} (dossier_id, ${cols.join(', ')}) select c.id, ${cols.map((x) => `t.${x}`).join(', ')}
      from bench_copies c join ${table} t on t.dossier_id = c.source`);
  }
  // Finished runs only: open ones would be timed out by the workers while measuring.
  await client.query(`create unlogged table bench_exec_copies as
    select e.id as source, c.copy, c.id as dossier_id, nextval(pg_get_serial_sequence('workflow_executions', 'id'))::int as id
    from bench_copies c join workflow_executions e on e.dossier_id = c.source where e.completed_at is not null`);
  await client.query('create index on bench_exec_copies (source, copy)');
  const execColumns = await columns('workflow_executions', ['id', 'dossier_id', 'run_id', 'dedupe_key', 'started_at', 'completed_at', 'deadline_at']);
  await client.query(`insert into workflow_executions (id, dossier_id, run_id, dedupe_key, started_at, completed_at, deadline_at, ${execColumns.join(', ')})
    select x.id, x.dossier_id, (select r.id from bench_exec_copies r where r.source = e.run_id and r.copy = x.copy),
      e.dedupe_key || '-C' || x.copy, e.started_at - make_interval(days => x.copy * 3), e.completed_at - make_interval(days => x.copy * 3),
      e.deadline_at - make_interval(days => x.copy * 3), ${execColumns.map((c) => `e.${c}`).join(', ')}
    from bench_exec_copies x join workflow_executions e on e.id = x.source`);
  await client.query('drop table bench_copies, bench_exec_copies');
}

/**
 * Office staff and administrators of the demo organisations, one per client: the demo accounts that may create files,
 * then generated ones (same password), 70 % at Audition Horizon and 30 % at Optique Riviera, one in ten an
 * organisation administrator, the others audioprothésistes or assistants with one or two of their organisation's centres.
 */
async function addStaff(client: pg.Client, count: number) {
  const hash = await hashPassword(DEMO_PASSWORD);
  const holdings = (await client.query<{ id: number; name: string }>(`select id, name from holdings order by id`)).rows;
  const horizon = holdings.find((h) => h.name === 'Audition Horizon')!.id;
  const riviera = holdings.find((h) => h.name === 'Optique Riviera')!.id;
  const role = async (key: SeededRoleKey) => (await client.query<{ id: number }>('select id from roles where seed_key = $1', [key])).rows[0]!.id;
  const roles = {
    admin: await role('organisationAdmin'),
    audio: await role('audioprothesiste'),
    assistant: await role('assistant'),
  };
  for (let i = 1; i <= count; i++) {
    const holdingId = i % 10 < 7 ? horizon : riviera;
    const kind = i % 10 === 0 ? 'admin' : i % 2 ? 'audio' : 'assistant';
    const { rows } = await client.query<{ id: number }>(
      `insert into users (holding_id, email, password_hash, first_name, last_name) values ($1, $2, $3, 'Poste', $4) returning id`,
      [holdingId, `poste-${i}@charge.pecflow.test`, hash, `${kind} ${i}`],
    );
    await client.query('insert into user_roles (user_id, role_id) values ($1, $2)', [rows[0]!.id, roles[kind]]);
    if (kind !== 'admin') {
      await client.query(
        `insert into user_shops (user_id, shop_id) select $1, id from (select id, row_number() over (order by id) as n, count(*) over () as total
           from shops where holding_id = $2) s where n - 1 in ($3 % total, ($3 + 1) % total) and (n - 1 = $3 % total or $3 % 3 = 0)`,
        [rows[0]!.id, holdingId, i],
      );
    }
  }
}

/** The template database: migrations, base and demo data, the files scaled, the staff; VACUUM ANALYZE. */
async function buildTemplate(options: LoadBenchOptions) {
  const exists = await withAdmin(options.adminUrl, async (c) => (await c.query('select 1 from pg_database where datname = $1', [TEMPLATE])).rowCount === 1);
  if (exists && !options.fresh) {
    log(`modèle ${TEMPLATE} réutilisé ; --fresh pour le reconstruire`);
    return;
  }
  const started = Date.now();
  if (exists) await withAdmin(options.adminUrl, (c) => c.query(`drop database ${TEMPLATE} with (force)`));
  await withAdmin(options.adminUrl, (c) => c.query(`create database ${TEMPLATE}`));
  const url = databaseUrl(options.adminUrl, TEMPLATE);
  const database = await openPostgres(url, 4);
  try {
    await database.migrate();
    await seed(database, { demo: true, appSecretKey: SECRETS.APP_SECRET_KEY });
  } finally {
    await database.close();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await scaleFiles(client, options.files);
    await addStaff(client, Math.max(0, options.clients - 4));
    await client.query('vacuum analyze');
    const { rows } = await client.query<{ files: number; users: number }>(
      `select (select count(*)::int from pec_dossiers) as files, (select count(*)::int from users) as users`,
    );
    log(`modèle construit en ${seconds(started)} s : ${rows[0]!.files} dossiers, ${rows[0]!.users} utilisateurs`);
  } finally {
    await client.end();
  }
}

/** The users the clients sign in as: the demo accounts that may create files, then the generated staff. */
async function benchUsers(database: pg.Pool, clients: number): Promise<BenchUser[]> {
  const { rows } = await database.query<{ id: number; email: string; holding_id: number; admin: boolean; shop_ids: number[] | null }>(
    `select u.id, u.email, u.holding_id, exists(select 1 from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id and r.seed_key = $1) as admin,
       (select array_agg(shop_id order by shop_id) from user_shops where user_id = u.id) as shop_ids
     from users u where u.email in ('direction@audition-horizon.fr', 'audio@audition-horizon.fr', 'assistant@audition-horizon.fr', 'direction@optique-riviera.fr')
       or u.email like 'poste-%@charge.pecflow.test'
     order by u.email like 'poste-%', u.id limit $2`,
    ['organisationAdmin' satisfies SeededRoleKey, clients],
  );
  return rows.map((r) => ({ id: r.id, email: r.email, holdingId: r.holding_id, admin: r.admin, shopIds: r.shop_ids ?? [] }));
}

// ---------- the server, as production runs it ----------

/** The server of checkout `root` compiled as `npm run build` does (scripts/build-server.mjs), into a folder of its own. */
export async function compileServer(root: string, label: string): Promise<string> {
  const outdir = path.join(os.tmpdir(), `pecflow-bench-load-${label}`);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  cpSync(path.join(root, 'server/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
  // The bundle imports its dependencies from the checkout's node_modules, as dist-server/ does.
  symlinkSync(path.join(root, 'node_modules'), path.join(outdir, 'node_modules'));
  return outdir;
}

async function startServer(outdir: string, url: string, options: LoadBenchOptions, label: string): Promise<ServerProcess> {
  const profile = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir, label)}`] : [];
  return startServerProcess(['--enable-source-maps', ...profile, path.join(outdir, 'main.js')], {
    cwd: outdir,
    env: {
      PATH: process.env.PATH,
      ...SECRETS,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      DEMO_SEED: '0',
      TRUST_PROXY: '1',
      DATA_DIR: path.join(outdir, 'data'),
      STATIC_DIR: path.join(outdir, 'no-front-end'),
    },
    // The request log goes where production's goes when nobody reads it; errors stay visible.
    timeoutMs: 60_000,
  });
}

// ---------- the clients ----------

interface Answer {
  status: number;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function request(baseUrl: string, method: string, pathAndQuery: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${pathAndQuery}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A small deterministic generator per client (mulberry32), so that each run sends the same sequence. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Client {
  index: number;
  user: BenchUser;
  address: string;
  token: string;
  fileIds: number[];
  patients: string[];
  shopIds: number[];
  settings: string[];
}

/** What each action sends for a client: a method, a path and a body. */
interface Call {
  method: string;
  path: string;
  body?: string;
}

function nextCall(client: Client, action: Action, rand: () => number, mutualIds: number[], counter: number): Call {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  switch (action) {
    case 'listFiles': {
      const today = new Date();
      const daysAgo = (n: number) => new Date(today.getTime() - n * 86_400_000).toISOString().slice(0, 10);
      const filters = [
        '',
        'status=approved',
        'status=pending',
        `search=${encodeURIComponent(pick(client.patients).replace(/\D/g, '').slice(0, 5))}`,
        `shop=${pick(client.shopIds)}`,
        `dateFrom=${daysAgo(120)}&dateTo=${daysAgo(90)}`,
        'sort=-totalTtc',
        'page=2',
      ];
      const filter = pick(filters);
      return { method: 'GET', path: `/api/pec_dossiers${filter ? `?${filter}` : ''}` };
    }
    case 'openFile':
      return { method: 'GET', path: `/api/pec_dossiers/${pick(client.fileIds)}` };
    case 'listSettings':
      return { method: 'GET', path: pick(client.settings) };
    case 'createFile':
      return {
        method: 'POST',
        path: '/api/pec_dossiers',
        body: JSON.stringify({
          shop: `/api/shops/${pick(client.shopIds)}`,
          mutual: `/api/mutuals/${pick(mutualIds)}`,
          numeroDossierAssure: `DP-C${client.index}-${counter}`,
          numeroDevisAssure: `DEV-C${client.index}-${counter}`,
          totalTtc: (900 + Math.floor(rand() * 4000)).toFixed(2),
          commentaire: 'Créé par la mesure de charge',
        }),
      };
  }
}

/** Signs each user in (from its own address), picks the files, centres and settings lists it works with. */
async function prepareClients(baseUrl: string, database: pg.Pool, users: BenchUser[], clients: number): Promise<Client[]> {
  const prepared: Client[] = [];
  let next = 0;
  const settingsFor = (user: BenchUser) =>
    user.admin
      ? ['/api/shops', '/api/users', '/api/companies', '/api/mutuals?pagination=false', '/api/networks?pagination=false']
      : ['/api/shops', '/api/mutuals?pagination=false', '/api/networks?pagination=false', '/api/configs'];
  // A few sign-ins at a time: each costs the server an argon2 verification.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < clients) {
        const index = next++;
        const user = users[index % users.length]!;
        const address = `10.${Math.floor(index / 250) % 250}.${index % 250}.${1 + (index % 200)}`;
        const headers = { 'content-type': 'application/json', 'x-forwarded-for': address };
        const res = await request(baseUrl, 'POST', '/api/login_check', headers, JSON.stringify({ email: user.email, password: DEMO_PASSWORD }));
        if (res.status !== 200) throw new Error(`connexion de ${user.email} impossible : ${res.status} ${res.body.slice(0, 200)}`);
        const token = (JSON.parse(res.body) as { token: string }).token;
        const shopIds = user.admin
          ? (await database.query<{ id: number }>('select id from shops where holding_id = $1 order by id', [user.holdingId])).rows.map((r) => r.id)
          : user.shopIds;
        const { rows } = await database.query<{ id: number; patient: string }>(
          `select id, numero_dossier_assure as patient from pec_dossiers where holding_id = $1 and shop_id = any($2) order by md5(id::text || $3) limit 200`,
          [user.holdingId, shopIds, String(index)],
        );
        prepared[index] = {
          index,
          user,
          address,
          token,
          fileIds: rows.map((r) => r.id),
          patients: rows.map((r) => r.patient),
          shopIds,
          settings: settingsFor(user),
        };
      }
    }),
  );
  return prepared;
}

interface Sample {
  action: Action;
  ms: number;
  status: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0);
const round = (n: number) => Math.round(n * 10) / 10;

function summarise(samples: Sample[], durationSeconds: number) {
  const latency = (list: Sample[]) => {
    const sorted = list.map((s) => s.ms).sort((a, b) => a - b);
    return {
      requests: list.length,
      requestsPerSecond: round(list.length / durationSeconds),
      p50Ms: round(percentile(sorted, 50)),
      p90Ms: round(percentile(sorted, 90)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(sorted[sorted.length - 1] ?? 0),
      errors: list.filter((s) => s.status < 200 || s.status >= 300).length,
    };
  };
  const errorsByStatus: Record<string, number> = {};
  for (const s of samples) if (s.status < 200 || s.status >= 300) errorsByStatus[s.status] = (errorsByStatus[s.status] ?? 0) + 1;
  return {
    all: latency(samples),
    errorsByStatus,
    byAction: Object.fromEntries(
      (Object.keys(MIX) as Action[]).map((a) => [a, { label: ACTION_LABELS[a], ...latency(samples.filter((s) => s.action === a)) }]),
    ),
  };
}

// ---------- CPU and memory ----------

/** CPU time a process has used so far (ms); 0 when it is gone. */
const cpuMsOrZero = (pid: number) => cpuMs(pid) ?? 0;

export function memoryMb(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}

/** The PostgreSQL backends serving the bench database (their CPU is the database's share of each request). */
async function backendPids(admin: pg.Client, name: string): Promise<number[]> {
  return (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name])).rows.map((r) => r.pid);
}

// ---------- one measured server ----------

async function measureServer(label: string, root: string, options: LoadBenchOptions) {
  const name = `pecflow_bench_load_${label}`;
  await withAdmin(options.adminUrl, async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name} template ${TEMPLATE}`);
  });
  const url = databaseUrl(options.adminUrl, name);
  const outdir = await compileServer(root, label);
  const database = new pg.Pool({ connectionString: url, max: 4 });
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  log(`${label} : serveur de ${root} compilé, démarrage (node --enable-source-maps main.js, PostgreSQL ${name})`);
  const { baseUrl, child } = await startServer(outdir, url, options, label);
  try {
    const users = await benchUsers(database, options.clients);
    const clients = await prepareClients(baseUrl, database, users, options.clients);
    const mutualIds = (await database.query<{ id: number }>('select id from mutuals where network_id is not null order by id')).rows.map((r) => r.id);
    log(`${label} : ${clients.length} clients connectés (${new Set(clients.map((c) => c.user.email)).size} utilisateurs)`);

    // Each action once per kind of user: a refusal here is a bench error, not a measurement.
    for (const client of [clients.find((c) => c.user.admin)!, clients.find((c) => !c.user.admin)!]) {
      for (const action of Object.keys(MIX) as Action[]) {
        const calls =
          action === 'listSettings' ? client.settings.map((p): Call => ({ method: 'GET', path: p })) : [nextCall(client, action, Math.random, mutualIds, 0)];
        for (const call of calls) {
          const res = await request(baseUrl, call.method, call.path, headersOf(client), call.body);
          if (res.status >= 300) throw new Error(`${call.method} ${call.path} (${client.user.email}) : ${res.status} ${res.body.slice(0, 300)}`);
        }
      }
    }

    const weights = Object.entries(options.mix) as [Action, number][];
    const total = weights.reduce((s, [, w]) => s + w, 0);
    const samples: Sample[] = [];
    const started = performance.now();
    const measureFrom = started + options.warmupSeconds * 1000;
    const end = measureFrom + options.durationSeconds * 1000;
    let marks: { serverCpu: number; pgCpu: Map<number, number> } | undefined;
    const loadBefore = loadAverage1m();
    const benchCpuBefore = process.cpuUsage();
    const markTimer = setTimeout(
      () =>
        void backendPids(admin, name).then((pids) => {
          marks = { serverCpu: cpuMsOrZero(child.pid!), pgCpu: new Map(pids.map((p) => [p, cpuMsOrZero(p)])) };
        }),
      options.warmupSeconds * 1000,
    );
    await Promise.all(
      clients.map(async (client) => {
        const rand = random(client.index + 1);
        let counter = 0;
        while (performance.now() < end) {
          let roll = rand() * total;
          const action = weights.find(([, w]) => (roll -= w) < 0)![0];
          const call = nextCall(client, action, rand, mutualIds, ++counter);
          const at = performance.now();
          // A connection error counts as status 0.
          const status = await request(baseUrl, call.method, call.path, headersOf(client), call.body).then(
            (res) => res.status,
            () => 0,
          );
          const done = performance.now();
          if (at >= measureFrom && done <= end) samples.push({ action, ms: done - at, status });
        }
      }),
    );
    clearTimeout(markTimer);
    const measuredSeconds = options.durationSeconds;
    const pgPidsAfter = await backendPids(admin, name);
    const serverCpu = cpuMsOrZero(child.pid!) - (marks?.serverCpu ?? 0);
    // The backends of the database at the end (the pools' connections live through the window), less their CPU at its start.
    const pgCpu = pgPidsAfter.reduce((s, p) => s + cpuMsOrZero(p) - (marks?.pgCpu.get(p) ?? 0), 0);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const summary = summarise(samples, measuredSeconds);
    const memory = memoryMb(child.pid!);
    const requests = Math.max(1, summary.all.requests);
    const [{ files } = { files: 0 }] = (await database.query<{ files: number }>('select count(*)::int as files from pec_dossiers')).rows;
    const [{ reads } = { reads: 0 }] = (
      await database.query<{ reads: number }>(`select count(*)::int as reads from audit_logs where action = 'pec_dossier.read'`)
    ).rows;
    return {
      label,
      root,
      ...summary,
      serverCpuMsPerRequest: round(serverCpu / requests),
      postgresCpuMsPerRequest: round(pgCpu / requests),
      loadGeneratorCpuMsPerRequest: round((benchCpu.user + benchCpu.system) / 1000 / (samples.length || 1)),
      serverMemory: memory,
      loadAverage1mBefore: loadBefore,
      loadAverage1mAfter: loadAverage1m(),
      filesAtEnd: files,
      readsAudited: reads,
      users: new Set(clients.map((c) => c.user.email)).size,
      admins: clients.filter((c) => c.user.admin).length,
    };
  } finally {
    await stopServerProcess(child);
    await database.end();
    await admin.end();
    await withAdmin(options.adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
  }
}

function headersOf(client: Client): Record<string, string> {
  return {
    authorization: `Bearer ${client.token}`,
    accept: 'application/ld+json',
    'content-type': 'application/json',
    'x-forwarded-for': client.address,
  };
}

// ---------- the run ----------

export function parseLoadBenchArgs(argv: string[], env = process.env): LoadBenchOptions {
  const { flags } = benchFlags(argv);
  return {
    adminUrl: benchAdminUrl(env),
    clients: Number(flags.get('clients') ?? 200),
    durationSeconds: Number(flags.get('duration') ?? 60),
    warmupSeconds: Number(flags.get('warmup') ?? 10),
    files: Number(flags.get('files') ?? 50_000),
    fresh: flags.has('fresh'),
    compare: flags.get('compare'),
    rounds: parseRounds(flags.get('rounds'), flags.has('compare')),
    cpuProfDir: flags.get('cpu-prof'),
    mix: parseMix(flags.get('mix')),
  };
}

function parseRounds(value: string | undefined, comparing: boolean): number {
  const rounds = Number(value ?? (comparing ? 2 : 1));
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds : « ${value} » (attendu un entier d’au moins 1)`);
  return rounds;
}

/** --mix=openFile:100 (one action alone: its CPU per request) or any shares; the office's mix by default. */
function parseMix(value: string | undefined): Mix {
  if (!value) return { ...MIX };
  const mix: Mix = { listFiles: 0, openFile: 0, listSettings: 0, createFile: 0 };
  for (const part of value.split(',')) {
    const [action, share] = part.split(':');
    if (!Object.hasOwn(mix, action!) || !(Number(share) >= 0))
      throw new Error(`--mix : « ${part} » (attendu action:part, actions ${Object.keys(MIX).join(', ')})`);
    mix[action as Action] = Number(share);
  }
  if (Object.values(mix).every((share) => share === 0)) throw new Error('--mix : au moins une action avec une part positive');
  return mix;
}

type Measurement = Awaited<ReturnType<typeof measureServer>> & { round: number };

function printResult(result: Measurement, rounds: number) {
  const line = (name: string, r: { requests: number; requestsPerSecond: number; p50Ms: number; p90Ms: number; p99Ms: number; errors: number }) =>
    `  ${name.padEnd(28)} ${String(r.requests).padStart(7)} ${String(r.requestsPerSecond).padStart(8)} ${String(r.p50Ms).padStart(8)} ${String(r.p90Ms).padStart(8)} ${String(r.p99Ms).padStart(8)} ${String(r.errors).padStart(7)}`;
  console.log(`\n${result.label} (${result.root})${rounds > 1 ? `, tour ${result.round}` : ''}`);
  console.log(
    `  ${'Action'.padEnd(28)} ${'Requêtes'.padStart(7)} ${'req/s'.padStart(8)} ${'p50'.padStart(8)} ${'p90'.padStart(8)} ${'p99'.padStart(8)} ${'Erreurs'.padStart(7)}`,
  );
  console.log(line('Toutes', result.all));
  for (const r of Object.values(result.byAction)) console.log(line(r.label, r));
  console.log(
    `  CPU par requête : serveur ${result.serverCpuMsPerRequest} ms, PostgreSQL ${result.postgresCpuMsPerRequest} ms, générateur ${result.loadGeneratorCpuMsPerRequest} ms ; mémoire du serveur ${result.serverMemory.rssMb} Mo (pic ${result.serverMemory.peakRssMb} Mo) ; charge ${result.loadAverage1mBefore} → ${result.loadAverage1mAfter}`,
  );
  if (Object.keys(result.errorsByStatus).length) console.log(`  Erreurs par statut : ${JSON.stringify(result.errorsByStatus)}`);
}

export async function runLoadBench(argv: string[] = []): Promise<void> {
  const options = parseLoadBenchArgs(argv);
  const loadBefore = loadAverage1m();
  await buildTemplate(options);
  const servers: [string, string][] = [['branche', ROOT]];
  if (options.compare) servers.unshift(['comparaison', path.resolve(options.compare)]);
  const results: Measurement[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const [label, root] of round % 2 ? servers : [...servers].reverse()) {
      const result = { round, ...(await measureServer(label, root, options)) };
      printResult(result, options.rounds);
      results.push(result);
    }
  }
  if (results.length > 1) {
    console.log('\nRequêtes par seconde et p99 de l’ouverture d’un dossier, tour par tour :');
    for (const [label] of servers) {
      const rounds = results.filter((r) => r.label === label);
      console.log(`  ${label.padEnd(12)} ${rounds.map((r) => `${r.all.requestsPerSecond} req/s, ${r.byAction.openFile.p99Ms} ms`).join(' ; ')}`);
    }
  }
  // Met only when met in every round.
  const mine = results.filter((r) => r.label === 'branche');
  const met = {
    requestsPerSecond: mine.every((r) => r.all.requestsPerSecond >= TARGETS.requestsPerSecond),
    p99Ms: mine.every((r) => r.all.p99Ms <= TARGETS.p99Ms),
    errors: mine.every((r) => r.all.errors === TARGETS.errors),
    openFileP99Ms: mine.every((r) => r.byAction.openFile.p99Ms <= TARGETS.openFileP99Ms),
  };
  console.log(`\nObjectifs (${ROOT}) : ${JSON.stringify(met)}`);
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect();
  const version = (await admin.query<{ version: string }>('select version()')).rows[0]!.version;
  await admin.end();
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        scenario: 'load',
        description: `${options.clients} clients en boucle fermée (chacun son utilisateur et son adresse) mêlent les actions d'un cabinet pendant ${options.durationSeconds} s après ${options.warmupSeconds} s de chauffe ; organisations de démonstration portées à ${options.files} dossiers`,
        measuredAt: new Date().toISOString(),
        command: `npm run bench -- load ${argv.join(' ')}`.trim(),
        server:
          'compilé comme npm run build (esbuild), node --enable-source-maps main.js, NODE_ENV=production, PECFLOW_ROLE=all, LOG_LEVEL par défaut (info, sortie standard ignorée), limites de débit par défaut, TRUST_PROXY=1 (X-Forwarded-For propre à chaque client)',
        mix: Object.fromEntries(Object.entries(options.mix).map(([a, w]) => [ACTION_LABELS[a as Action], `${w} %`])),
        database: version.split(',')[0],
        machine: {
          ...machineOf(loadBefore),
          note: 'Le générateur de charge, le serveur et PostgreSQL partagent la machine.',
        },
        clients: options.clients,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        rounds: options.rounds,
        targets: TARGETS,
        met,
        results,
      },
      null,
      2,
    )}\n`,
  );
  log(`résultats écrits dans ${path.relative(ROOT, RESULTS_FILE)}`);
  agent.destroy();
}

// Run directly: tsx bench/load.ts [options]
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  runLoadBench(process.argv.slice(2)).then(
    () => process.exit(0),
    (error) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    },
  );
}
