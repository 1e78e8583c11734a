// Every environment variable the server reads, validated once, with its default.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const flag = z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', '']).transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

/** Requests per address and window, by route family (server/http/rateLimits.ts). */
export interface RateLimits {
  windowSeconds: number;
  /** Sign-in, token refresh and logout: the strictest. */
  login: number;
  /** Every other /api route (reads and writes, live events). */
  api: number;
  /** The robot's callbacks. */
  callbacks: number;
}

/** An office behind one address signs in a few dozen people a minute and loads pages of ~10 requests each. */
export const DEFAULT_RATE_LIMITS: RateLimits = { windowSeconds: 60, login: 30, api: 1200, callbacks: 600 };

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DEMO_SEED: flag.optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET doit contenir au moins 32 caractères').optional(),
  APP_SECRET_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'APP_SECRET_KEY doit être une clé de 32 octets en hexadécimal (64 caractères)')
    .optional(),
  ROBOT_CALLBACK_SECRET: z.string().min(16, 'ROBOT_CALLBACK_SECRET doit contenir au moins 16 caractères').optional(),
  ROBOT_MODE: z.enum(['simulator', 'http']).optional(),
  ROBOT_URL: z.string().url().optional(),
  ROBOT_SIM_DELAY_MS: z.coerce.number().int().min(0).default(3000),
  ROBOT_RUN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(600_000),
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STATIC_DIR: z.string().default('./dist'),
  TRUST_PROXY: flag.optional(),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s?#]+\/?$/, 'CORS_ORIGINS : des origines séparées par des virgules (https://exemple.fr, sans chemin)'))),
  REDIS_URL: z.union([z.literal(''), z.string().url()]).optional(),
  SMTP_URL: z.union([z.literal(''), z.string().regex(/^smtps?:\/\/\S+$/, 'SMTP_URL : une adresse smtp:// ou smtps:// est attendue')]).optional(),
  MAIL_FROM: z.string().min(3).default('Pecflow <ne-pas-repondre@pecflow.localhost>'),
  RATE_LIMIT_EMAIL_MAX: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_EMAIL_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.windowSeconds),
  RATE_LIMIT_LOGIN_MAX: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.login),
  RATE_LIMIT_API_MAX: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.api),
  RATE_LIMIT_CALLBACK_MAX: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.callbacks),
  RATE_LIMIT_REDIS_PREFIX: z.string().min(1).default('pecflow:rate:'),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  // --- production and several instances (docs/DEPLOYING.md) ---
  PECFLOW_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  DATABASE_DIRECT_URL: z.string().optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  // --- end of production settings ---
});

/** How long a client may take (server/app.ts): slow clients must not hold sockets for minutes. */
export interface HttpTimeouts {
  /** To send the request's headers. */
  headersMs: number;
  /** To send the whole request, body included (not the answer: live-event streams stay open). */
  requestMs: number;
  /** A socket with no traffic either way (the event streams send a comment every 25 s). */
  idleMs: number;
}

export interface Secrets {
  jwtSecret: string;
  appSecretKey: string;
  robotCallbackSecret: string;
}

export interface Config extends Secrets {
  env: string;
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; undefined means embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** 'memory://' keeps an embedded database in memory (tests). */
  pgliteDir: string;
  demoSeed: boolean;
  robotMode?: 'simulator' | 'http';
  robotUrl?: string;
  robotSimDelayMs: number;
  robotRunTimeoutMs: number;
  /** Base URL the robot posts its callbacks to; defaults to this server on loopback. */
  publicUrl?: string;
  logLevel: string;
  staticDir: string;
  /** false in tests that start many servers: no background jobs then unless asked. */
  startWorkers: boolean;
  /** Behind a reverse proxy: the client address is read from X-Forwarded-For. */
  trustProxy: boolean;
  /** The account emails' SMTP server; without it they are written to DATA_DIR/outbox (server/mail/mailer.ts). */
  smtpUrl?: string;
  /** The sender of the account emails. */
  mailFrom: string;
  /** Password-reset requests per email address and window, whatever the client address. */
  emailRateLimit: { max: number; windowSeconds: number };
  /** Other origins allowed to call the API from a browser (CORS); none by default: the front end is served by the API's origin. */
  corsOrigins: string[];
  /** Rate-limit counters in this Redis, shared by every instance; in memory (per instance) without it. */
  redisUrl?: string;
  redisPrefix: string;
  rateLimits: RateLimits;
  timeouts: HttpTimeouts;
  // --- production and several instances (docs/DEPLOYING.md) ---
  /** web: HTTP only (queues jobs, runs none); worker: jobs, timeouts and schedules, no API; all: both. */
  role: 'all' | 'web' | 'worker';
  /** Set when DATABASE_URL goes through PgBouncer in transaction mode: LISTEN, the migration lock and pg-boss use this one. */
  databaseDirectUrl?: string;
  /** Prometheus metrics on their own port; undefined: off. */
  metricsPort?: number;
  /** A worker's health endpoint (GET /health); undefined: none. */
  workerHealthPort?: number;
  /** After SIGTERM, how long the instance keeps serving while reporting not ready, for the proxy to notice. */
  drainDelayMs: number;
  /** After SIGTERM, the longest wait for requests and jobs in hand before exiting. */
  shutdownTimeoutMs: number;
  // --- end of production settings ---
}

/** Secrets come from the environment; outside production the missing ones are generated once into DATA_DIR. */
function loadSecrets(env: z.infer<typeof envSchema>): Secrets {
  const given = {
    jwtSecret: env.JWT_SECRET,
    appSecretKey: env.APP_SECRET_KEY,
    robotCallbackSecret: env.ROBOT_CALLBACK_SECRET,
  };
  const missing = Object.entries(given)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length === 0) return given as Secrets;
  if (env.NODE_ENV === 'production') {
    throw new Error(`En production, JWT_SECRET, APP_SECRET_KEY et ROBOT_CALLBACK_SECRET doivent être fournis (manquant : ${missing.join(', ')}).`);
  }
  const file = path.join(env.DATA_DIR, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8'));
  const generated: Secrets = {
    jwtSecret: stored.jwtSecret ?? randomBytes(48).toString('base64url'),
    appSecretKey: stored.appSecretKey ?? randomBytes(32).toString('hex'),
    robotCallbackSecret: stored.robotCallbackSecret ?? randomBytes(32).toString('base64url'),
  };
  if (JSON.stringify(stored) !== JSON.stringify(generated)) {
    mkdirSync(env.DATA_DIR, { recursive: true });
    writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 });
  }
  return {
    jwtSecret: given.jwtSecret ?? generated.jwtSecret,
    appSecretKey: given.appSecretKey ?? generated.appSecretKey,
    robotCallbackSecret: given.robotCallbackSecret ?? generated.robotCallbackSecret,
  };
}

/** Where the embedded database lives, and DATABASE_URL, without the rest of the configuration (backup and restore). */
export function databaseLocation(environment: NodeJS.ProcessEnv = process.env) {
  const env = envSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).parse(environment);
  return { pgliteDir: path.resolve(env.DATA_DIR, 'pglite'), databaseUrl: env.DATABASE_URL || undefined };
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(environment);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Configuration invalide :\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  // One process owns an embedded database: splitting the roles needs PostgreSQL.
  if (env.PECFLOW_ROLE !== 'all' && !env.DATABASE_URL)
    throw new Error(`Configuration invalide :\n  PECFLOW_ROLE=${env.PECFLOW_ROLE} demande DATABASE_URL (PostgreSQL).`);
  if (env.PECFLOW_ROLE === 'worker' && !env.PUBLIC_URL)
    throw new Error('Configuration invalide :\n  PECFLOW_ROLE=worker demande PUBLIC_URL (l’adresse des instances web, où le simulateur poste ses rappels).');
  return {
    ...loadSecrets(env),
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: path.resolve(env.DATA_DIR, 'pglite'),
    // Demo data on the embedded database unless refused; on PostgreSQL only when asked.
    demoSeed: env.DEMO_SEED ?? !env.DATABASE_URL,
    robotMode: env.ROBOT_MODE,
    robotUrl: env.ROBOT_URL,
    robotSimDelayMs: env.ROBOT_SIM_DELAY_MS,
    robotRunTimeoutMs: env.ROBOT_RUN_TIMEOUT_MS,
    publicUrl: env.PUBLIC_URL,
    logLevel: env.LOG_LEVEL,
    staticDir: path.resolve(env.STATIC_DIR),
    trustProxy: env.TRUST_PROXY ?? false,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM,
    emailRateLimit: { max: env.RATE_LIMIT_EMAIL_MAX, windowSeconds: env.RATE_LIMIT_EMAIL_WINDOW_SECONDS },
    corsOrigins: env.CORS_ORIGINS.map((origin) => origin.replace(/\/+$/, '').toLowerCase()),
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.RATE_LIMIT_REDIS_PREFIX,
    rateLimits: {
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      login: env.RATE_LIMIT_LOGIN_MAX,
      api: env.RATE_LIMIT_API_MAX,
      callbacks: env.RATE_LIMIT_CALLBACK_MAX,
    },
    timeouts: {
      headersMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestMs: Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS),
      idleMs: env.HTTP_IDLE_TIMEOUT_MS,
    },
    startWorkers: env.PECFLOW_ROLE !== 'web',
    // --- production and several instances ---
    role: env.PECFLOW_ROLE,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || undefined,
    metricsPort: env.METRICS_PORT,
    workerHealthPort: env.WORKER_HEALTH_PORT,
    drainDelayMs: env.DRAIN_DELAY_MS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  };
}
