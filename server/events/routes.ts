// GET /api/events: a Server-Sent Events stream of the changes the signed-in user may see (their files' dossier and
// workflow changes, their own notifications). Authenticated by the usual bearer token (fetch with a header), or, for
// EventSource which cannot send headers, by a short-lived ticket from POST /api/events/ticket (?ticket=...).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { authenticate } from '../auth/plugin';
import { loadPrincipal, type Principal } from '../auth/principal';
import { principalOf } from '../context';
import { sendProblem, unauthorized } from '../http/errors';
import { mayReadFile } from '../pec/visibility';
import type { PecEvent } from './bus';

export const TICKET_TTL_SECONDS = 60;
const HEARTBEAT_MS = 25_000;

interface TicketPayload {
  sub: string;
  typ: 'events';
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

  app.post('/api/events/ticket', async (request) => {
    const principal = principalOf(request);
    const ticket = app.jwt.sign({ sub: String(principal.id), typ: 'events' } as never, { expiresIn: TICKET_TTL_SECONDS });
    return { ticket, expiresIn: TICKET_TTL_SECONDS };
  });

  async function principalFor(request: FastifyRequest): Promise<Principal | undefined> {
    if (request.headers.authorization) return authenticate(request);
    const ticket = (request.query as { ticket?: string } | undefined)?.ticket;
    if (!ticket) return undefined;
    let payload: TicketPayload;
    try {
      payload = app.jwt.verify<TicketPayload>(ticket);
    } catch {
      return undefined;
    }
    if (payload.typ !== 'events') return undefined;
    const principal = await loadPrincipal(app.ctx.database, Number(payload.sub));
    return principal?.status === 'Active' ? principal : undefined;
  }

  app.get('/api/events', { config: { public: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = await principalFor(request);
    if (!principal) return sendProblem(request, reply, unauthorized('Authentification requise : jeton absent ou invalide.'));
    await app.ctx.pec.events.start();

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
    // A comment keeps proxies from closing the stream; the user's rights are read again at the same pace.
    const heartbeat = setInterval(async () => {
      write(': ping\n\n');
      const fresh = await loadPrincipal(app.ctx.database, principal.id).catch(() => current);
      if (!fresh || fresh.status !== 'Active') raw.end();
      else current = fresh;
    }, HEARTBEAT_MS);
    heartbeat.unref();

    const cleanup = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(raw);
    };
    raw.on('close', cleanup);
    raw.on('error', cleanup);
  });

  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
    streams.clear();
  });
}
