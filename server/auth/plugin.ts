// Bearer-token authentication for every /api route that is not marked public.
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from '../http/errors';
import { AUTH_MESSAGES } from '#domain/auth';
import type { Principal } from './principal';
import type { AccessTokenPayload } from './tokens';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessTokenPayload & { typ?: string };
    user: AccessTokenPayload & { typ?: string; iat: number };
  }
}

/** The principal behind the request's bearer token, or undefined when there is no valid one. */
export async function authenticate(request: FastifyRequest): Promise<Principal | undefined> {
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
  // A deactivated or locked account loses access at once, not when its token expires; so does a token issued before
  // the password changed (iat has a precision of a second).
  if (!principal || principal.status !== 'Active') return undefined;
  if (principal.tokensValidAfter && payload.iat < Math.floor(principal.tokensValidAfter.getTime() / 1000)) return undefined;
  // Logout, a replayed refresh token or a new password end the session: its access tokens with it, at once.
  if (typeof payload.sid !== 'string' || !(await request.server.ctx.sessions.isOpen(payload.sid))) return undefined;
  request.principal = principal;
  return principal;
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifyJwt, { secret: app.ctx.config.jwtSecret, sign: { algorithm: 'HS256' }, verify: { algorithms: ['HS256'] } });
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api')) return;
      if (request.routeOptions.config?.public) return;
      if (!(await authenticate(request))) throw unauthorized(AUTH_MESSAGES.missingToken);
    });
  },
  { name: 'pecflow-auth' },
);
