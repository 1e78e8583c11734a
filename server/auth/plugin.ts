// Bearer-token authentication for every /api route that is not marked public.
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, unauthorized } from '../http/errors';
import { AUTH_MESSAGES, SESSION_END_MESSAGES, sessionEndReasonOf, type SessionEndReason } from '#domain/auth';
import type { Principal } from './principal';
import type { AccessTokenPayload } from './tokens';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessTokenPayload & { typ?: string };
    user: AccessTokenPayload & { typ?: string; iat: number };
  }
}

/** The 401 that tells a session's holder why the server ended it: their account is disabled or locked. */
export const sessionEnded = (reason: SessionEndReason) => new ApiError(401, SESSION_END_MESSAGES[reason], { reason });

/**
 * The principal behind the request's bearer token; else, when the token is genuine and current (signed here, not
 * expired, not from before a new password) but its account is no longer active, the reason its session ended, which
 * its holder alone may learn; else nothing.
 */
export async function authenticateOrReason(request: FastifyRequest): Promise<Principal | SessionEndReason | undefined> {
  if (request.principal) return request.principal;
  if (!request.headers.authorization?.startsWith('Bearer ')) return undefined;
  let payload: AccessTokenPayload & { typ?: string; iat: number };
  try {
    payload = await request.jwtVerify();
  } catch {
    return undefined;
  }
  // An events ticket (typ "events") opens the event stream only; it is not an access token.
  if (payload.typ !== undefined) return undefined;
  const principal = await request.server.ctx.principals.get(Number(payload.sub));
  if (!principal) return undefined;
  // A token issued before the password changed is refused (iat has a precision of a second).
  if (principal.tokensValidAfter && payload.iat < Math.floor(principal.tokensValidAfter.getTime() / 1000)) return undefined;
  // A deactivated or locked account loses access at once, not when its token expires; its holder is told why.
  const ended = sessionEndReasonOf(principal.status);
  if (ended) return ended;
  // Logout, a replayed refresh token or a new password end the session: its access tokens with it, at once.
  if (typeof payload.sid !== 'string' || !(await request.server.ctx.sessions.isOpen(payload.sid))) return undefined;
  request.principal = principal;
  return principal;
}

/** The principal behind the request's bearer token, or undefined when there is no valid one. */
export async function authenticate(request: FastifyRequest): Promise<Principal | undefined> {
  const result = await authenticateOrReason(request);
  return typeof result === 'object' ? result : undefined;
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyJwt, { secret: app.ctx.config.jwtSecret, sign: { algorithm: 'HS256' }, verify: { algorithms: ['HS256'] } });
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api')) return;
      if (request.routeOptions.config?.public) return;
      const result = await authenticateOrReason(request);
      if (typeof result === 'string') throw sessionEnded(result);
      if (!result) throw unauthorized(AUTH_MESSAGES.missingToken);
    });
  },
  { name: 'pecflow-auth' },
);
