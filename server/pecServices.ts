// The PEC back end's services and routes: jobs (pg-boss), robot runs and drivers, live events, the job handlers, and
// the routes of the robot, the callbacks, the events stream and the PEC export, import and stats. The services are
// built with the application's context (server/createContext.ts); the plugin registers the routes and hooks.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from './context';
import { EventHub } from './events/bus';
import { eventRoutes } from './events/routes';
import { publicBaseUrl } from './http/links';
import { QUEUES, SCHEDULES, type JobService } from './jobs/boss';
import { RobotDrivers } from './robot/drivers';
import { robotRoutes } from './robot/routes';
import { RobotRuns } from './robot/runs';
import { BulkActions, bulkRoutes } from './robot/bulk';
import { scanExpiring } from './pec/expiry';
import { notifyFollowUps } from './pec/followUps';
import { handleResetRequest, type ResetRequestJob } from './auth/accounts';
import type { MailJob } from './mail/mailer';
import { paymentRoutes } from './pec/paymentRoutes';
import { pecRoutes, readAuditHook } from './pec/routes';
import { documentRoutes } from './pec/documentRoutes';
import { followUpRoutes } from './pec/followUpRoutes';

export interface PecServices {
  jobs: JobService;
  events: EventHub;
  runs: RobotRuns;
  drivers: RobotDrivers;
  /** Bulk actions on selected files and their queue of robot runs (server/robot/bulk.ts). */
  bulk: BulkActions;
  /** Registers the job handlers and schedules (worker instances only); idempotent. */
  startWorkers(): Promise<void>;
}

export interface PecPluginOptions {
  /** Start the workers when the server is ready (tests); main.ts starts them itself after migrating. */
  autoStart?: boolean;
}

interface RunJob {
  runId: number;
}

/** The PEC services of the application's context; `jobs` is the context's job service (the mailer queues with it too). */
export function createPecServices(app: FastifyInstance, ctx: AppContext, jobs: JobService): PecServices {
  const events = new EventHub(ctx.database);
  const runs = new RobotRuns(ctx, jobs);
  // The robot posts its callbacks to the same base URL the API names itself by.
  const drivers = new RobotDrivers(ctx, runs, jobs, () => publicBaseUrl(app));
  const bulk = new BulkActions(ctx, runs);
  // A run that ends makes room for the next bulk run of the queue.
  runs.runEnded = () => void bulk.pump().catch((error: unknown) => app.log.error({ err: error }, 'file d’attente des actions groupées'));

  let workers: Promise<void> | undefined;
  return {
    jobs,
    events,
    runs,
    drivers,
    bulk,
    startWorkers() {
      if (!ctx.config.startWorkers) return Promise.resolve();
      workers ??= (async () => {
        const fast = { batchSize: 25, workers: 2, pollingIntervalSeconds: 0.5 };
        await jobs.work<RunJob>(QUEUES.robotRun, ({ runId }) => drivers.dispatch(runId), fast);
        await jobs.work<RunJob>(QUEUES.robotSim, ({ runId }) => drivers.simulate(runId), fast);
        await jobs.work<RunJob>(QUEUES.robotTimeout, ({ runId }) => runs.timeout(runId), { batchSize: 25, pollingIntervalSeconds: 0.5 });
        await jobs.work(
          QUEUES.robotSweep,
          async () => {
            await runs.sweep();
            await bulk.sweep();
          },
          { batchSize: 1, pollingIntervalSeconds: 5 },
        );
        await jobs.work(QUEUES.expiryScan, async () => void (await scanExpiring(ctx)), { batchSize: 1, pollingIntervalSeconds: 10 });
        await jobs.work(QUEUES.followUpNotice, async () => void (await notifyFollowUps(ctx)), { batchSize: 1, pollingIntervalSeconds: 10 });
        // The account emails (server/mail/mailer.ts) and the forgotten-password requests (server/auth/accounts.ts).
        await jobs.work<MailJob>(QUEUES.mailSend, (data, job) => ctx.mailer.deliver(data, job.id), { batchSize: 10, pollingIntervalSeconds: 1 });
        await jobs.work<ResetRequestJob>(QUEUES.passwordResetRequest, (data, job) => handleResetRequest(app, data, job.id), {
          batchSize: 10,
          pollingIntervalSeconds: 1,
        });
        for (const { queue, cron, tz } of SCHEDULES) await jobs.schedule(queue, cron, tz);
        // Runs whose deadline passed while no instance was running end now rather than at the next sweep; open runs
        // that lost their job are queued again.
        await runs.sweep();
        await drivers.recoverOrphans();
        await bulk.sweep();
      })();
      return workers;
    },
  };
}

export const pecPlugin = fp<PecPluginOptions>(
  async (app: FastifyInstance, options) => {
    const ctx = app.ctx;
    const { jobs, events } = ctx.pec;
    await app.register(readAuditHook);
    await app.register(robotRoutes);
    await app.register(eventRoutes);
    await app.register(pecRoutes);
    await app.register(bulkRoutes);
    await app.register(paymentRoutes);
    await app.register(documentRoutes);
    await app.register(followUpRoutes);

    if (options.autoStart) app.addHook('onReady', async () => ctx.pec.startWorkers());
    // While the server still answers: stop fetching jobs and let the running ones post their callbacks; the others go
    // back to the queue. The event streams are ended by their own route (server/events/routes.ts). pg-boss itself stops
    // once the requests in flight are answered: they may still queue a run.
    app.addHook('preClose', async () => {
      await jobs.stopWorking();
    });
    app.addHook('onClose', async () => {
      await jobs.close();
      await events.stop();
    });
  },
  { name: 'pecflow-pec', dependencies: ['pecflow-auth'] },
);
