// GET /api/events: a Server-Sent Events stream of the changes the signed-in user may see (their files' dossier and
// workflow changes, their own notifications). Authenticated by the usual bearer token (fetch with a header), or, for
// EventSource which cannot send headers, by a short-lived ticket from POST /api/events/ticket (?ticket=...).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { authenticate } from '../auth/plugin';
import { loadPrincipal, type Principal } from '../auth/principal';
import { principalOf } from '../context';
import { ApiError, sendProblem, unauthorized } from '../http/errors';
import { mayReadFile } from '../auth/fileVisibility';
import type { PecEvent } from './bus';

export const TICKET_TTL_SECONDS = 60;
/** Live-event streams one user may hold open on an instance (one per tab or device). */
export const MAX_STREAMS_PER_USER = 10;
export const TOO_MANY_STREAMS = `Trop de flux d’événements ouverts pour votre compte (${MAX_STREAMS_PER_USER} au plus) : fermez des onglets de Pecflow et réessayez.`;
const HEARTBEAT_MS = 25_000;

interface TicketPayload {
  sub: string;
  typ: 'events';
  /** The session of the access token the ticket was asked with: the stream ends with it. */
  sid: string;
}

/** Whether this user receives this event. */
export function visibleTo(principal: Principal, event: PecEvent): boolean {
  if (event.type === 'notification.created') return event.userId === principal.id;
  return mayReadFile(principal, event);
}

/** The SSE event name: dossier, workflow or notification. */
const channelOf = (event: PecEvent) => event.type.split('.')[0]!;

export async function eventRoutes(app: FastifyInstance) {
  const streams = new Set<ServerResponse>();
  const streamsPerUser = new Map<number, number>();

  app.post('/api/events/ticket', async (request) => {
    const principal = principalOf(request);
    const payload: TicketPayload = { sub: String(principal.id), typ: 'events', sid: request.user.sid };
    const ticket = app.jwt.sign(payload as never, { expiresIn: TICKET_TTL_SECONDS });
    return { ticket, expiresIn: TICKET_TTL_SECONDS };
  });

  /** The user and session behind the bearer token or the ticket. */
  async function principalFor(request: FastifyRequest): Promise<{ principal: Principal; sid: string } | undefined> {
    if (request.headers.authorization) {
      const principal = await authenticate(request);
      return principal && { principal, sid: request.user.sid };
    }
    const ticket = (request.query as { ticket?: string } | undefined)?.ticket;
    if (!ticket) return undefined;
    let payload: TicketPayload;
    try {
      payload = app.jwt.verify<TicketPayload>(ticket);
    } catch {
      return undefined;
    }
    if (payload.typ !== 'events' || typeof payload.sid !== 'string' || !(await app.ctx.sessions.isOpen(payload.sid))) return undefined;
    const principal = await loadPrincipal(app.ctx.database, Number(payload.sub));
    return principal?.status === 'Active' ? { principal, sid: payload.sid } : undefined;
  }

  app.get('/api/events', { config: { public: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await principalFor(request);
    if (!caller) return sendProblem(request, reply, unauthorized('Authentification requise : jeton absent ou invalide.'));
    const { principal, sid } = caller;
    await app.ctx.pec.events.start();
    const open = streamsPerUser.get(principal.id) ?? 0;
    if (open >= MAX_STREAMS_PER_USER) return sendProblem(request, reply, new ApiError(429, TOO_MANY_STREAMS));
    streamsPerUser.set(principal.id, open + 1);

    reply.hijack();
    const raw = reply.raw;
    const headers: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value as string;
    raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.socket?.setNoDelay(true);
    // No idle timeout on a stream (HTTP_IDLE_TIMEOUT_MS is for requests): the heartbeat's writes find a dead client.
    raw.socket?.setTimeout(0);
    streams.add(raw);

    let sequence = 0;
    let current = principal;
    const write = (chunk: string) => {
      if (!raw.writableEnded) raw.write(chunk);
    };
    write(`retry: 5000\nevent: ready\ndata: ${JSON.stringify({ userId: principal.id })}\n\n`);

    const unsubscribe = app.ctx.pec.events.subscribe((event) => {
      if (!visibleTo(current, event)) return;
      sequence++;
      write(`id: ${sequence}\nevent: ${channelOf(event)}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    // A comment keeps proxies from closing the stream; the user's rights and session are read again at the same pace.
    const heartbeat = setInterval(async () => {
      write(': ping\n\n');
      const fresh = await loadPrincipal(app.ctx.database, principal.id).catch(() => current);
      const open = await app.ctx.sessions.isOpen(sid).catch(() => true);
      if (!fresh || fresh.status !== 'Active' || !open) raw.end();
      else current = fresh;
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const unwatch = app.ctx.sessions.watch(sid, () => raw.end());

    let cleaned = false;
    const cleanup = () => {
      if (cleaned) return;
      cleaned = true;
      clearInterval(heartbeat);
      unwatch();
      unsubscribe();
      streams.delete(raw);
      const left = (streamsPerUser.get(principal.id) ?? 1) - 1;
      if (left > 0) streamsPerUser.set(principal.id, left);
      else streamsPerUser.delete(principal.id);
    };
    raw.on('close', cleanup);
    raw.on('error', cleanup);
  });

  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
    streams.clear();
  });
}
