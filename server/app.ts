// buildApp(): the Fastify instance with every route. Used by main.ts and by the tests.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from './config';
import type { Database } from './db/connect';
import { authPlugin } from './auth/plugin';
import { authRoutes } from './auth/routes';
import { accountRoutes } from './auth/accountRoutes';
import { withoutLinkToken } from './auth/accounts';
import { ApiError, badRequest, clientErrorHandler, errorHandler, MAX_PARAM_LENGTH, notFound, sendProblem, urlProblem } from './http/errors';
import { rateLimitPlugin } from './http/rateLimits';
import { COMPRESSION_THRESHOLD, ENCODINGS } from './http/compression';
import { docsLinkHeader } from './http/links';
import { jsonBodyParsers } from './http/body';
import { notificationRoutes } from './notifications/routes';
import { pecPlugin } from './pecServices';
import { createAppContext } from './createContext';
import { hydraRoutes } from './hydra/routes';
import { metricsPlugin } from './metrics';
import { REQUEST_BODY_LIMIT_MB } from '#domain/systemSettings';
import '#domain/zodLocale';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** The server answers 503 until this is set (main.ts sets it once migrations and seed are done). */
  ready?: boolean;
  /** Where the log lines go instead of the standard output (the tests read them). */
  logStream?: { write(line: string): void };
}

export type App = FastifyInstance & {
  markReady(): void;
  /** Graceful stop (server/server.ts): health answers 503 so the proxy stops sending, every answer closes its connection. */
  markDraining(): void;
};

/** The route a refused /api address is sent to, the refusal riding on the raw request (see urlProblem). */
const URL_PROBLEM_ROUTE = '/api/.url-problem';
const urlProblems = new WeakMap<object, ApiError>();

export async function buildApp({ config, database, ready = true, logStream }: BuildAppOptions): Promise<App> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, ...(logStream ? { stream: logStream } : {}) },
    // One line per answered request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler,
    bodyLimit: REQUEST_BODY_LIMIT_MB * 1024 * 1024,
    trustProxy: config.trustProxy,
    // Behind the proxy, the request id it sets (deploy/haproxy.cfg) is the one in the logs.
    requestIdHeader: config.trustProxy ? 'x-request-id' : false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A bad or too long /api address goes through the hooks like any answer (security headers, Link, no-store).
    rewriteUrl(req) {
      const problem = urlProblem(req.url ?? '/');
      if (!problem) return req.url ?? '/';
      urlProblems.set(req, problem);
      return URL_PROBLEM_ROUTE;
    },
    // Only if the router still refuses an address urlProblem let through: French, without the hooks.
    frameworkErrors: (error, request, reply) => errorHandler(error, request, reply),
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.idleMs,
    // Node answers a request without Host with an empty 400 before Fastify sees it; the hook below answers it instead.
    http: { requireHostHeader: false, headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: Math.min(1000, config.timeouts.headersMs) },
  });

  const ctx = createAppContext(app, config, database);
  app.decorate('ctx', ctx);
  app.addHook('onReady', () => ctx.sessions.start());
  app.addHook('onClose', () => ctx.sessions.stop());
  app.addHook('onReady', () => ctx.lists.start());
  app.addHook('onClose', () => ctx.lists.stop());

  let isReady = ready;
  let draining = false;
  app.setErrorHandler(errorHandler);
  jsonBodyParsers(app);

  // Helmet's middleware, built once: @fastify/helmet builds it again at every request (the CSP parsed each time, about
  // 1 % of a loaded server's CPU). The same headers on every answer, as its global mode set them.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // MUI (emotion) injects its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // A file's documents are previewed from blob: URLs the page makes of their bytes (src/pec/DocumentsTab.tsx).
        imgSrc: ["'self'", 'data:', 'blob:'],
        frameSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));
  // The front end is served from the API's own origin: no other origin gets CORS headers, nor a granted pre-flight,
  // unless CORS_ORIGINS names it (a front end served elsewhere). The Link header must be readable by it.
  const corsOrigins = new Set(config.corsOrigins);
  await app.register(fastifyCors, {
    origin: (origin, callback) => callback(null, origin !== undefined && corsOrigins.has(origin.toLowerCase()) ? origin : false),
    exposedHeaders: ['Link'],
    maxAge: 600,
  });
  // JSON and text answers compressed for clients that accept it (brotli, else gzip): the API docs are 100 KB, 10 KB
  // compressed, read at every start-up of the application. Registered before the routes: it applies to those after it.
  // Request bodies are not decompressed (the body limit is on what arrives). The built files are compressed ahead.
  await app.register(fastifyCompress, {
    encodings: ENCODINGS,
    threshold: COMPRESSION_THRESHOLD,
    customTypes: /^(?:application\/(?:[\w.-]+\+)?json|text\/(?!event-stream))/,
    globalDecompression: false,
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion === '1.1' && !request.headers.host) throw badRequest('L’en-tête Host est obligatoire.');
    if (!isReady && request.url.startsWith('/api') && !request.url.startsWith('/api/health')) {
      reply.header('Retry-After', '2');
      throw new ApiError(503, 'Le serveur démarre, réessayez dans un instant.');
    }
  });
  await app.register(rateLimitPlugin);
  // The request line without its query string (searches may carry patient numbers), nor an email link's token (it
  // opens the account while unused). Health checks are not logged.
  app.addHook('onResponse', async (request, reply) => {
    if (request.url === '/api/health') return;
    request.log.info(
      {
        method: request.method,
        path: withoutLinkToken(request.url.split('?')[0]!),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.principal?.id,
      },
      'requête',
    );
  });
  // Every API response, errors included, points to the Hydra documentation; none is kept by a cache (health data).
  app.addHook('onSend', async (request, reply) => {
    if (!request.url.startsWith('/api')) return;
    reply.header('Link', docsLinkHeader(request));
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });

  app.all(URL_PROBLEM_ROUTE, { config: { public: true } }, async (request) => {
    throw urlProblems.get(request.raw) ?? notFound('Ressource introuvable.');
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
  app.addHook('onClose', async () => ctx.mailer.close());
  if (!config.smtpUrl && config.env === 'production') app.log.warn(`SMTP_URL absent : les emails sont écrits dans ${ctx.mailer.outbox} au lieu d’être envoyés`);
  await app.register(accountRoutes);
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
      // /api never falls through to the files: its missing routes answer the API's 404.
      allowedPath: (pathName) => pathName !== '/api' && !pathName.startsWith('/api/'),
      setHeaders(reply, filePath) {
        reply.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    // Only page routes fall back to the application; a missing file (/assets/x.js) stays a 404.
    const isFile = /\.[a-z0-9]+$/i.test(request.url.split('?')[0]!);
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (request.url.startsWith('/api') || !isRead || !hasFrontEnd || isFile) {
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
