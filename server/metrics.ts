// Prometheus metrics (prom-client), one registry per app, served on METRICS_PORT by server/server.ts (off by default):
// HTTP requests by route, errors, robot runs by outcome and duration, queue depth and age, open event streams, the
// database pool. Labels carry route patterns (/api/pec_dossiers/:id), never ids, query strings or personal data.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from './context';

export class Metrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'pecflow_http_requests_total',
    help: 'Requêtes HTTP traitées, par méthode, route et statut',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly requestDuration = new Histogram({
    name: 'pecflow_http_request_duration_seconds',
    help: 'Durée de traitement des requêtes HTTP, par méthode et route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly errors = new Counter({
    name: 'pecflow_http_errors_total',
    help: 'Réponses HTTP en erreur serveur (5xx), par route et statut',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });

  readonly robotRuns = new Counter({
    name: 'pecflow_robot_runs_total',
    help: 'Appels robot terminés sur cette instance, par type et issue',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly robotRunDuration = new Histogram({
    name: 'pecflow_robot_run_duration_seconds',
    help: 'Durée des appels robot, du lancement à leur fin, par type et issue',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [1, 2, 5, 10, 30, 60, 120, 300, 600, 1200],
    registers: [this.registry],
  });

  constructor(ctx: AppContext) {
    collectDefaultMetrics({ register: this.registry, prefix: 'pecflow_' });
    const registers = [this.registry];

    new Gauge({
      name: 'pecflow_sse_streams',
      help: 'Flux d’événements (GET /api/events) ouverts sur cette instance',
      registers,
      collect() {
        this.set(ctx.pec.events.size);
      },
    });

    // Read from pg-boss's table at each scrape: the whole cluster's queues, the same on every instance.
    const queueDepth = new Gauge({ name: 'pecflow_queue_depth', help: 'Tâches en attente (dues) par file', labelNames: ['queue'] as const, registers });
    const queueAge = new Gauge({
      name: 'pecflow_queue_oldest_age_seconds',
      help: 'Âge de la plus ancienne tâche due et non prise, par file',
      labelNames: ['queue'] as const,
      registers,
    });
    const queueActive = new Gauge({ name: 'pecflow_queue_active', help: 'Tâches en cours par file', labelNames: ['queue'] as const, registers });
    let queuesRead: Promise<void> | undefined;
    const readQueues = async () => {
      const rows = await ctx.database
        .query<{ name: string; waiting: number; active: number; age: number | null }>(
          `select name,
              count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as waiting,
              count(*) filter (where state = 'active')::int as active,
              extract(epoch from now() - min(start_after) filter (where state in ('created', 'retry') and start_after <= now()))::float8 as age
            from pgboss.job where state < 'completed' group by name`,
        )
        .catch(() => []);
      queueDepth.reset();
      queueAge.reset();
      queueActive.reset();
      for (const row of rows) {
        queueDepth.set({ queue: row.name }, row.waiting);
        queueActive.set({ queue: row.name }, row.active);
        queueAge.set({ queue: row.name }, row.age ?? 0);
      }
    };
    // One query for the three gauges of a scrape.
    const collectQueues = async () => {
      queuesRead ??= readQueues().finally(() => setTimeout(() => (queuesRead = undefined), 100).unref());
      await queuesRead;
    };
    for (const gauge of [queueDepth, queueAge, queueActive]) (gauge as unknown as { collect: () => Promise<void> }).collect = collectQueues;

    new Gauge({
      name: 'pecflow_list_cache_reads',
      help: 'Lectures de listes que le serveur peut garder, depuis son démarrage : servies par le cache (hit) ou lues en base (miss)',
      labelNames: ['outcome'] as const,
      registers,
      collect() {
        this.set({ outcome: 'hit' }, ctx.lists.stats.hits);
        this.set({ outcome: 'miss' }, ctx.lists.stats.misses);
      },
    });

    new Gauge({
      name: 'pecflow_db_pool_connections',
      help: 'Connexions du pool de données PostgreSQL, par état (total, idle, waiting = requêtes en attente, max)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = ctx.database.poolStats?.();
        if (!stats) return;
        for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
      },
    });
  }

  robotRunEnded(kind: string, outcome: string, seconds: number) {
    this.robotRuns.inc({ kind, outcome });
    this.robotRunDuration.observe({ kind, outcome }, seconds);
  }
}

/** Counts every answered request under its route pattern. */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const { metrics } = app.ctx;
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'sans route';
      const status = reply.statusCode;
      metrics.requests.inc({ method: request.method, route, status });
      metrics.requestDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      if (status >= 500) metrics.errors.inc({ route, status });
    });
  },
  { name: 'pecflow-metrics' },
);
