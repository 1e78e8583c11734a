// Issue 26, item 2: mail jobs survive a SIGKILL. The real server runs as a child process (as bench/robot-sigkill.ts
// does for robot runs) on its own database, with a real SMTP server in this process that holds its answer to every
// message. Forgotten-password emails are on their way to it (their data sent, not yet accepted) when the server is
// killed with SIGKILL (no shutdown hook runs); started again, it sends each email once: none lost, none twice.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { openPglite } from '../../server/db/connect';
import { databaseUrl, uniqueName, usePostgres, withAdminClient } from './helpers/databases';
import { startSmtp, type TestSmtp } from './helpers/smtp';

const RECIPIENTS = ['audio@audition-horizon.fr', 'assistant@audition-horizon.fr', 'lecture@audition-horizon.fr'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let smtp: TestSmtp;
let child: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'pecflow-mail-sigkill-'));
let postgresName: string | undefined;
let port = 0;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });

function start() {
  // node with tsx's loader (not the tsx CLI, whose child a SIGKILL would not reach).
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: postgresName ? databaseUrl(postgresName) : '',
      DEMO_SEED: '0',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-front-end'),
      JWT_SECRET: 'mail-sigkill-jwt-secret-0123456789abcdef',
      APP_SECRET_KEY: 'd'.repeat(64),
      ROBOT_CALLBACK_SECRET: 'mail-sigkill-callback-secret',
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitReady(timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error('le serveur ne répond pas');
}

async function stop(signal: NodeJS.Signals) {
  const running = child;
  if (!running || running.exitCode !== null || running.signalCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill(signal);
  await exited;
}

/** The mail jobs as the database holds them once the server has stopped. */
async function mailJobs(): Promise<{ state: string; retry_count: number }[]> {
  const sql = "select state, retry_count from pgboss.job where name = 'mail-send' order by created_on";
  if (postgresName) {
    const client = new pg.Client({ connectionString: databaseUrl(postgresName) });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    return await database.query(sql);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  smtp = await startSmtp();
  port = await freePort();
  // Its own database, a copy of the migrated and seeded template.
  const template = inject('templateDatabase');
  if (usePostgres()) {
    postgresName = uniqueName(`${template}_f`);
    await withAdminClient((c) => c.query(`CREATE DATABASE ${postgresName} TEMPLATE ${template}`));
  } else {
    const database = await openPglite(path.join(dataDir, 'pglite'), { loadDataDir: new Blob([readFileSync(template)]) });
    await database.close();
  }
});

afterAll(async () => {
  await stop('SIGKILL');
  await smtp?.close();
  if (postgresName) await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS ${postgresName} WITH (FORCE)`));
  rmSync(dataDir, { recursive: true, force: true });
});

it('sends each email once after the worker is killed with its emails in flight', { timeout: 300_000 }, async () => {
  start();
  await waitReady();
  smtp.hold();
  for (const email of RECIPIENTS) {
    const res = await fetch(`http://127.0.0.1:${port}/api/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(202);
  }
  // Every email's data has reached the SMTP server, which has not accepted any yet: then SIGKILL.
  const deadline = Date.now() + 60_000;
  while (smtp.held() < RECIPIENTS.length && Date.now() < deadline) await sleep(100);
  expect(smtp.held()).toBe(RECIPIENTS.length);
  await stop('SIGKILL');
  // The killed server's connections close: what they sent was never accepted, and counts for nothing.
  while (smtp.connected() > 0) await sleep(50);
  smtp.release();
  await sleep(500);
  expect(smtp.received).toEqual([]);

  start();
  await waitReady();
  // Each email arrives once its job, left active by the killed server, expires and is tried again.
  for (const email of RECIPIENTS) await smtp.next(email, { timeoutMs: 200_000 });
  await stop('SIGTERM');
  const jobs = await mailJobs();
  expect(jobs, JSON.stringify(jobs)).toHaveLength(RECIPIENTS.length);
  expect(
    jobs.every((job) => job.state === 'completed'),
    JSON.stringify(jobs),
  ).toBe(true);
  expect(jobs.every((job) => job.retry_count >= 1)).toBe(true);
  // Once, each: the server can send no more (every job is completed).
  expect(smtp.received.map((mail) => mail.to).sort()).toEqual([...RECIPIENTS].sort());
  expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(RECIPIENTS.length);
});
