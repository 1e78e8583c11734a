// Requests per client address and time window, by route family, with @fastify/rate-limit's stores: Redis when
// REDIS_URL is set (one count shared by every instance), in memory otherwise (one count per instance).
// The plugin's own per-route hooks would count each route apart; one limiter per family counts the family together.
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { RateLimits } from '../config';
import { ROBOT_SIGNATURE_HEADER, verifySignature } from './signature';
import { ApiError } from './errors';

export type RateFamily = keyof Omit<RateLimits, 'windowSeconds'>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * One more request of the family for this request's client, as if it had been sent on its own: a bulk action counts
     * each of its files as the single action's call would (issue 28). Throws the French 429 beyond the allowance.
     */
    countRequest(family: RateFamily, request: FastifyRequest): Promise<void>;
  }
}

export const RATE_LIMIT_MESSAGE = (seconds: number) => `Trop de requêtes depuis votre adresse : réessayez dans ${seconds} seconde${seconds > 1 ? 's' : ''}.`;

const LOGIN_ROUTES = new Set([
  '/api/login_check',
  '/api/login_check/two-factor',
  '/api/login_check/password',
  '/api/login_check/two-factor-enrolment',
  '/api/token/refresh',
  '/api/token/invalidate',
  // The links sent by email (a forgotten password, an invitation): guessing them is counted like guessing passwords.
  '/api/forgot-password',
  '/api/forgot-password/:token',
  '/api/invitations/:token',
]);

/** The family a request counts in; undefined for what is never limited (health checks, the front end's files). */
export function rateFamilyOf(request: FastifyRequest): RateFamily | undefined {
  const path = request.routeOptions.url ?? request.url.split('?')[0]!;
  if (!path.startsWith('/api')) return undefined;
  if (path === '/api/health') return undefined;
  if (LOGIN_ROUTES.has(path)) return 'login';
  // The robot's own traffic: its results, and the documents it downloads through signed links while filing a request
  // (they do not spend the office's API allowance when both leave one address, nor the office's spend theirs).
  if (path.startsWith('/api/callbacks/') || path.startsWith('/api/robot/documents/')) return 'callbacks';
  return 'api';
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const { rateLimits, redisUrl, redisPrefix } = app.ctx.config;
    // A Redis outage lets requests through (skipOnError) rather than stopping the service; commands fail fast meanwhile.
    const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000, enableOfflineQueue: false, lazyConnect: true }) : undefined;
    redis?.on('error', (error) => app.log.warn({ err: error.message }, 'Redis injoignable : limites de débit non comptées'));
    // Connected before the first request is counted; if Redis is down, ioredis keeps reconnecting in the background.
    await redis?.connect().catch(() => undefined);
    await app.register(fastifyRateLimit, { global: false, redis, nameSpace: redisPrefix, skipOnError: true });
    if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));

    const limiters = Object.fromEntries(
      (['login', 'api', 'callbacks'] as const).map((family) => [
        family,
        app.createRateLimit({
          max: rateLimits[family],
          timeWindow: rateLimits.windowSeconds * 1000,
          // request.ip honours TRUST_PROXY (X-Forwarded-For only behind a declared proxy).
          keyGenerator: (request) => `${family}:${normalizeIP(request.ip)}`,
        }),
      ]),
    ) as Record<RateFamily, ReturnType<FastifyInstance['createRateLimit']>>;

    async function limit(family: RateFamily, request: FastifyRequest) {
      const result = await limiters[family](request);
      if (result.isAllowed || !result.isExceeded) return;
      const seconds = Math.max(1, result.ttlInSeconds);
      throw new ApiError(429, RATE_LIMIT_MESSAGE(seconds), { retryAfterSeconds: seconds });
    }
    app.decorate('countRequest', limit);

    app.addHook('onRequest', async (request) => {
      const family = rateFamilyOf(request);
      if (!family || request.method === 'OPTIONS') return;
      // A signed callback is counted once its body is read (below): only a wrong signature counts.
      if (family === 'callbacks' && request.headers[ROBOT_SIGNATURE_HEADER] !== undefined) return;
      await limit(family, request);
    });

    // The robot's correctly signed results are the protocol itself, however many runs end at once: they are not counted.
    app.addHook('preValidation', async (request) => {
      const signature = request.headers[ROBOT_SIGNATURE_HEADER];
      if (signature === undefined || rateFamilyOf(request) !== 'callbacks') return;
      if (verifySignature(request.rawBody ?? '', app.ctx.config.robotCallbackSecret, Array.isArray(signature) ? signature[0] : signature)) return;
      await limit('callbacks', request);
    });
  },
  { name: 'pecflow-rate-limits' },
);
