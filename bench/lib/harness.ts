// The bench harness: a fresh PostgreSQL database (created, migrated, dropped afterwards), the real server (buildApp)
// on it, autocannon at a fixed number of connections, a results table and JSON file.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp, type App } from '../../server/app';
import { hashPassword } from '../../server/auth/passwords';
import { loadConfig } from '../../server/config';
import { openPostgres, type Database } from '../../server/db/connect';
import { seed } from '../../server/seed';
import { TWO_FACTOR_REQUIRED_KEY } from '#domain/settings';
import { SecretBox } from '../../server/crypto';
import type { Endpoint, Measurement, Scenario, SeedContext } from './types';

export const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');
const APP_SECRET_KEY = 'b'.repeat(64);

export interface BenchOptions {
  /** Server where the bench database is created (its user must be allowed to CREATE DATABASE). */
  adminUrl: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Keep the database afterwards (to inspect plans); dropped by default. */
  keep: boolean;
  /** SQL file run after the seeds (to measure an index before it reaches the schema). */
  extraSql?: string;
  /** Suffix of the results file: bench/results/{scenario}.{tag}.json. */
  tag?: string;
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` with a client connected to the admin database (create and drop databases). */
export async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A bench database kept between runs (`name`, on the server of `adminUrl`): created when missing, dropped and created
 * again with `fresh`; migrated and seeded (roles, settings). Its bench then checks whether it holds its data already.
 */
export async function openKeptDatabase(adminUrl: string, name: string, options: { fresh: boolean; connections: number; appSecretKey: string }) {
  const url = databaseUrl(adminUrl, name);
  const exists = await withAdmin(adminUrl, async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
  if (exists && options.fresh) await withAdmin(adminUrl, (c) => c.query(`drop database ${name} with (force)`));
  if (!exists || options.fresh) await withAdmin(adminUrl, (c) => c.query(`create database ${name}`));
  const database = await openPostgres(url, options.connections);
  await database.migrate();
  await seed(database, { demo: false, appSecretKey: options.appSecretKey });
  return { url, database };
}

/** A fresh database with the migrations and the base data (roles, settings), and its seed context. */
export async function createBenchDatabase(options: BenchOptions) {
  const name = `pecflow_bench_${Date.now().toString(36)}`;
  await withAdmin(options.adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(options.adminUrl, name);
  const database = await openPostgres(url, 20);
  await database.migrate();
  await seed(database, { demo: false, appSecretKey: APP_SECRET_KEY });
  // The benchmarks sign in by script: no second factor for their administrators (an installation's default asks one).
  await database.query('update configs set value = $1 where key = $2', [JSON.stringify('none'), TWO_FACTOR_REQUIRED_KEY]);
  const box = new SecretBox(APP_SECRET_KEY);
  const hashes = new Map<string, string>();
  const ctx: SeedContext = {
    database,
    sql: (text, values) => database.query(text, values),
    encrypt: (plaintext) => box.encrypt(plaintext),
    async passwordHash(password) {
      if (!hashes.has(password)) hashes.set(password, await hashPassword(password));
      return hashes.get(password)!;
    },
    accounts: new Map(),
  };
  return {
    name,
    url,
    database,
    ctx,
    async drop() {
      await database.close().catch(() => undefined);
      if (options.keep) {
        console.log(`Base conservée : ${url}`);
        return;
      }
      await withAdmin(options.adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** The real server on a loopback port, quiet, without background workers. */
export async function startServer(database: Database, url: string): Promise<{ app: App; baseUrl: string }> {
  const config = {
    ...loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'bench-jwt-secret-that-is-long-enough-0123456789',
      APP_SECRET_KEY,
      ROBOT_CALLBACK_SECRET: 'bench-robot-callback-secret',
      DATA_DIR: path.join(os.tmpdir(), 'pecflow-bench'),
      STATIC_DIR: path.join(os.tmpdir(), 'pecflow-bench', 'no-front-end'),
    }),
    port: 0,
    host: '127.0.0.1',
    startWorkers: false,
    // Every client of the bench comes from loopback: limits it never reaches (they are not what it measures).
    rateLimits: { windowSeconds: 60, login: 1_000_000, api: 1_000_000, callbacks: 1_000_000 },
  };
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

export async function signIn(baseUrl: string, ctx: SeedContext) {
  for (const [name, account] of ctx.accounts) {
    const res = await fetch(`${baseUrl}/api/login_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    if (res.status !== 200) throw new Error(`Connexion impossible pour ${name} (${account.email}) : ${res.status}`);
    account.token = ((await res.json()) as { token: string }).token;
  }
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** One endpoint: a check call (must answer 2xx), a warm-up, then the measured run. */
export async function measure(baseUrl: string, ctx: SeedContext, endpoint: Endpoint, options: BenchOptions): Promise<Measurement> {
  const token = ctx.accounts.get(endpoint.as)?.token;
  if (!token) throw new Error(`Compte inconnu pour ${endpoint.label} : ${endpoint.as}`);
  const method = endpoint.method ?? 'GET';
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/ld+json', ...endpoint.headers };
  const body = endpoint.body === undefined ? undefined : JSON.stringify(endpoint.body);
  if (body) headers['content-type'] = 'application/json';

  const check = await fetch(`${baseUrl}${endpoint.path}`, { method, headers, body });
  const text = await check.text();
  if (check.status >= 300) throw new Error(`${endpoint.label} en tant que ${endpoint.as} : ${check.status} ${text.slice(0, 200)}`);
  const json = text ? (JSON.parse(text) as { member?: unknown[]; totalItems?: number }) : {};

  // The load generator runs in a worker thread: on the server's event loop it would slow the server it measures.
  const common = { url: `${baseUrl}${endpoint.path}`, method, headers, body, connections: options.connections, workers: 1 };
  if (options.warmupSeconds > 0) await run({ ...common, duration: options.warmupSeconds });
  const result = await run({ ...common, duration: options.durationSeconds });
  return {
    endpoint: endpoint.label,
    as: endpoint.as,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    items: json.member?.length ?? 0,
    totalItems: json.totalItems ?? null,
    ...(endpoint.targetP99Ms ? { targetP99Ms: endpoint.targetP99Ms } : {}),
  };
}

export function printTable(title: string, rows: Measurement[], targetP99Ms: number) {
  const header = ['Endpoint', 'Compte', 'Éléments', 'p50 (ms)', 'p99 (ms)', 'req/s', 'Erreurs', `p99 < cible (${targetP99Ms} ms sauf mention)`];
  const lines = rows.map((r) => [
    r.endpoint,
    r.as,
    r.totalItems === null ? String(r.items) : `${r.items}/${r.totalItems}`,
    String(r.p50Ms),
    String(r.p99Ms),
    String(r.requestsPerSecond),
    String(r.errors),
    `${r.p99Ms < (r.targetP99Ms ?? targetP99Ms) ? 'oui' : 'NON'}${r.targetP99Ms ? ` (${r.targetP99Ms} ms)` : ''}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
}

export function writeResults(scenario: Scenario, payload: Record<string, unknown>, tag?: string) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, tag ? `${scenario.name}.${tag}.json` : `${scenario.name}.json`);
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  return file;
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'inconnu',
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    // The machine may be shared: its load while measuring says how far to trust the numbers.
    loadAverage1m: Number(os.loadavg()[0]!.toFixed(2)),
  };
}
