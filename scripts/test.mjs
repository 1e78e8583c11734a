// npm test: installs what the tests need, then runs type checking, lint and format checks, unit tests, API tests (PGlite, and PostgreSQL
// when DATABASE_URL is set), the cluster test (with DATABASE_URL) and browser tests, and ends with one line:
// "N passed, N failed".
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bin, ensureDependencies, ensureFrontEndBuild, root, run } from './lib.mjs';

const CHROMIUM = '/usr/bin/chromium';
const output = mkdtempSync(path.join(tmpdir(), 'pecflow-tests-'));
const totals = { passed: 0, failed: 0 };
const lines = [];
// Named again under the summary, so that the end of a long run's output says what failed.
const failures = [];
// Each line of the summary says how long its step took, counted from the end of the one before: CI's time is watched.
let stepStart = Date.now();

function record(name, passed, failed, seconds = Math.round((Date.now() - stepStart) / 1000)) {
  totals.passed += passed;
  totals.failed += failed;
  stepStart = Date.now();
  lines.push(`  ${failed === 0 ? '✓' : '✗'} ${name.padEnd(28)} ${passed} passed, ${failed} failed (${seconds} s)`);
}

function skip(name, why) {
  stepStart = Date.now();
  lines.push(`  · ${name.padEnd(28)} ignoré : ${why}`);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function vitest(name, project, env = {}) {
  const report = path.join(output, `${name.replace(/\W+/g, '-')}.json`);
  const status = run(bin('vitest'), ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    env,
    allowFailure: true,
  });
  const json = readJson(report);
  if (!json) return record(name, 0, 1);
  // A suite that fails to load counts as a failure even when no test inside it ran.
  const files = json.testResults ?? [];
  const brokenFiles = files.filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0);
  for (const file of files) {
    const where = path.relative(root, file.name);
    if (brokenFiles.includes(file)) failures.push(`${name} › ${where} : ${file.message?.split('\n')[0] ?? 'ne se charge pas'}`);
    for (const test of file.assertionResults ?? [])
      if (test.status === 'failed') failures.push(`${name} › ${where} › ${test.fullName} : ${test.failureMessages?.[0]?.split('\n')[0] ?? ''}`);
  }
  const outsideTests = status !== 0 && json.numFailedTests === 0 && brokenFiles.length === 0;
  if (outsideTests) failures.push(`${name} › erreur hors des tests (« Unhandled Errors » plus haut)`);
  record(name, json.numPassedTests, json.numFailedTests + json.numPendingTests + json.numTodoTests + brokenFiles.length + (outsideTests ? 1 : 0));
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() === 0) {
    console.log('→ Installation de Chromium (paquet Debian chromium)...');
    if (run('apt-get', ['install', '-y', 'chromium'], { allowFailure: true }) !== 0) {
      run('apt-get', ['update'], { allowFailure: true });
      run('apt-get', ['install', '-y', 'chromium'], { allowFailure: true });
    }
    if (existsSync(CHROMIUM)) return true;
  }
  console.error(`\n✗ Les tests navigateur ont besoin du paquet Debian « chromium » (${CHROMIUM}) : sudo apt-get install -y chromium`);
  return false;
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

ensureDependencies();
stepStart = Date.now();

// Side by side: tsc, ESLint and Prettier each keep one core busy, and a machine has two. Each one's output is printed
// once it has ended, so that the three do not interleave.
console.log('\n→ Vérification des types (tsc), lint (ESLint) et format (Prettier), côte à côte');
const checks = await Promise.all(
  [
    ['typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
    ['lint (ESLint)', bin('eslint'), ['.']],
    ['format (Prettier)', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ].map(
    ([name, command, args]) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(command, args, { cwd: root });
        let output = '';
        const keep = (chunk) => (output += chunk);
        child.stdout.on('data', keep);
        child.stderr.on('data', keep);
        const end = (code) => resolve({ name, code, output, seconds: Math.round((Date.now() - started) / 1000) });
        child.on('error', (error) => end(String(error)));
        child.on('close', end);
      }),
  ),
);
for (const { name, code, output, seconds } of checks) {
  if (output) process.stdout.write(`\n${name}\n${output}`);
  record(name, ...(code === 0 ? [1, 0] : [0, 1]), seconds);
}

console.log('\n→ Tests unitaires');
vitest('unit', 'unit');

console.log('\n→ Tests API sur PGlite');
vitest('api (PGlite)', 'api', { TEST_DB: 'pglite' });

if (process.env.DATABASE_URL) {
  console.log('\n→ Tests API sur PostgreSQL');
  vitest('api (PostgreSQL)', 'api', { TEST_DB: 'postgres' });
}

// Several instances behind HAProxy and PgBouncer (scripts/test-cluster.mjs): needs PostgreSQL, and haproxy and
// pgbouncer (installed here when root). A skip is said on one line and counted neither way.
console.log('\n→ Test de grappe (HAProxy, PgBouncer, 2 instances web et 2 workers)');
if (process.env.DATABASE_URL) {
  const report = path.join(output, 'cluster.json');
  const status = run(process.execPath, [path.join(root, 'scripts', 'test-cluster.mjs')], { env: { CLUSTER_REPORT: report }, allowFailure: true });
  const json = readJson(report);
  if (json?.skipped) skip('cluster', `${json.skipped} manquant`);
  else if (json) {
    const failed = json.checks.filter((c) => !c.ok).length;
    record('cluster (HAProxy, PgBouncer)', json.checks.length - failed, failed + (status !== 0 && failed === 0 ? 1 : 0));
  } else record('cluster (HAProxy, PgBouncer)', 0, 1);
} else {
  console.log('⚠ test:cluster ignoré : DATABASE_URL n’est pas défini.');
  skip('cluster', 'DATABASE_URL manquant');
}

console.log('\n→ Tests navigateur (Playwright, Chromium)');
if (ensureChromium()) {
  ensureFrontEndBuild();
  const report = path.join(output, 'e2e.json');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pecflow-e2e-'));
  const status = run(bin('playwright'), ['test', '--reporter=list,json'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report, E2E_DATA_DIR: dataDir, E2E_PORT: String(await freePort()) },
    allowFailure: true,
  });
  rmSync(dataDir, { recursive: true, force: true });
  const json = readJson(report);
  const stats = json?.stats;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected' || test.status === 'skipped') {
          const message = test.results?.at(-1)?.error?.message?.split('\n')[0] ?? test.status;
          failures.push(`e2e › ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')} : ${message}`);
          // The page as it was when the test failed (Playwright's ARIA snapshot): CI keeps no test-results folder,
          // and a failure seen once on a slow machine is explained by it or not at all.
          const context = test.results?.at(-1)?.attachments?.find((a) => a.name === 'error-context' && a.path);
          const snapshot = context && existsSync(context.path) ? readFileSync(context.path, 'utf8').split('# Page snapshot')[1] : undefined;
          if (snapshot) console.log(`\nPage au moment de l’échec (${spec.file}:${spec.line})${snapshot.slice(0, 6000)}`);
        }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
  };
  for (const suite of json?.suites ?? []) walk(suite, []);
  if (stats) record('e2e (Chromium)', stats.expected + stats.flaky, stats.unexpected + stats.skipped + (status !== 0 && stats.unexpected === 0 ? 1 : 0));
  else record('e2e (Chromium)', 0, 1);
} else {
  record('e2e (Chromium)', 0, 1);
}

rmSync(output, { recursive: true, force: true });
if (failures.length > 0) console.log(`\nÉchecs\n${failures.map((f) => `  ✗ ${f.slice(0, 400)}`).join('\n')}`);
console.log(`\nRésumé\n${lines.join('\n')}\n`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.chdir(root);
process.exit(totals.failed === 0 ? 0 : 1);
