// One Pecflow instance in its role (PECFLOW_ROLE), started and stopped gracefully. Used by main.ts and by the tests.
// Start: database -> listen (503 until ready) -> migrate and seed under one lock -> ready -> workers.
// Stop (SIGTERM): not ready (health 503, every answer closes its connection) -> DRAIN_DELAY_MS for the proxy to notice
// -> event streams ended (clients reconnect elsewhere), no new job fetched, jobs in hand finished or handed back,
// requests in flight answered -> exit.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from './app';
import type { Config } from './config';
import type { Database } from './db/connect';
import { openDatabase } from './db/open';
import { seed } from './seed';
import { ensureListTriggers } from './hydra/listTriggers';
import { RESOURCES } from './resources';

export interface RunningServer {
  role: Config['role'];
  app: App;
  database: Database;
  /** The API's address (web and all roles). */
  url?: string;
  /** A worker's health address (WORKER_HEALTH_PORT). */
  healthUrl?: string;
  /** The metrics' address (METRICS_PORT). */
  metricsUrl?: string;
  seededDemo: boolean;
  /** Graceful stop; resolves once everything is closed. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** An open database to use (tests); it is left open at the stop. */
  database?: Database;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tiny side server on its own port (metrics, a worker's health): never the API. */
async function sideServer(
  port: number,
  host: string,
  handle: (path: string) => Promise<{ status: number; type: string; body: string }>,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    handle((request.url ?? '/').split('?')[0]!)
      .then(({ status, type, body }) => response.writeHead(status, { 'content-type': type }).end(body))
      .catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}` };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections());
const NOT_FOUND = { status: 404, type: 'text/plain', body: 'Not Found' };

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const database = options.database ?? (await openDatabase(config));
  const app = await buildApp({ config, database, ready: false });
  const sides: Server[] = [];
  let ready = false;
  // The last request other than a health check: a stopping instance waits for the proxy to stop sending.
  let lastRequestAt = 0;
  app.addHook('onRequest', async (request) => {
    if (request.url !== '/api/health') lastRequestAt = Date.now();
  });
  let stopping: Promise<void> | undefined;

  let metricsUrl: string | undefined;
  if (config.metricsPort !== undefined) {
    const registry = app.ctx.metrics.registry;
    const side = await sideServer(config.metricsPort, config.host, async (path) =>
      path === '/metrics' ? { status: 200, type: registry.contentType, body: await registry.metrics() } : NOT_FOUND,
    );
    sides.push(side.server);
    metricsUrl = `${side.url}/metrics`;
  }

  let url: string | undefined;
  let healthUrl: string | undefined;
  if (config.role === 'worker') {
    await app.ready();
    if (config.workerHealthPort !== undefined) {
      const side = await sideServer(config.workerHealthPort, config.host, async (path) => {
        if (path !== '/health') return NOT_FOUND;
        const status = stopping ? 'stopping' : ready ? 'ok' : 'starting';
        return { status: status === 'ok' ? 200 : 503, type: 'application/json', body: JSON.stringify({ status, role: 'worker' }) };
      });
      sides.push(side.server);
      healthUrl = `${side.url}/health`;
    }
  } else {
    await app.listen({ port: config.port, host: config.host });
    const { port } = app.server.address() as AddressInfo;
    url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  }

  let seededDemo = false;
  try {
    await database.migrate(async () => {
      await ensureListTriggers(database, RESOURCES);
      seededDemo = await seed(database, {
        demo: config.demoSeed,
        appSecretKey: config.appSecretKey,
        robotMode: config.robotMode,
        robotUrl: config.robotUrl,
        adminEmail: process.env.ADMIN_EMAIL,
        adminPassword: process.env.ADMIN_PASSWORD,
      });
      // pg-boss installs its schema and queues here too: instances starting together would deadlock on that DDL.
      await app.ctx.pec.jobs.start();
    });
    // The tables given their list trigger just now: their lists are kept from now on.
    await app.ctx.lists.readWatched();
    app.markReady();
    ready = true;
    // Robot runs, run timeouts and the daily schedules: worker and all roles (config.startWorkers).
    await app.ctx.pec.startWorkers();
  } catch (error) {
    await app.close().catch(() => undefined);
    for (const server of sides) await closeServer(server);
    if (!options.database) await database.close().catch(() => undefined);
    throw error;
  }

  const stop = () =>
    (stopping ??= (async () => {
      app.markDraining();
      if (config.role !== 'worker' && config.drainDelayMs > 0) {
        const since = Date.now();
        await sleep(config.drainDelayMs);
        // A proxy slower than expected to notice still sends requests: wait for a quiet second (within the timeout).
        while (Date.now() - lastRequestAt < 1000 && Date.now() - since < config.drainDelayMs + config.shutdownTimeoutMs) await sleep(100);
      }
      // Fastify's close runs the preClose hooks (event streams ended, jobs finished or handed back), stops accepting
      // connections and waits for the requests in flight.
      const timer = setTimeout(() => app.server.closeAllConnections(), config.shutdownTimeoutMs);
      await app.close().catch((error) => app.log.error({ err: error }, 'arrêt'));
      clearTimeout(timer);
      for (const server of sides) await closeServer(server);
      if (!options.database) await database.close().catch(() => undefined);
    })());

  return { role: config.role, app, database, url, healthUrl, metricsUrl, seededDemo, stop };
}
