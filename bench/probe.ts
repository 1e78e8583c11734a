// An outside probe of the API on PostgreSQL, as an intruder would run it (issue 12):
//  1. a cross-organisation sweep: with Optique Riviera's administrator, every verb of every item route (and the bulk
//     and robot routes) on every record of Audition Horizon; a leak is a 2xx answer or any change in the database;
//  2. a fuzz of every route with malformed ids, query strings, bodies and content types, with and without tokens;
//     every answer must be below 500.
// npx tsx bench/probe.ts   (BENCH_DATABASE_URL or DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres)
import { getTableName } from 'drizzle-orm';
import { seed, DEMO_PASSWORD } from '../server/seed';
import { openPostgres } from '../server/db/connect';
import { benchAdminUrl } from './lib/args';
import { databaseUrl, startServer, withAdmin } from './lib/harness';

const ADMIN_URL = benchAdminUrl();
const APP_SECRET_KEY = 'b'.repeat(64);
const CONCURRENCY = 8;

interface Route {
  method: string;
  path: string;
}

/** Every route of the server, from Fastify's route tree (methods other than HEAD and OPTIONS). */
function routesOf(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ├└─]*)(\S+?)(?: \(([^)]+)\))?$/.exec(line.replace(/\s+$/, ''));
    if (!match || !match[2]) continue;
    const depth = Math.floor(match[1]!.length / 4);
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + match[2];
    stack[depth] = path;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (['HEAD', 'OPTIONS', 'TRACE', 'QUERY'].includes(method) || path.includes('.url-problem') || !path.startsWith('/api')) continue;
      routes.push({ method, path });
    }
  }
  return routes;
}

async function pool<T>(items: T[], fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

async function main() {
  const name = `pecflow_probe_${Date.now().toString(36)}`;
  await withAdmin(ADMIN_URL, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(ADMIN_URL, name);
  const database = await openPostgres(url, 10);
  try {
    await database.migrate();
    await seed(database, { demo: true, appSecretKey: APP_SECRET_KEY });
    const { app, baseUrl } = await startServer(database, url);
    const call = async (method: string, path: string, options: { token?: string; body?: string; type?: string } = {}) => {
      const headers: Record<string, string> = { accept: 'application/ld+json' };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers['content-type'] = options.type ?? 'application/json';
      const res = await fetch(`${baseUrl}${path}`, { method, headers, body: options.body });
      const text = await res.text();
      return { status: res.status, text };
    };
    const login = async (email: string) =>
      JSON.parse((await call('POST', '/api/login_check', { body: JSON.stringify({ email, password: DEMO_PASSWORD }) })).text).token as string;
    const tokens = {
      admin: await login('admin@pecflow.fr'),
      horizonAdmin: await login('direction@audition-horizon.fr'),
      audio: await login('audio@audition-horizon.fr'),
      lecture: await login('lecture@audition-horizon.fr'),
      riviera: await login('direction@optique-riviera.fr'),
    };
    const routes = routesOf(app.printRoutes({ commonPrefix: false }));
    console.log(`${routes.length} routes (méthode × chemin)`);

    // ---------- 1. cross-organisation sweep ----------
    const [{ id: horizon }] = await database.query<{ id: number }>("select id from holdings where name = 'Audition Horizon'");
    const tables = (
      await database.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public' and table_name not in ('login_attempts', 'refresh_tokens', 'audit_logs') and table_type = 'BASE TABLE'",
      )
    ).map((r) => r.table_name);
    const checksum = async () => {
      const sums: Record<string, string> = {};
      for (const table of tables)
        sums[table] = (await database.query<{ s: string }>(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as s from "${table}" t`))[0]!.s;
      return sums;
    };
    const before = await checksum();
    const targets = new Map<string, number[]>();
    for (const repository of app.ctx.resources.all()) {
      const { decl } = repository;
      const column = decl.tenancy.holdingColumn;
      if (decl.name === 'holdings') targets.set('holdings', [horizon]);
      else if (column) {
        const rows = await database.query<{ id: number }>(`select id from "${getTableName(decl.table)}" where "${column.name}" = $1`, [horizon]);
        targets.set(
          decl.name,
          rows.map((r) => Number(r.id)),
        );
      }
    }
    targets.set(
      'notifications',
      (await database.query<{ id: number }>('select n.id from notifications n join users u on u.id = n.user_id where u.holding_id = $1', [horizon])).map((r) =>
        Number(r.id),
      ),
    );
    const itemRoutes = routes.filter((r) => r.path.includes('/:id'));
    let sweepAttempts = 0;
    const sweepLeaks: string[] = [];
    const sweepStatuses = new Map<number, number>();
    const notHidden = new Map<string, number>();
    const jobs: { method: string; path: string; body?: string; type?: string }[] = [];
    for (const route of itemRoutes) {
      const collection = route.path.split('/')[2]!;
      for (const id of targets.get(collection) ?? []) {
        const path = route.path.replace(':id', String(id));
        let body: string | undefined;
        if (['PUT', 'PATCH'].includes(route.method)) {
          // The record's own values (as its organisation sees them): only tenancy can refuse it.
          const own = await call('GET', route.path.replace(':id', String(id)).replace(/\/archive$/, ''), { token: tokens.admin });
          body = own.status === 200 ? own.text : '{}';
        }
        jobs.push({ method: route.method, path, body, type: route.method === 'PATCH' ? 'application/merge-patch+json' : 'application/ld+json' });
      }
    }
    for (const [collection, ids] of targets) {
      if (!ids.length) continue;
      jobs.push({ method: 'POST', path: `/api/${collection}/bulk-delete`, body: JSON.stringify({ ids }) });
      jobs.push({ method: 'POST', path: `/api/${collection}/bulk-update`, body: JSON.stringify({ ids, data: { status: 'Inactive', name: 'Capturé' } }) });
    }
    for (const id of targets.get('pec_dossiers') ?? []) {
      for (const path of ['/api/robot-frontend/setup-and-create-dpec', '/api/robot-frontend/setup-and-billing-pec']) {
        jobs.push({ method: 'POST', path, body: JSON.stringify({ pecDossierId: id }) });
      }
    }
    await pool(jobs, async (job) => {
      const res = await call(job.method, job.path, { token: tokens.riviera, body: job.body, type: job.type });
      sweepAttempts++;
      sweepStatuses.set(res.status, (sweepStatuses.get(res.status) ?? 0) + 1);
      if (res.status < 300) sweepLeaks.push(`${job.method} ${job.path} -> ${res.status}`);
      if (res.status !== 404) {
        const key = `${job.method} ${job.path.replace(/\/\d+/g, '/{id}')} -> ${res.status} ${JSON.parse(res.text || '{}').detail ?? ''}`;
        notHidden.set(key, (notHidden.get(key) ?? 0) + 1);
      }
    });
    const after = await checksum();
    const changed = tables.filter((t) => before[t] !== after[t]);
    console.log(
      `Balayage inter-organisations : ${sweepAttempts} tentatives, ${sweepLeaks.length} réponses 2xx, tables modifiées : ${changed.join(', ') || 'aucune'}`,
    );
    console.log(`  statuts : ${JSON.stringify(Object.fromEntries([...sweepStatuses].sort()))}`);
    for (const leak of sweepLeaks.slice(0, 20)) console.log(`  FUITE ${leak}`);
    // Answers other than 404 (permissions refused first, bulk requests refused as a whole): to read, not leaks.
    for (const [key, count] of notHidden) console.log(`  ${count} × ${key.replaceAll('\n', ' ')}`);

    // ---------- 2. fuzz ----------
    const ids = ['0', '-1', 'abc', '1.5', '1e3', '99999999999999999999', "1'", '%00', '%2e%2e%2f', '%20', '١٢', 'null', '[]', '9'.repeat(101), '1;drop', '%ZZ'];
    const queries = [
      '',
      '?page=-1&itemsPerPage=abc',
      '?order[__proto__]=desc&order[constructor]=asc',
      '?order[nope]=desc&sort=-nope',
      `?search=${'é'.repeat(3000)}`,
      '?createdAt[after]=pas-une-date&createdAt[before]=2024-02-30',
      '?id[]=abc&holding=/api/holdings/abc&shop[]=%00',
      '?pagination=false&itemsPerPage=999999',
      '?page=99999999999999999999&limit=-5',
      '?dateFrom=2024-13-45&dateTo=x&status=%00',
      '?network.id=abc&network[]=/api/networks/-1',
      '?q[$gt]=&search[]=a&search[]=b',
    ];
    const junk: unknown[] = [
      null,
      123,
      -1,
      1e308,
      'x'.repeat(10_000),
      [],
      {},
      true,
      '/api/holdings/999999',
      '/api/holdings/abc',
      '2024-02-30',
      '\u0000',
      ['/api/shops/abc'],
      { '@id': '/api/users/1' },
    ];
    const fieldNames = [
      'name',
      'email',
      'password',
      'firstName',
      'lastName',
      'holding',
      'company',
      'shop',
      'shops',
      'roles',
      'permissions',
      'status',
      'code',
      'label',
      'mutual',
      'network',
      'ids',
      'data',
      'refresh_token',
      'pecDossierId',
      'run_id',
      'type',
      'outcome',
      'value',
      'login',
      'software',
      'numeroDossier',
      'patient',
      'amount',
      'price',
      'date',
      'createdAt',
    ];
    const bodies: { body: string; type?: string }[] = [
      { body: '' },
      { body: '{' },
      { body: 'null' },
      { body: '[]' },
      { body: '"x"' },
      { body: '123' },
      { body: '{}' },
      { body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
      { body: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
      { body: '{"a":1}', type: 'text/plain' },
      { body: JSON.stringify({ nested: JSON.parse('['.repeat(500) + ']'.repeat(500)) }) },
      ...junk.map((value) => ({ body: JSON.stringify(Object.fromEntries(fieldNames.map((f) => [f, value]))) })),
    ];
    if (process.argv.includes('--sweep-only')) {
      await app.close();
      process.exitCode = sweepLeaks.length || changed.length ? 1 : 0;
      return;
    }
    const fuzzJobs: { method: string; path: string; token?: string; body?: string; type?: string }[] = [];
    const someTokens = [undefined, tokens.lecture, tokens.horizonAdmin, tokens.admin];
    for (const route of routes) {
      if (route.path === '/api/events') continue; // a stream: opened by the tests, not fuzzed
      const paths = route.path.includes(':') ? ids.map((id) => route.path.replace(/:(\w+)/g, id)) : [route.path];
      if (route.path === '/api/callbacks/:type') paths.push('/api/callbacks/dpec', '/api/callbacks/scraping');
      for (const token of someTokens) {
        if (route.method === 'GET') {
          for (const path of paths) for (const query of queries) fuzzJobs.push({ method: 'GET', path: path + query, token });
        } else {
          // Sign-in checks a password (argon2): fewer of them.
          const routeBodies = route.path === '/api/login_check' && token ? [] : bodies;
          for (const path of paths.slice(0, route.path.includes(':') ? 6 : 1)) {
            for (const { body, type } of routeBodies)
              fuzzJobs.push({
                method: route.method,
                path,
                token,
                body,
                type: type ?? (route.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json'),
              });
          }
        }
      }
    }
    const fuzzStatuses = new Map<number, number>();
    const fatal: string[] = [];
    const started = Date.now();
    await pool(fuzzJobs, async (job) => {
      const res = await call(job.method, job.path, job).catch((error: Error) => ({ status: 0, text: error.message }));
      fuzzStatuses.set(res.status, (fuzzStatuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500 || res.status === 0)
        fatal.push(`${job.method} ${job.path.slice(0, 80)} ${job.body?.slice(0, 60) ?? ''} -> ${res.status} ${res.text.slice(0, 120)}`);
    });
    console.log(`Fuzz : ${fuzzJobs.length} requêtes en ${((Date.now() - started) / 1000).toFixed(0)} s, ${fatal.length} réponses ≥ 500 (ou sans réponse)`);
    console.log(`  statuts : ${JSON.stringify(Object.fromEntries([...fuzzStatuses].sort()))}`);
    for (const line of fatal.slice(0, 30)) console.log(`  ${line}`);

    await app.close();
    process.exitCode = sweepLeaks.length || changed.length || fatal.length ? 1 : 0;
  } finally {
    await database.close().catch(() => undefined);
    await withAdmin(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
