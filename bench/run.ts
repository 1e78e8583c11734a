// npm run bench [-- <scenario>...] [--duration=10] [--warmup=2] [--connections=16] [--keep] [--sql=file.sql --tag=name]
// Without a scenario name, runs them all: `backoffice` (below), then `pec` (bench/pec.ts: the PEC list at 1,000,000
// files next to the same SQL run directly, and 1,000 DPEC runs through the simulator; see its own options), then `load`
// (bench/load.ts: 200 clients mixing the office's actions for 60 s), then `documents` (bench/documents.ts: 50 clients
// uploading and downloading 1 MB documents, with the server's RSS), then `frontend` (bench/frontend.ts: the production
// build's weight, login to a filled table, Lighthouse scores), then `statements` (bench/statements.ts: a payment
// statement's preview and import in an organisation of 100,000 files; see its own options).
// Creates a fresh PostgreSQL database (BENCH_DATABASE_URL or DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres),
// runs the seeds of every scenario below in order, starts the real server on it, measures each scenario's endpoints
// with autocannon, prints a table and writes bench/results/{scenario}.json; the database is dropped at the end.
import { readFileSync } from 'node:fs';
import type { Scenario } from './lib/types';
import { benchAdminUrl, benchFlags } from './lib/args';
import { createBenchDatabase, machine, measure, printTable, signIn, startServer, writeResults, type BenchOptions } from './lib/harness';

// One line per scenario file; seeds run in this order, so a later scenario may build on the data of an earlier one.
const SCENARIOS: Scenario[] = [(await import('./backoffice')).scenario];

const TARGET_P99_MS = 50;

function parseArgs(argv: string[]) {
  const { flags, names } = benchFlags(argv);
  const options: BenchOptions = {
    adminUrl: benchAdminUrl(),
    connections: Number(flags.get('connections') ?? 16),
    durationSeconds: Number(flags.get('duration') ?? 10),
    warmupSeconds: Number(flags.get('warmup') ?? 2),
    keep: flags.has('keep'),
    extraSql: flags.get('sql'),
    tag: flags.get('tag'),
  };
  if (options.extraSql && !options.tag) throw new Error('--sql demande --tag : ces résultats ne remplacent pas ceux du schéma réel.');
  return { names, options };
}

async function main() {
  const { names: all, options } = parseArgs(process.argv.slice(2));
  const names = all.filter((n) => !OWN_RUNNERS.includes(n));
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`Scénario inconnu : ${unknown.join(', ')} (disponibles : ${SCENARIOS.map((s) => s.name).join(', ')})`);
  const measured = names.length ? SCENARIOS.filter((s) => names.includes(s.name)) : SCENARIOS;

  const bench = await createBenchDatabase(options);
  console.log(`Base de benchmark : ${bench.name}`);
  try {
    const volumes: Record<string, Record<string, number>> = {};
    for (const scenario of SCENARIOS) {
      const started = Date.now();
      volumes[scenario.name] = await scenario.seed(bench.ctx);
      console.log(`Données « ${scenario.name} » créées en ${((Date.now() - started) / 1000).toFixed(1)} s : ${JSON.stringify(volumes[scenario.name])}`);
    }
    if (options.extraSql) {
      await bench.ctx.sql(readFileSync(options.extraSql, 'utf8'));
      console.log(`SQL supplémentaire exécuté : ${options.extraSql}`);
    }
    await bench.ctx.sql('vacuum analyze');
    const [{ version } = { version: '' }] = await bench.ctx.sql('select version()');

    const { app, baseUrl } = await startServer(bench.database, bench.url);
    try {
      await signIn(baseUrl, bench.ctx);
      for (const scenario of measured) {
        const loadBefore = machine().loadAverage1m;
        const rows = [];
        for (const endpoint of await scenario.endpoints(bench.ctx)) {
          const row = await measure(baseUrl, bench.ctx, endpoint, options);
          console.log(`  ${row.endpoint} (${row.as}) : p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, ${row.requestsPerSecond} req/s`);
          rows.push(row);
        }
        printTable(`${scenario.name} — ${scenario.description}`, rows, TARGET_P99_MS);
        const file = writeResults(
          scenario,
          {
            scenario: scenario.name,
            description: scenario.description,
            measuredAt: new Date().toISOString(),
            command: `npm run bench -- ${process.argv.slice(2).join(' ') || scenario.name}`,
            extraSql: options.extraSql ?? null,
            database: String(version).split(',')[0],
            machine: { ...machine(), loadAverage1mBefore: loadBefore },
            connections: options.connections,
            durationSeconds: options.durationSeconds,
            warmupSeconds: options.warmupSeconds,
            targetP99Ms: TARGET_P99_MS,
            records: volumes,
            results: rows,
          },
          options.tag,
        );
        console.log(`Résultats écrits dans ${file}`);
      }
    } finally {
      await app.close();
    }
  } finally {
    await bench.drop();
  }
}

/**
 * `pec`, `load`, `frontend`, `documents` and `statements` have their own runners: the PEC comparison with direct SQL and
 * its DPEC runs, the mixed load of many clients against the server in its own process, the browser measurements, the
 * uploads and the statements' imports (each request a new statement) do not fit the Scenario shape.
 */
const OWN_RUNNERS = ['pec', 'load', 'frontend', 'documents', 'statements'];
async function all() {
  const args = process.argv.slice(2);
  const names = args.filter((a) => !a.startsWith('--'));
  if (names.length === 0 || names.some((n) => !OWN_RUNNERS.includes(n))) await main();
  if (names.length === 0 || names.includes('pec'))
    await (await import('./pec')).runPecBench(args.filter((a) => !['backoffice', 'load', 'frontend', 'documents', 'statements'].includes(a)));
  if (names.length === 0 || names.includes('load')) await (await import('./load')).runLoadBench(args.filter((a) => a.startsWith('--')));
  if (names.length === 0 || names.includes('documents')) await (await import('./documents')).runDocumentsBench(args.filter((a) => a.startsWith('--')));
  if (names.length === 0 || names.includes('frontend')) await (await import('./frontend')).runFrontendBench(args.filter((a) => a.startsWith('--')));
  if (names.length === 0 || names.includes('statements')) await (await import('./statements')).runStatementsBench(args.filter((a) => a.startsWith('--')));
}

all().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
