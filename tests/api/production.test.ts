// Production behaviour of one instance (server/server.ts): the web and worker roles, the graceful stop, the metrics,
// and the jobs a stopping worker hands back. Instances share one database, as several processes share PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../server/config';
import type { Database } from '../../server/db/connect';
import { DEMO_PASSWORD } from '../../server/seed';
import { JobService, QUEUES } from '../../server/jobs/boss';
import { startServer, type RunningServer } from '../../server/server';
import { cloneTemplate, TEST_APP_SECRET_KEY } from './helpers/databases';
import { sleep, waitFor } from './helpers/pec';

let database: Database;
let drop: () => Promise<void>;
const dataDir = mkdtempSync(path.join(tmpdir(), 'pecflow-prod-'));
const running: RunningServer[] = [];

beforeAll(async () => {
  ({ database, drop } = await cloneTemplate(inject('templateDatabase')));
});
afterAll(async () => {
  for (const server of running) await server.stop().catch(() => undefined);
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function configFor(overrides: Partial<Config>): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-jwt-secret-that-is-long-enough-0123456789',
      APP_SECRET_KEY: TEST_APP_SECRET_KEY,
      ROBOT_CALLBACK_SECRET: 'test-robot-callback-secret',
      ROBOT_SIM_DELAY_MS: '0',
      STATIC_DIR: path.join(dataDir, 'no-front-end'),
      DEMO_SEED: '0',
    }),
    port: 0,
    host: '127.0.0.1',
    ...overrides,
  };
}

async function start(overrides: Partial<Config>): Promise<RunningServer> {
  const server = await startServer(configFor(overrides), { database });
  running.push(server);
  return server;
}

async function stop(server: RunningServer) {
  await server.stop();
  running.splice(running.indexOf(server), 1);
}

async function login(url: string, email = 'audio@audition-horizon.fr'): Promise<string> {
  const res = await fetch(`${url}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

const api = (url: string, token: string, method = 'GET', body?: unknown) =>
  fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/ld+json', ...(body ? { 'content-type': 'application/ld+json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

/** A draft file ready for a DPEC run, created through the API. */
async function newDossier(url: string, token: string, suffix = ''): Promise<number> {
  const [shop] = await database.query<{ id: number }>(`select id from shops where name = 'Horizon Paris Bastille'`);
  const [mutual] = await database.query<{ id: number }>(`select id from mutuals where name = 'Allianz'`);
  const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const res = await api(`${url}/api/pec_dossiers`, token, 'POST', {
    shop: `/api/shops/${shop!.id}`,
    mutual: `/api/mutuals/${mutual!.id}`,
    numeroDossierAssure: `PROD-${unique}${suffix}`,
    // A quote number of its own: two files with the same mutual and quote number are twins, whose second DPEC is refused.
    numeroDevisAssure: `DEV-${unique}`,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const runJobs = (runId: number) =>
  database.query<{ name: string; state: string }>(`select name, state from pgboss.job where (data->>'runId')::int = $1 order by created_on`, [runId]);

describe('roles', () => {
  it('a web instance queues robot runs and never runs them; a worker runs them and serves no API', async () => {
    const web = await start({ role: 'web', startWorkers: false });
    const token = await login(web.url!);
    const id = await newDossier(web.url!, token);
    const started = await api(`${web.url}/api/robot-frontend/setup-and-create-dpec`, token, 'POST', { pecDossierId: `/api/pec_dossiers/${id}` });
    expect(started.status).toBe(200);
    const { runId } = (await started.json()) as { runId: number };

    // Several polling intervals later the job is still waiting: nobody on the web instance took it.
    await sleep(2000);
    expect((await runJobs(runId)).filter((j) => j.name === QUEUES.robotRun).map((j) => j.state)).toEqual(['created']);
    const [open] = await database.query<{ n: number }>(`select count(*)::int as n from workflow_executions where run_id = $1 and completed_at is null`, [
      runId,
    ]);
    expect(open!.n).toBe(1);

    const worker = await start({ role: 'worker', startWorkers: true, publicUrl: web.url, workerHealthPort: 0 });
    // No API socket: the worker listens only on its health port, which answers nothing else.
    expect(worker.url).toBeUndefined();
    expect(worker.app.server.listening).toBe(false);
    const health = await fetch(worker.healthUrl!);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', role: 'worker' });
    const base = worker.healthUrl!.replace(/\/health$/, '');
    for (const p of ['/api/health', '/api/pec_dossiers', '/api/login_check']) expect((await fetch(`${base}${p}`)).status).toBe(404);

    // The worker runs the job; the simulator's callbacks reach the web instance, which records the outcome.
    const dossier = await waitFor(
      async () => {
        const res = await api(`${web.url}/api/pec_dossiers/${id}`, token);
        const body = (await res.json()) as { status: string; runInProgress: unknown };
        return body.runInProgress === null && body.status === 'approved' ? body : undefined;
      },
      20_000,
      'run finished by the worker',
    );
    expect(dossier.status).toBe('approved');
    expect((await runJobs(runId)).some((j) => j.name === QUEUES.robotSim)).toBe(true);

    // The worker's schedules exist (the web instance has none of its own to create).
    const schedules = await database.query<{ name: string }>(`select name from pgboss.schedule order by name`);
    expect(schedules.map((s) => s.name)).toEqual([QUEUES.expiryScan, QUEUES.followUpNotice, QUEUES.robotSweep].sort());

    await stop(worker);
    expect((await fetch(worker.healthUrl!).catch(() => undefined))?.status).toBeUndefined();
    await stop(web);
  });

  it('PECFLOW_ROLE=web|worker needs PostgreSQL, and a worker needs PUBLIC_URL', () => {
    expect(() => loadConfig({ PECFLOW_ROLE: 'web', DATA_DIR: dataDir })).toThrow(/PECFLOW_ROLE=web demande DATABASE_URL/);
    expect(() => loadConfig({ PECFLOW_ROLE: 'worker', DATA_DIR: dataDir, DATABASE_URL: 'postgres://x@127.0.0.1/x' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PECFLOW_ROLE: 'chef', DATA_DIR: dataDir })).toThrow(/PECFLOW_ROLE/);
    expect(loadConfig({ DATA_DIR: dataDir }).role).toBe('all');
  });

  it('NODE_ENV=production refuses to start without explicit secrets', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(/JWT_SECRET, APP_SECRET_KEY et ROBOT_CALLBACK_SECRET doivent être fournis/);
  });
});

describe('graceful stop', () => {
  it('reports not ready, still answers during the drain, ends the event streams, then stops listening', async () => {
    const server = await start({ drainDelayMs: 800 });
    const token = await login(server.url!);

    const controller = new AbortController();
    const stream = await fetch(`${server.url}/api/events`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const streamEnded = (async () => {
      for await (const _chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
        // read until the server ends the stream
      }
      return true;
    })();

    const stopping = server.stop();
    await sleep(100);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'stopping' });
    // The proxy may still send requests until it notices: they are answered, and their connection closed.
    const during = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(`${server.url}/api/shops`, { headers: { authorization: `Bearer ${token}` } }, (res) => res.resume().on('end', () => resolve(res)))
        .on('error', reject),
    );
    expect(during.statusCode).toBe(200);
    expect(during.headers.connection).toBe('close');

    await expect(Promise.race([streamEnded, sleep(10_000).then(() => false)])).resolves.toBe(true);
    await stopping;
    running.splice(running.indexOf(server), 1);
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    controller.abort();
  });

  it('a stopping worker hands the jobs it could not finish back to the queue', async () => {
    const log = { error: () => undefined, warn: () => undefined };
    const jobs = new JobService(database, { workers: true, log });
    let taken: () => void;
    const inHand = new Promise<void>((resolve) => (taken = resolve));
    await jobs.work(QUEUES.robotRun, async () => {
      taken();
      await new Promise(() => undefined); // never finishes
    });
    const id = await jobs.send(QUEUES.robotRun, { runId: -1 });
    await inHand;
    await jobs.stopWorking(300);
    const [job] = await database.query<{ state: string; output: { message?: string } }>(`select state, output from pgboss.job where id = $1`, [id]);
    // Failed with retries left: pg-boss gives it to whichever instance fetches next, after the queue's retry delay.
    expect(job!.state).toBe('retry');
    expect(job!.output.message).toMatch(/instance arrêtée/);
    await jobs.close();
    await database.query(`delete from pgboss.job where id = $1`, [id]);
  });
});

describe('metrics', () => {
  let server: RunningServer;
  let token: string;
  const metrics = async () => (await fetch(server.metricsUrl!)).text();
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };

  beforeAll(async () => {
    server = await start({ metricsPort: 0 });
    token = await login(server.url!);
  });

  it('are off unless METRICS_PORT is set, and then served on their own port only', async () => {
    expect(loadConfig({ DATA_DIR: dataDir }).metricsPort).toBeUndefined();
    expect(new URL(server.metricsUrl!).port).not.toBe(new URL(server.url!).port);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const res = await fetch(server.metricsUrl!);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('a request moves the counters of its route, never of its id', async () => {
    const requests = 'pecflow_http_requests_total{method="GET",route="/api/shops/:id",status="404"}';
    const before = value(await metrics(), requests);
    expect((await api(`${server.url}/api/shops/987654`, token)).status).toBe(404);
    const text = await metrics();
    expect(value(text, requests)).toBe(before + 1);
    expect(text).not.toContain('987654');
    expect(value(text, 'pecflow_http_request_duration_seconds_count{method="GET",route="/api/shops/:id"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^pecflow_db_pool_connections|^pecflow_process_resident_memory_bytes/m);
  });

  it('back-office lists read again from the cache move its hit count', async () => {
    const hits = 'pecflow_list_cache_reads{outcome="hit"}';
    const admin = await login(server.url!, 'admin@pecflow.fr');
    expect((await api(`${server.url}/api/companies`, admin)).status).toBe(200);
    const before = value(await metrics(), hits);
    expect((await api(`${server.url}/api/companies`, admin)).status).toBe(200);
    expect(value(await metrics(), hits)).toBe(before + 1);
  });

  it('robot runs by outcome and duration, queue depth and open event streams', async () => {
    const runs = 'pecflow_robot_runs_total{kind="dpec",outcome="refused"}';
    const before = value(await metrics(), runs);
    const id = await newDossier(server.url!, token, '-REFUS');
    expect((await api(`${server.url}/api/robot-frontend/setup-and-create-dpec`, token, 'POST', { pecDossierId: `/api/pec_dossiers/${id}` })).status).toBe(200);
    await waitFor(async () => value(await metrics(), runs) === before + 1, 20_000, 'refused run counted');
    const text = await metrics();
    expect(value(text, 'pecflow_robot_run_duration_seconds_count{kind="dpec",outcome="refused"}')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE pecflow_queue_depth gauge');
    expect(text).toContain('# TYPE pecflow_queue_oldest_age_seconds gauge');

    const controller = new AbortController();
    const stream = await fetch(`${server.url}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(value(await metrics(), 'pecflow_sse_streams')).toBe(1);
    controller.abort();
    await waitFor(async () => value(await metrics(), 'pecflow_sse_streams') === 0, 5000, 'stream closed');
  });
});
