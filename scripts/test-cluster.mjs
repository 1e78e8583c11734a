// npm run test:cluster: Pecflow on several machines' worth of real parts, on one machine. PgBouncer (transaction
// pooling, deploy/pgbouncer.ini), 2 web and 2 worker instances of the compiled server, HAProxy in front
// (deploy/haproxy.cfg), a fresh PostgreSQL database (DATABASE_URL's server). Under 100 signed-in clients for 60 s and
// 300 DPEC runs through the simulator it kills a web instance and a worker (SIGKILL), restarts them, restarts every
// instance in turn (SIGTERM), and checks that no request is lost beyond those in flight on the killed instance, that
// every run ends exactly once, that live events and the login lockout cross instances. One line of figures at the end.
// CLUSTER_REPORT=file writes the checks as JSON (npm test counts them). Everything listens on 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './lib.mjs';

const HAPROXY = '/usr/sbin/haproxy';
const PGBOUNCER = '/usr/sbin/pgbouncer';
const LOAD_SECONDS = Number(process.env.CLUSTER_LOAD_SECONDS ?? 60);
const CLIENTS = 100;
const DPEC_RUNS = 300;
const DRAIN_DELAY_MS = 3000;
// The API family's per-address limit in the cluster: far above a load client's ~70 requests a minute, quick to reach for the check.
const API_RATE_LIMIT = 400;
const DEMO_PASSWORD = 'Pecflow2026!';
const SECRETS = {
  JWT_SECRET: 'cluster-test-jwt-secret-long-enough-0123456789',
  APP_SECRET_KEY: 'ab'.repeat(32),
  ROBOT_CALLBACK_SECRET: 'cluster-test-robot-callback-secret',
};
// The simulator's outcome follows the patient number's ending: expected file status and robot notification kind.
const OUTCOMES = [
  { suffix: '', share: 0.6, status: 'approved', kind: 'robot_success', steps: 2 },
  { suffix: '-REFUS', share: 0.1, status: 'rejected', kind: 'robot_refused', steps: 2 },
  { suffix: '-ATTENTE', share: 0.1, status: 'pending', kind: 'robot_pending', steps: 2 },
  { suffix: '-ERRSCRAP', share: 0.1, status: 'draft', kind: 'robot_error', steps: 1 },
  { suffix: '-ERRDPEC', share: 0.1, status: 'draft', kind: 'robot_error', steps: 2 },
];

const checks = [];
const check = (name, ok, detail = '') => {
  checks.push({ name, ok: Boolean(ok), detail });
  console.log(`  ${ok ? '✓' : '✗'} ${name}${detail ? ` — ${detail}` : ''}`);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (start) => ((Date.now() - start) / 1000).toFixed(1);

function report(extra) {
  if (process.env.CLUSTER_REPORT) writeFileSync(process.env.CLUSTER_REPORT, JSON.stringify({ checks, ...extra }));
}

/** haproxy and pgbouncer, installed from Debian's packages when missing and root (as npm test installs Chromium). */
function ensureTools() {
  if (existsSync(HAPROXY) && existsSync(PGBOUNCER)) return true;
  if (process.getuid?.() === 0) {
    console.log('→ Installation de haproxy et pgbouncer (paquets Debian)...');
    const install = () =>
      spawnSync('apt-get', ['install', '-y', 'haproxy', 'pgbouncer'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status;
    if (install() !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit' });
      install();
    }
  }
  return existsSync(HAPROXY) && existsSync(PGBOUNCER);
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

// ---------- processes ----------

const children = new Set();

function startProcess(name, command, args, { env = {}, onLine } = {}) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.name = name;
  child.output = [];
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  children.add(child);
  child.exited.then(() => children.delete(child));
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        if (onLine?.(line)) continue;
        if (child.output.push(line) > 200) child.output.shift();
      }
    });
  }
  return child;
}

function killAll() {
  for (const child of children) {
    child.expectedExit = true;
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

// ---------- HTTP clients ----------

/** One HTTP request; never throws: { status, headers, body, error, ms }. */
function call({ port, agent, method = 'GET', path: urlPath, token, body, headers = {}, timeoutMs = 90_000 }) {
  const started = performance.now();
  let local;
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent,
        headers: {
          accept: 'application/ld+json',
          ...(data ? { 'content-type': 'application/ld+json', 'content-length': Buffer.byteLength(data) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks = [];
        response.on('data', (c) => chunks.push(c));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = text;
          }
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: parsed,
            ms: performance.now() - started,
            local,
            reused: request.reusedSocket,
          });
        });
        response.on('error', (error) => resolve({ status: 0, error: error.code ?? error.message, ms: performance.now() - started, local }));
      },
    );
    // The client's address and port, to find a request that got no answer in HAProxy's log.
    request.on('socket', (socket) => {
      const grab = () => (local = `${socket.localAddress}:${socket.localPort}`);
      if (socket.localPort) grab();
      else socket.once('connect', grab);
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error) =>
      resolve({ status: 0, error: error.code ?? error.message, ms: performance.now() - started, local, reused: request.reusedSocket }),
    );
    request.end(data);
  });
}

async function waitHttp(port, urlPath, timeoutMs = 60_000, child) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && !children.has(child)) throw new Error(`${child.name} s'est arrêté :\n${child.output.slice(-15).join('\n')}`);
    const res = await call({ port, path: urlPath, timeoutMs: 2000 });
    if (res.status === 200) return;
    if (Date.now() > deadline) throw new Error(`127.0.0.1:${port}${urlPath} ne répond pas 200 (${res.status || res.error})`);
    await sleep(200);
  }
}

/** Opens GET /api/events and collects its events until closed. */
function openEvents(port, token) {
  const events = [];
  const request = http.get(
    { host: '127.0.0.1', port, path: '/api/events', headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } },
    (response) => {
      let buffer = '';
      response.on('data', (chunk) => {
        buffer += chunk;
        let index;
        while ((index = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event) events.push({ event, data: data ? JSON.parse(data) : undefined, at: Date.now() });
        }
      });
    },
  );
  request.on('error', () => undefined);
  return { events, close: () => request.destroy() };
}

// ---------- the cluster ----------

async function main() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.log('⚠ test:cluster ignoré : DATABASE_URL (un serveur PostgreSQL où créer une base) n’est pas défini.');
    report({ skipped: 'DATABASE_URL' });
    return 0;
  }
  if (!ensureTools()) {
    console.log('⚠ test:cluster ignoré : il faut les paquets Debian « haproxy » et « pgbouncer » (sudo apt-get install -y haproxy pgbouncer).');
    report({ skipped: 'haproxy/pgbouncer' });
    return 0;
  }
  const begin = Date.now();
  const { default: pg } = await import('pg');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer(root);

  const work = mkdtempSync(path.join(tmpdir(), 'pecflow-cluster-'));
  chmodSync(work, 0o755);
  const dbName = `pecflow_cluster_${Date.now().toString(36)}`;
  const admin = new URL(adminUrl);
  const directUrl = new URL(adminUrl);
  directUrl.pathname = `/${dbName}`;
  const withAdmin = async (fn) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  await withAdmin((c) => c.query(`CREATE DATABASE ${dbName}`));
  const direct = new pg.Pool({ connectionString: directUrl.toString(), max: 2 });

  try {
    // PgBouncer, from deploy/pgbouncer.ini: this database, loopback, trust (the test server's users have no password).
    const bouncerPort = await freePort();
    const bouncerIni = readFileSync(path.join(root, 'deploy/pgbouncer.ini'), 'utf8')
      .replace(/^pecflow = .*$/m, `${dbName} = host=${admin.hostname} port=${admin.port || 5432} dbname=${dbName}`)
      .replace(/^listen_addr = .*$/m, 'listen_addr = 127.0.0.1')
      .replace(/^listen_port = .*$/m, `listen_port = ${bouncerPort}`)
      .replace(/^auth_type = .*$/m, 'auth_type = trust')
      .replace(/^auth_file = .*$/m, `auth_file = ${work}/userlist.txt\nunix_socket_dir =`);
    writeFileSync(path.join(work, 'pgbouncer.ini'), bouncerIni, { mode: 0o644 });
    writeFileSync(path.join(work, 'userlist.txt'), `"${decodeURIComponent(admin.username) || 'postgres'}" ""\n`, { mode: 0o644 });
    // PgBouncer refuses to run as root: it switches to the postgres user then.
    const bouncer = startProcess('pgbouncer', PGBOUNCER, [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), path.join(work, 'pgbouncer.ini')]);
    const pooledUrl = new URL(directUrl);
    pooledUrl.port = String(bouncerPort);
    pooledUrl.hostname = '127.0.0.1';

    const haproxyPort = await freePort();
    const ports = { web1: await freePort(), web2: await freePort(), worker1: await freePort(), worker2: await freePort() };
    const baseEnv = {
      ...SECRETS,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: pooledUrl.toString(),
      DATABASE_DIRECT_URL: directUrl.toString(),
      DEMO_SEED: '1',
      PUBLIC_URL: `http://127.0.0.1:${haproxyPort}`,
      TRUST_PROXY: '1',
      // Rate limits counted in the machine's Redis, shared by the instances; a limit the check below can reach quickly.
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      RATE_LIMIT_REDIS_PREFIX: `pecflow-cluster-${process.pid}-${Date.now()}:`,
      RATE_LIMIT_API_MAX: String(API_RATE_LIMIT),
      DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
      ROBOT_SIM_DELAY_MS: '300',
      // Longer than a killed worker's jobs take to come back (their expiry, then pg-boss's maintenance).
      ROBOT_RUN_TIMEOUT_MS: '170000',
      LOG_LEVEL: 'warn',
      STATIC_DIR: path.join(work, 'no-front-end'),
    };
    const instances = {};
    const unexpectedExits = [];
    const sendSignal = (name, sig) => {
      instances[name].expectedExit = true;
      process.kill(instances[name].pid, sig);
    };
    const startInstance = (name) => {
      const role = name.startsWith('web') ? 'web' : 'worker';
      const env = {
        ...baseEnv,
        PECFLOW_ROLE: role,
        DATA_DIR: path.join(work, name),
        ...(role === 'web' ? { PORT: String(ports[name]) } : { PORT: '0', WORKER_HEALTH_PORT: String(ports[name]) }),
      };
      const child = startProcess(name, process.execPath, ['dist-server/main.js'], { env });
      instances[name] = child;
      child.exited.then(({ code, signal }) => {
        if (!child.expectedExit) {
          unexpectedExits.push(`${name} (${signal ?? code})`);
          console.error(`✗ ${name} s'est arrêté de lui-même (${signal ?? code}) :\n${child.output.slice(-20).join('\n')}`);
        }
      });
      return child;
    };
    const healthPath = (name) => (name.startsWith('web') ? '/api/health' : '/health');
    const waitInstance = (name) => waitHttp(ports[name], healthPath(name), 90_000, instances[name]);

    // HAProxy, from deploy/haproxy.cfg: logs on stdout, one plain listener, these instances.
    const haproxyCfg = readFileSync(path.join(root, 'deploy/haproxy.cfg'), 'utf8')
      .replace(/^\s*log \/dev\/log.*$/m, '    log stdout format raw local0')
      .replace(/^\s*option dontlognull$/m, '')
      .replace(/^\s*bind :80$/m, `    bind 127.0.0.1:${haproxyPort}`)
      .replace(/^\s*bind :443 .*$/m, '')
      .replace(/^\s*http-request redirect scheme https.*$/m, '')
      .replace(/^\s*server web1 .*$/m, `    server web1 127.0.0.1:${ports.web1} check`)
      .replace(/^\s*server web2 .*$/m, `    server web2 127.0.0.1:${ports.web2} check`);
    const haproxyFile = path.join(work, 'haproxy.cfg');
    writeFileSync(haproxyFile, haproxyCfg);
    const checked = spawnSync(HAPROXY, ['-c', '-q', '-f', haproxyFile], { encoding: 'utf8' });
    check('deploy/haproxy.cfg accepted by haproxy -c', checked.status === 0, (checked.stderr || '').trim().split('\n')[0]);
    if (checked.status !== 0) throw new Error(checked.stderr);
    const proxyLog = new Map();
    const proxyByClient = new Map();
    const proxyState = new Map();
    const haproxy = startProcess('haproxy', HAPROXY, ['-db', '-f', haproxyFile], {
      onLine(line) {
        // client [date] frontend backend/server timings status bytes flags conns queues id "request"
        const m = /^(\S+) \[[^\]]+\] \S+ (\S+)\/(\S+) \S+ (-?\d+) \S+ (\S+) \S+ \S+ (\S+) "/.exec(line);
        const state = /Server web\/(\w+) is (UP|DOWN)/.exec(line);
        if (state) proxyState.set(state[1], state[2]);
        if (!m) return false;
        const entry = { client: m[1], server: m[3], status: Number(m[4]), flags: m[5], line };
        proxyLog.set(m[6], entry);
        if (!proxyByClient.has(m[1])) proxyByClient.set(m[1], []);
        proxyByClient.get(m[1]).push(entry);
        return true;
      },
    });

    // Start-up: the four instances at once (one migrates and seeds under the lock, the others wait).
    const startAt = Date.now();
    for (const name of Object.keys(ports)) startInstance(name);
    await Promise.all(Object.keys(ports).map(waitInstance)).catch((error) => {
      for (const child of Object.values(instances)) console.error(`[${child.name}]\n${child.output.slice(-20).join('\n')}`);
      console.error(`[pgbouncer]\n${bouncer.output.slice(-20).join('\n')}`);
      throw error;
    });
    await waitHttp(haproxyPort, '/api/health', 20_000, haproxy);
    const startSeconds = since(startAt);
    const migrations = await direct.query('select count(*)::int as n from drizzle.__drizzle_migrations');
    check(
      '4 instances started together, migrations applied once',
      migrations.rows[0].n === readdirCount(path.join(root, 'server/db/migrations')),
      `${startSeconds} s`,
    );

    // ---------- clients ----------
    const accounts = [
      'audio@audition-horizon.fr',
      'direction@audition-horizon.fr',
      'assistant@audition-horizon.fr',
      'admin@pecflow.fr',
      'direction@optique-riviera.fr',
    ];
    const requests = [];
    const inFlight = new Set();
    let phase = 'warm-up';
    let loadOver = false;
    /** Through HAProxy, from the client's own loopback address (the proxy sees 100 clients). */
    async function proxied(client, options) {
      const entry = { method: options.method ?? 'GET', path: options.path.split('?')[0].replace(/\/\d+(?=\/|$)/g, '/{id}'), phase, start: Date.now() };
      inFlight.add(entry);
      const res = await call({ port: haproxyPort, agent: client.agent, token: client.token, ...options });
      inFlight.delete(entry);
      Object.assign(entry, {
        end: Date.now(),
        status: res.status,
        error: res.error,
        id: res.headers?.['x-request-id'],
        ms: res.ms,
        local: res.local,
        reused: res.reused,
      });
      requests.push(entry);
      return res;
    }
    const clients = Array.from({ length: CLIENTS }, (_, i) => ({
      email: accounts[i % accounts.length],
      agent: new http.Agent({ keepAlive: true, maxSockets: 2, localAddress: `127.0.${1 + Math.floor((i + 2) / 250)}.${((i + 2) % 250) + 1}` }),
    }));
    for (let i = 0; i < clients.length; i += 10) {
      await Promise.all(
        clients.slice(i, i + 10).map(async (client) => {
          const res = await proxied(client, { method: 'POST', path: '/api/login_check', body: { email: client.email, password: DEMO_PASSWORD } });
          if (res.status !== 200) throw new Error(`connexion de ${client.email} : ${res.status} ${JSON.stringify(res.body ?? res.error)}`);
          client.token = res.body.token;
        }),
      );
    }
    const refs = await direct.query(
      `select (select id from shops where name = 'Horizon Paris Bastille') as shop, (select id from mutuals where name = 'Allianz') as mutual`,
    );
    const { shop, mutual } = refs.rows[0];

    const READS = ['/api/pec_dossiers?page=1&itemsPerPage=30', '/api/notifications', '/api/user/profile', '/api/shops?page=1', '/api/pec_dossiers/stats'];
    const browse = async (client) => {
      while (!loadOver) {
        await proxied(client, { path: READS[Math.floor(Math.random() * READS.length)] });
        await sleep(500 + Math.random() * 1000);
      }
    };
    // 300 DPEC runs, spread over the load by the clients signed in with pec.create on Paris Bastille.
    const runners = clients.filter((c) => c.email === 'audio@audition-horizon.fr' || c.email === 'direction@audition-horizon.fr');
    const plan = Array.from({ length: DPEC_RUNS }, (_, i) => {
      let x = (i % 20) / 20;
      return OUTCOMES.find((o) => (x -= o.share) < 0) ?? OUTCOMES[0];
    });
    let started = 0;
    const runPrefix = `CLU${Date.now().toString(36).toUpperCase()}`;
    // Run n starts at its slot of the load's first 45 seconds (or at once when late).
    const slot = (n) => sleep(loadStart + (n * (LOAD_SECONDS - 15) * 1000) / DPEC_RUNS - Date.now());
    const startAttempts = new Map();
    const runDpec = async (client) => {
      while (!loadOver) {
        const n = started++;
        if (n >= plan.length) return;
        await slot(n);
        const outcome = plan[n];
        const created = await proxied(client, {
          method: 'POST',
          path: '/api/pec_dossiers',
          body: {
            shop: `/api/shops/${shop}`,
            mutual: `/api/mutuals/${mutual}`,
            numeroDossierAssure: `${runPrefix}-${n}${outcome.suffix}`,
            numeroDevisAssure: `DEV-${n}`,
            commentaire: 'Test de grappe',
          },
        });
        if (created.status === 201) {
          const id = created.body.id ?? Number(String(created.body['@id']).split('/').pop());
          for (let attempt = 0; attempt < 5; attempt++) {
            const res = await proxied(client, {
              method: 'POST',
              path: '/api/robot-frontend/setup-and-create-dpec',
              body: { pecDossierId: `/api/pec_dossiers/${id}` },
            });
            startAttempts.set(`${runPrefix}-${n}${outcome.suffix}`, [
              ...(startAttempts.get(`${runPrefix}-${n}${outcome.suffix}`) ?? []),
              res.status || res.error,
            ]);
            if (res.status === 200 || res.status === 409) break;
            await sleep(500);
          }
        } else plan.push(outcome); // not created (lost on the killed instance): planned again at the end
      }
    };

    // ---------- the load, with failures and restarts ----------
    phase = 'load';
    const loadStart = Date.now();
    const load = [...clients.map(browse), ...runners.map(runDpec)];
    const at = (seconds) => sleep(Math.max(0, loadStart + seconds * 1000 - Date.now()));
    const serverUp = async (name) => {
      const deadline = Date.now() + 30_000;
      while (proxyState.get(name) !== 'UP' && Date.now() < deadline) await sleep(100);
    };

    // SIGKILL one web instance and one worker, then start them again.
    await at(10);
    const inFlightAtKill = [...inFlight].length;
    phase = 'kill';
    const killTime = Date.now();
    sendSignal('web1', 'SIGKILL');
    sendSignal('worker1', 'SIGKILL');
    await Promise.all([instances.web1.exited, instances.worker1.exited]);
    await sleep(2000);
    startInstance('web1');
    startInstance('worker1');
    await Promise.all([waitInstance('web1'), waitInstance('worker1')]);
    await serverUp('web1');
    const killEnd = Date.now();

    // Rolling restart under load: SIGTERM each instance in turn, wait for its clean exit, start it again.
    phase = 'rolling';
    const rollingStart = Date.now();
    const exits = [];
    for (const name of ['web1', 'web2', 'worker1', 'worker2']) {
      sendSignal(name, 'SIGTERM');
      const { code, signal } = await instances[name].exited;
      exits.push(`${name}:${signal ?? code}`);
      if (name.startsWith('web')) proxyState.set(name, 'DOWN?');
      startInstance(name);
      await waitInstance(name);
      // Back in HAProxy's rotation before the next one stops.
      if (name.startsWith('web')) await serverUp(name);
    }
    const rollingEnd = Date.now();
    const rollingSeconds = since(rollingStart);
    phase = 'load';
    check(
      'rolling restart: every instance exits cleanly on SIGTERM',
      exits.every((e) => e.endsWith(':0')),
      exits.join(' '),
    );

    // A live event made through one instance reaches a client connected to the other; the login lockout holds across them.
    const liveMs = await liveEventAcrossInstances(ports, clients[1].token, shop, mutual);
    check('a live event made through web2 reaches a stream on web1', liveMs !== undefined, liveMs !== undefined ? `${liveMs} ms` : 'not received within 10 s');
    const kept = await keptListsAcrossInstances(ports);
    check('a list kept by web2 shows a change made through web1 in its next read', kept.ok, kept.detail);
    const lockout = await loginLockoutAcrossInstances(ports, direct);
    check('a login lockout made on web1 holds on web2', lockout.ok, lockout.detail);
    const documents = await documentsAcrossInstances(ports);
    check('a document uploaded through web1 is downloaded whole through web2', documents.ok, documents.detail);
    const rateLimit = await perIpRateLimitsAcrossInstances(ports, clients[0].token);
    check('the per-IP rate limit reached on web1 holds on web2', rateLimit.ok, rateLimit.detail);

    await at(LOAD_SECONDS);
    loadOver = true;
    await Promise.all(load);
    check('no instance stopped by itself', unexpectedExits.length === 0, unexpectedExits.join(', '));
    const loadSeconds = since(loadStart);

    // ---------- outcomes ----------
    const failed = requests.filter((r) => r.status === 0 || r.status >= 500);
    // A failed request is explained when HAProxy logged it on web1, cut by the server's side (flags S…), and it was
    // sent before the SIGKILL; one that got no answer at all is found in the log by its client address and port.
    const proxyEntry = (r) => (r.id ? proxyLog.get(r.id) : proxyByClient.get(r.local)?.find((l) => l.server === 'web1' && /^S/.test(l.flags)));
    // HAProxy answers 502 for a request cut on a fresh server connection, and closes the client's connection without a
    // word for one cut on a reused connection (http-reuse safe: a browser then retries it): a reset of a reused client
    // connection at the instant of the SIGKILL is a request in flight on the killed instance too.
    const cutOnWeb1 = (r) => proxyEntry(r)?.server === 'web1' && /^S/.test(proxyEntry(r)?.flags ?? '');
    const resetAtKill = (r) => r.status === 0 && r.error === 'ECONNRESET' && r.reused && r.end - killTime < 3000;
    // A request sent just after the SIGKILL on a client connection whose server connection was web1's (HAProxy has not
    // seen it die yet) is reset the same way: it went to the killed instance too.
    const onKilled = failed.filter(
      (r) => (r.start <= killTime && r.end >= killTime && (cutOnWeb1(r) || resetAtKill(r))) || (r.start > killTime && resetAtKill(r)),
    );
    const silentlyClosed = onKilled.filter((r) => !cutOnWeb1(r)).length;
    const unexplained = failed.filter((r) => !onKilled.includes(r));
    // Requests HAProxy sent again to the other instance (refused connection, or a read cut by the SIGKILL): retries > 0.
    const retried = [...proxyLog.values()].filter((l) => /^(\S+ ){8}\S*\/\S*\/\S*\/\S*\/\+?[1-9]/.test(l.line)).length;
    const failureKind = (r) =>
      `${r.method} ${r.status || r.error} ${proxyEntry(r)?.server ?? '?'} ${proxyEntry(r)?.flags ?? ''} t${Math.round((r.end - killTime) / 1000)}s`;
    const unexplainedText = unexplained.length
      ? `; unexplained: ${JSON.stringify(unexplained.slice(0, 3).map((r) => ({ ...r, proxy: proxyEntry(r)?.line })))}; by kind: ${JSON.stringify(countBy(unexplained, failureKind))}`
      : '';
    check(
      'no request lost beyond those in flight on the killed web instance',
      unexplained.length === 0,
      `${requests.length} requests, ${failed.length} failed: ${onKilled.length} in flight on web1 at its SIGKILL (${onKilled.length - silentlyClosed} answered 502, ${silentlyClosed} connections closed by HAProxy; ${inFlightAtKill} in flight overall)${unexplainedText}`,
    );
    const duringRolling = requests.filter((r) => r.end >= rollingStart && r.start <= rollingEnd);
    const lostRolling = duringRolling.filter((r) => r.status === 0 || r.status >= 500);
    check(
      'rolling restart under load loses no request',
      lostRolling.length === 0,
      `${duringRolling.length} requests in ${rollingSeconds} s, ${lostRolling.length} lost${lostRolling.length ? `: ${JSON.stringify(lostRolling.slice(0, 3))}` : ''}`,
    );
    const other = requests.filter((r) => r.status >= 400 && r.status < 500 && !(r.path.includes('setup-and-create-dpec') && r.status === 409));
    check('no request refused (4xx) under load', other.length === 0, other.length ? JSON.stringify(other.slice(0, 3)) : '');

    // Every run ends exactly once, with the outcome its patient number asks for.
    const waitStart = Date.now();
    let runs;
    for (;;) {
      runs = (
        await direct.query(
          `select d.id, d.numero_dossier_assure as patient, d.status, d.created_by_id as creator,
              count(e.id)::int as steps, count(distinct e.run_id)::int as runs, count(e.id) filter (where e.completed_at is null)::int as open,
              (select count(*)::int from notifications n where n.dossier_id = d.id and n.user_id = d.created_by_id and n.kind like 'robot_%') as notified,
              (select string_agg(n.kind, ',') from notifications n where n.dossier_id = d.id and n.user_id = d.created_by_id and n.kind like 'robot_%') as kinds
            from pec_dossiers d left join workflow_executions e on e.dossier_id = d.id
            where d.numero_dossier_assure like $1 group by d.id`,
          [`${runPrefix}-%`],
        )
      ).rows.filter((r) => r.runs > 0 || startAttempts.has(r.patient)); // a file whose creation was cut by the SIGKILL had no run asked
      if (runs.every((r) => r.open === 0 && r.runs > 0) || Date.now() - waitStart > 120_000) break;
      await sleep(1000);
    }
    const drainSeconds = since(waitStart);
    const wrong = runs.filter((r) => {
      const expected = OUTCOMES.find((o) => o.suffix && r.patient.endsWith(o.suffix)) ?? OUTCOMES[0];
      return r.runs !== 1 || r.open !== 0 || r.steps !== expected.steps || r.status !== expected.status || r.notified !== 1 || r.kinds !== expected.kind;
    });
    const statuses = {};
    for (const r of runs) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const byStatus = Object.entries(statuses)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    check(
      `every DPEC run (${runs.length}) ended exactly once with its expected outcome`,
      runs.length >= DPEC_RUNS && wrong.length === 0,
      `${byStatus}; last ended ${drainSeconds} s after the load${wrong.length ? `; wrong: ${JSON.stringify(wrong.slice(0, 5).map((r) => ({ ...r, attempts: startAttempts.get(r.patient) })))}` : ''}`,
    );

    if (process.env.CLUSTER_DEBUG) {
      const buckets = {};
      for (const r of requests) {
        const b = Math.floor((r.start - loadStart) / 5000) * 5;
        buckets[b] = buckets[b] ?? { n: 0, fail: 0, ms: 0 };
        buckets[b].n++;
        buckets[b].ms += r.ms;
        if (r.status === 0 || r.status >= 500) buckets[b].fail++;
      }
      console.log(
        Object.entries(buckets)
          .map(([b, v]) => `${b}s: ${v.n} req, ${v.fail} failed, avg ${Math.round(v.ms / v.n)} ms`)
          .join('\n'),
      );
      console.log({ killAt: (killTime - loadStart) / 1000, killEnd: (killEnd - loadStart) / 1000, rollingStart: (rollingStart - loadStart) / 1000 });
    }
    const sorted = requests.map((r) => r.ms).sort((a, b) => a - b);
    const pct = (p) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
    const figures =
      `cluster: ${CLIENTS} clients ${loadSeconds} s, ${requests.length} requests (${Math.round(requests.length / Number(loadSeconds))}/s, p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, p99 ${pct(0.99)} ms), ` +
      `SIGKILL web1+worker1: ${onKilled.length} lost, all in flight on web1 (${onKilled.length - silentlyClosed} 502, ${silentlyClosed} closed connections; ${retried} requests sent again by HAProxy), ${unexplained.length} other lost; rolling restart of 4 in ${rollingSeconds} s: ${lostRolling.length} lost; ` +
      `${runs.length} DPEC runs ended once (${byStatus}), all ended ${drainSeconds} s after the load; live event across instances ${liveMs ?? '—'} ms; lockout across instances ${lockout.ok ? 'held' : 'FAILED'}; ` +
      `start of 4 instances ${startSeconds} s; total ${since(begin)} s`;
    console.log(`\n${figures}`);
    report({ figures });
    return checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    killAll();
    await direct.end().catch(() => undefined);
    await sleep(300);
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)).catch((error) =>
      console.error(`base ${dbName} non supprimée : ${error.message}`),
    );
    rmSync(work, { recursive: true, force: true });
  }
}

const countBy = (list, key) => {
  const counts = {};
  for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
};

const readdirCount = (dir) => readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8').match(/"tag"/g).length;

/** A file changed through web2 (a patch) shows up on an event stream opened on web1: LISTEN/NOTIFY between instances. */
async function liveEventAcrossInstances(ports, token, shop, mutual) {
  const stream = openEvents(ports.web1, token);
  try {
    const ready = Date.now() + 5000;
    while (!stream.events.some((e) => e.event === 'ready') && Date.now() < ready) await sleep(50);
    const sent = Date.now();
    const created = await call({
      port: ports.web2,
      method: 'POST',
      path: '/api/pec_dossiers',
      token,
      body: {
        shop: `/api/shops/${shop}`,
        mutual: `/api/mutuals/${mutual}`,
        numeroDossierAssure: `LIVE-${Date.now()}`,
        numeroDevisAssure: 'DEV-LIVE',
        commentaire: 'Événement en direct',
      },
    });
    if (created.status !== 201) return undefined;
    const id = created.body.id ?? Number(String(created.body['@id']).split('/').pop());
    for (;;) {
      const event = stream.events.find((e) => e.event === 'dossier' && e.data?.dossierId === id);
      if (event) return event.at - sent;
      if (Date.now() - sent > 10_000) return undefined;
      await sleep(20);
    }
  } finally {
    stream.close();
  }
}

/** The failed logins of one account on web1 lock it on web2 too (the attempts are in the database). */
/**
 * Lists kept by each instance (server/hydra/listCache.ts) hear the writes made through the others: web2 keeps the
 * companies' list, a company is renamed through web1, and web2's very next read shows the new name.
 */
async function keptListsAcrossInstances(ports) {
  const login = await call({ port: ports.web1, method: 'POST', path: '/api/login_check', body: { email: 'admin@pecflow.fr', password: DEMO_PASSWORD } });
  const token = login.body?.token;
  if (!token) return { ok: false, detail: `admin login: ${login.status}` };
  const list = () => call({ port: ports.web2, path: '/api/companies?itemsPerPage=100', token });
  const before = await list();
  await list();
  const company = before.body?.member?.[0];
  if (!company) return { ok: false, detail: `companies on web2: ${before.status}` };
  const name = `Entreprise grappe ${Date.now()}`;
  const patched = await call({
    port: ports.web1,
    method: 'PATCH',
    path: company['@id'],
    token,
    body: { name },
    headers: { 'content-type': 'application/merge-patch+json' },
  });
  const shown = (await list()).body?.member?.some((c) => c.name === name) === true;
  return {
    ok: patched.status === 200 && shown,
    detail: `PATCH through web1: ${patched.status}; web2's next read ${shown ? 'shows' : 'does not show'} the new name`,
  };
}

/** A PEC file's document (issue 29) lives in PostgreSQL: uploaded on one instance, the other serves its bytes. */
async function documentsAcrossInstances(ports) {
  const base = (port) => `http://127.0.0.1:${port}`;
  const login = await call({
    port: ports.web1,
    method: 'POST',
    path: '/api/login_check',
    body: { email: 'direction@audition-horizon.fr', password: DEMO_PASSWORD },
  });
  const auth = { authorization: `Bearer ${login.body?.token}` };
  const files = await call({ port: ports.web1, path: '/api/pec_dossiers?itemsPerPage=1', token: login.body?.token });
  const dossier = files.body?.member?.[0]?.['@id'];
  if (!dossier) return { ok: false, detail: `no file to attach to: ${files.status}` };
  // A well-formed PDF of about 300 kB (two stored chunks), random inside.
  const stream = randomBytes(300_000);
  const head = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n');
  const body = Buffer.concat([head, Buffer.from(`3 0 obj\n<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from('\nendstream\nendobj\n')]);
  const pdf = Buffer.concat([body, Buffer.from(`xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n${body.length}\n%%EOF\n`)]);
  const form = new FormData();
  form.set('dossier', dossier);
  form.set('kind', 'other');
  form.set('file', new Blob([pdf], { type: 'application/pdf' }), 'grappe.pdf');
  const created = await fetch(`${base(ports.web1)}/api/pec_documents`, { method: 'POST', headers: auth, body: form });
  const document = await created.json().catch(() => ({}));
  if (created.status !== 201) return { ok: false, detail: `upload through web1: ${created.status} ${JSON.stringify(document)}` };
  const served = await fetch(`${base(ports.web2)}${document.contentUrl}`, { headers: auth });
  const bytes = Buffer.from(await served.arrayBuffer());
  const same = createHash('sha256').update(bytes).digest('hex') === createHash('sha256').update(pdf).digest('hex');
  await fetch(`${base(ports.web2)}${document['@id']}`, { method: 'DELETE', headers: auth });
  return {
    ok: served.status === 200 && same,
    detail: `upload through web1: 201; web2 serves ${served.status}, ${bytes.length} bytes, ${same ? 'the same' : 'NOT the same'}`,
  };
}

async function loginLockoutAcrossInstances(ports, direct) {
  const email = 'lecture@audition-horizon.fr';
  const { rows } = await direct.query(`select value from configs where key = 'security.login_max_attempts'`).catch(() => ({ rows: [] }));
  const max = Number(rows[0]?.value ?? 5) || 5;
  for (let i = 0; i < max; i++) await call({ port: ports.web1, method: 'POST', path: '/api/login_check', body: { email, password: 'mauvais-mot-de-passe' } });
  const res = await call({ port: ports.web2, method: 'POST', path: '/api/login_check', body: { email, password: DEMO_PASSWORD } });
  return { ok: res.status === 429, detail: `${max} failures on web1, then the right password on web2: ${res.status}` };
}

/**
 * Per-IP rate limits hold across instances (issue "Hardening": @fastify/rate-limit with a shared Redis store): the
 * budget spent on web1 is spent on web2. Applies once the server sends the x-ratelimit-* headers.
 */
/** The API family's limit of one address, spent on web1, holds on web2 (both count in the one Redis); another address is not affected. */
async function perIpRateLimitsAcrossInstances(ports, token) {
  // Addresses outside the load clients' 127.0.1.x/127.0.2.x, given as the proxy would (TRUST_PROXY).
  const client = { 'x-forwarded-for': '127.0.9.1' };
  const path = '/api/user/profile';
  let sent = 0;
  let status = 200;
  while (status !== 429 && sent <= API_RATE_LIMIT) {
    status = (await call({ port: ports.web1, path, token, headers: client })).status;
    sent += 1;
  }
  const other = await call({ port: ports.web2, path, token, headers: client });
  const stranger = await call({ port: ports.web2, path, token, headers: { 'x-forwarded-for': '127.0.9.2' } });
  const ok = status === 429 && sent === API_RATE_LIMIT + 1 && other.status === 429 && Number(other.headers?.['retry-after']) >= 1 && stranger.status === 200;
  return {
    ok,
    detail: `limit ${API_RATE_LIMIT} reached on web1 after ${sent - 1} requests, then web2 answers ${other.status} to that address and ${stranger.status} to another`,
  };
}

let exitCode = 1;
process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});
try {
  exitCode = await main();
} catch (error) {
  console.error(`✗ test:cluster : ${error instanceof Error ? error.stack : error}`);
  check('cluster test ran to the end', false, error instanceof Error ? error.message : String(error));
  report({});
  killAll();
}
process.exit(exitCode);
