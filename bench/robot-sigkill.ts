// Outside probe: DPEC runs through the built-in simulator while the server is killed with SIGKILL and started again.
//   npx tsx bench/robot-sigkill.ts [--runs=300] [--kills=3] [--delay=100] [--keep]
// Creates a fresh PostgreSQL database (BENCH_DATABASE_URL or DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
// with the demo data, runs the real server (server/main.ts) as a child process, starts the runs, kills the server
// (SIGKILL: no shutdown hook runs) while starts and callbacks are under way, starts it again, waits for every run to end
// and counts, from the database, the runs that ended zero times (lost) or more than once (doubled), the results
// recorded outside their run, and the notifications sent twice. Exit code 1 when any run is lost or doubled.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchAdminUrl, benchFlags } from './lib/args';
import { databaseUrl, withAdmin } from './lib/harness';

const args = benchFlags(process.argv.slice(2)).flags;
const RUNS = Number(args.get('runs') ?? 300);
const KILLS = Number(args.get('kills') ?? 3);
const DELAY_MS = Number(args.get('delay') ?? 100);
const adminUrl = benchAdminUrl();
const OUTCOMES = ['', '-REFUS', '-ATTENTE', '-ERRDPEC', '-ERRSCRAP'];
const PASSWORD = 'Pecflow2026!';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const name = `pecflow_sigkill_${Date.now().toString(36)}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'pecflow-sigkill-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;

function startServer() {
  // One process (node with tsx's loader, not the tsx CLI, which would run the server in a child SIGKILL does not reach).
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl(adminUrl, name),
      DEMO_SEED: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-front-end'),
      JWT_SECRET: 'sigkill-probe-jwt-secret-0123456789abcdef',
      APP_SECRET_KEY: 'c'.repeat(64),
      ROBOT_CALLBACK_SECRET: 'sigkill-probe-callback-secret',
      ROBOT_SIM_DELAY_MS: String(DELAY_MS),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitReady(timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error('le serveur ne répond pas');
}

async function kill() {
  const child = server!;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function call(method: string, urlPath: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${base}${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as ReturnType<typeof JSON.parse> };
}

/** Retries a call while the server is down (connection refused) or not ready yet (503). */
let httpAttempts = 0;
async function resilient<T>(fn: () => Promise<T & { status: number }>): Promise<T & { status: number }> {
  for (;;) {
    httpAttempts++;
    try {
      const res = await fn();
      if (res.status !== 503) return res;
    } catch {
      // the server was killed: wait for it to come back
    }
    await sleep(200);
  }
}

async function main() {
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const db = new pg.Pool({ connectionString: databaseUrl(adminUrl, name), max: 4 });
  const begin = Date.now();
  try {
    startServer();
    await waitReady();
    const login = async () =>
      (await resilient(() => call('POST', '/api/login_check', undefined, { email: 'audio@audition-horizon.fr', password: PASSWORD }))).body.token as string;
    let token = await login();
    const [shop] = (await db.query(`select id from shops where name = 'Horizon Paris Bastille'`)).rows;
    const [mutual] = (await db.query(`select id from mutuals where name = 'Allianz'`)).rows;

    const files: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const res = await resilient(() =>
        call('POST', '/api/pec_dossiers', token, {
          shop: `/api/shops/${shop.id}`,
          mutual: `/api/mutuals/${mutual.id}`,
          numeroDossierAssure: `K${begin.toString(36).toUpperCase()}${i}${OUTCOMES[i % OUTCOMES.length]}`,
          numeroDevisAssure: `DEV-K${i}`,
        }),
      );
      if (res.status !== 201) throw new Error(`création du dossier ${i} : HTTP ${res.status} ${JSON.stringify(res.body)}`);
      files.push(res.body.originId ?? Number(String(res.body['@id']).split('/').pop()));
    }
    console.log(`${files.length} dossiers créés`);

    const openRuns = async () =>
      Number((await db.query('select count(*)::int as n from workflow_executions where completed_at is null and dossier_id = any($1)', [files])).rows[0].n);

    // The kills: spread over the starts (KILLS - 1 of them) and one once every run is launched, each with runs in flight.
    let kills = 0;
    const inFlightAtKills: number[] = [];
    const killAndRestart = async (when: string) => {
      const inFlight = await openRuns();
      await kill();
      kills++;
      inFlightAtKills.push(inFlight);
      console.log(`SIGKILL n° ${kills} (${when}, ${inFlight} runs en cours) ; redémarrage`);
      await sleep(300);
      startServer();
      await waitReady();
    };

    let startAttempts = 0;
    let started = 0;
    let next = 0;
    const launch = async () => {
      while (next < files.length) {
        const id = files[next++]!;
        for (;;) {
          // A start whose answer was lost may have been recorded: launch only a file that has no run yet.
          const has = (await db.query('select 1 from workflow_executions where dossier_id = $1 limit 1', [id])).rowCount;
          if (has) break;
          startAttempts++;
          const res = await resilient(() => call('POST', '/api/robot-frontend/setup-and-create-dpec', token, { pecDossierId: id }));
          if (res.status === 401) token = await login();
          else if (res.status === 200 || res.status === 409) break;
          else throw new Error(`lancement du dossier ${id} : HTTP ${res.status} ${JSON.stringify(res.body)}`);
        }
        started++;
      }
    };
    const launching = Promise.all(Array.from({ length: 8 }, launch));
    for (let k = 1; k < KILLS; k++) {
      while (started < Math.floor((RUNS * k) / KILLS)) await sleep(20);
      await killAndRestart(`${started} runs lancés sur ${RUNS}`);
    }
    await launching;
    console.log(`${started} runs lancés (${startAttempts} tentatives)`);
    if (KILLS > 0 && (await openRuns()) > 0) await killAndRestart('tous les runs lancés');
    const deadline = Date.now() + 300_000;
    while ((await openRuns()) > 0 && Date.now() < deadline) await sleep(500);

    const perRun = (
      await db.query(
        `select s.run_id, s.dossier_id,
            count(*) filter (where e.completed_at is not null and e.callback_type in ('dpec', 'dpec_error', 'scraping_error')) ::int as finals,
            count(*) filter (where e.completed_at is null)::int as open,
            count(*) filter (where e.outcome = 'timeout')::int as timeouts
          from workflow_executions s join workflow_executions e on e.run_id = s.run_id
          where s.id = s.run_id and s.dossier_id = any($1)
          group by s.run_id, s.dossier_id`,
        [files],
      )
    ).rows as { run_id: number; dossier_id: number; finals: number; open: number; timeouts: number }[];
    const runsPerFile = new Map<number, number>();
    for (const r of perRun) runsPerFile.set(r.dossier_id, (runsPerFile.get(r.dossier_id) ?? 0) + 1);
    const outside = Number(
      (await db.query('select count(*)::int as n from workflow_executions where run_id is null and dossier_id = any($1)', [files])).rows[0].n,
    );
    const doubledNotifications = Number(
      (
        await db.query(
          'select count(*)::int as n from (select 1 from notifications where dossier_id = any($1) group by dossier_id, user_id, kind having count(*) > 1) t',
          [files],
        )
      ).rows[0].n,
    );
    const filesWithoutRun = files.filter((id) => !runsPerFile.has(id)).length;
    const result = {
      runs: RUNS,
      startAttempts,
      httpAttemptsWithRetries: httpAttempts,
      kills,
      runsInFlightAtEachKill: inFlightAtKills,
      seconds: Math.round((Date.now() - begin) / 1000),
      lost: perRun.filter((r) => r.finals === 0).length + filesWithoutRun,
      doubled: perRun.filter((r) => r.finals > 1).length,
      stillOpen: perRun.filter((r) => r.open > 0).length,
      timeouts: perRun.reduce((n, r) => n + r.timeouts, 0),
      filesWithSeveralRuns: [...runsPerFile.values()].filter((n) => n > 1).length,
      resultsOutsideTheirRun: outside,
      doubledNotifications,
    };
    console.log(JSON.stringify(result, null, 2));
    if (result.lost || result.doubled || result.stillOpen || result.resultsOutsideTheirRun || result.doubledNotifications) process.exitCode = 1;
  } finally {
    if (server && server.exitCode === null) await kill().catch(() => undefined);
    await db.end().catch(() => undefined);
    if (!args.has('keep')) await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
