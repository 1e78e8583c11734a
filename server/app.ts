// buildApp(): the Fastify instance with every route. Used by main.ts and by the tests.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/connect';
import { authPlugin } from './auth/plugin';
import { authRoutes } from './auth/routes';
import { TokenService } from './auth/tokens';
import { PrincipalCache } from './auth/principal';
import { SettingsService } from './settings';
import { ApiError, clientErrorHandler, errorHandler, notFound, sendProblem } from './http/errors';
import { docsLinkHeader } from './http/links';
import { jsonBodyParsers } from './http/body';
import { notificationRoutes } from './notifications/routes';
import { pecPlugin } from './pec/services';
import type { AppContext } from './context';
import { SecretBox } from './crypto';
import { ResourceRegistry } from './hydra/registry';
import { hydraRoutes } from './hydra/routes';
import { RESOURCES } from './resources';
import { metricsPlugin } from './metrics';
import '../src/domain/zodLocale';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** The server answers 503 until this is set (main.ts sets it once migrations and seed are done). */
  ready?: boolean;
}

export type App = FastifyInstance & {
  markReady(): void;
  /** Graceful stop (server/server.ts): health answers 503 so the proxy stops sending, every answer closes its connection. */
  markDraining(): void;
};


export async function buildApp({ config, database, ready = true }: BuildAppOptions): Promise<App> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // One line per answered request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler,
    bodyLimit: 5 * 1024 * 1024,
    trustProxy: process.env.TRUST_PROXY === '1',
    // Behind the proxy, the request id it sets (deploy/haproxy.cfg) is the one in the logs.
    requestIdHeader: process.env.TRUST_PROXY === '1' ? 'x-request-id' : false,
    routerOptions: { ignoreTrailingSlash: true },
  });

  const settings = new SettingsService(database.db);
  const ctx = { config, database, db: database.db, settings, secrets: new SecretBox(config.appSecretKey) } as AppContext;
  app.decorate('ctx', ctx);
  ctx.tokens = new TokenService(app, database.db, settings);
  ctx.principals = new PrincipalCache(database);
  ctx.resources = new ResourceRegistry(RESOURCES, ctx);

  let isReady = ready;
  let draining = false;
  app.setErrorHandler(errorHandler);
  jsonBodyParsers(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // MUI (emotion) injects its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // Bearer tokens, no cookies: any origin may call the API; the Link header must be readable by it.
  await app.register(fastifyCors, { origin: true, exposedHeaders: ['Link'], maxAge: 600 });

  app.addHook('onRequest', async (request, reply) => {
    if (!isReady && request.url.startsWith('/api') && !request.url.startsWith('/api/health')) {
      reply.header('Retry-After', '2');
      throw new ApiError(503, 'Le serveur démarre, réessayez dans un instant.');
    }
  });
  // The request line without its query string: searches may carry patient numbers. Health checks are not logged.
  app.addHook('onResponse', async (request, reply) => {
    if (request.url === '/api/health') return;
    request.log.info(
      { method: request.method, path: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, user: request.principal?.id },
      'requête',
    );
  });
  // Every API response, errors included, points to the Hydra documentation.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api')) reply.header('Link', docsLinkHeader(request));
  });

  app.get('/api/health', { config: { public: true } }, async (_request, reply) =>
    draining ? reply.status(503).send({ status: 'stopping' }) : isReady ? { status: 'ok' } : reply.status(503).send({ status: 'starting' }),
  );
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  await app.register(metricsPlugin);

  await app.register(authPlugin);
  await app.register(authRoutes);
  await app.register(notificationRoutes);
  // PEC back end: robot runs, callbacks, jobs, live events, export/import/stats; workers start when the app is ready.
  await app.register(pecPlugin, { autoStart: ready });
  await app.register(hydraRoutes);

  // The built front end, with the single-page fallback for its routes.
  const indexFile = path.join(config.staticDir, 'index.html');
  const hasFrontEnd = existsSync(indexFile);
  if (hasFrontEnd) {
    await app.register(fastifyStatic, {
      root: config.staticDir,
      wildcard: true,
      index: 'index.html',
      // The build writes .br and .gz beside each asset (scripts/compress.mjs): served to browsers that accept them.
      preCompressed: true,
      setHeaders(reply, filePath) {
        reply.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    // Only page routes fall back to the application; a missing file (/assets/x.js) stays a 404.
    const isFile = /\.[a-z0-9]+$/i.test(request.url.split('?')[0]!);
    if (request.url.startsWith('/api') || request.method !== 'GET' || !hasFrontEnd || isFile) {
      return sendProblem(request, reply, notFound('Ressource introuvable.'));
    }
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  });

  return Object.assign(app, {
    markReady() {
      isReady = true;
    },
    markDraining() {
      draining = true;
    },
  }) as unknown as App;
}
