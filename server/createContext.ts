// The application's context (server/context.ts), built whole in one place before any plugin reads it. The services
// that hold the context (the resources, the PEC services, the metrics) are built from it once its other members are.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/connect';
import { PrincipalCache } from './auth/principal';
import { SessionRegistry } from './auth/sessions';
import { TokenService } from './auth/tokens';
import { SecretBox } from './crypto';
import { ResourceRegistry } from './hydra/registry';
import { ListCache } from './hydra/listCache';
import { publicBaseUrl } from './http/links';
import { JobService } from './jobs/boss';
import { Mailer } from './mail/mailer';
import { Metrics } from './metrics';
import { PostgresDocumentStore } from './pec/documentStore';
import { createPecServices } from './pecServices';
import { RESOURCES } from './resources';
import { SettingsService } from './settings';

export function createAppContext(app: FastifyInstance, config: Config, database: Database): AppContext {
  const settings = new SettingsService(database.db);
  const secrets = new SecretBox(config.appSecretKey);
  const sessions = new SessionRegistry(database);
  // One job service: the PEC runs and the account emails queue with it.
  const jobs = new JobService(database, { workers: config.startWorkers, log: app.log });
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    settings,
    secrets,
    documents: new PostgresDocumentStore(secrets),
    sessions,
    tokens: new TokenService(app, database.db, settings, sessions),
    principals: new PrincipalCache(database),
    lists: new ListCache(database),
    mailer: new Mailer(config, secrets, jobs, app.log),
    publicBaseUrl: () => publicBaseUrl(app),
    get resources() {
      return resources;
    },
    get pec() {
      return pec;
    },
    get metrics() {
      return metrics;
    },
  };
  const resources = new ResourceRegistry(RESOURCES, ctx);
  const pec = createPecServices(app, ctx, jobs);
  const metrics = new Metrics(ctx);
  return ctx;
}
