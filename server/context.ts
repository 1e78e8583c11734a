// What every route can reach: configuration, database and the services built on it (built by server/createContext.ts;
// this file holds only types and principalOf, so that the modules importing it import no service).
import type { FastifyRequest } from 'fastify';
import type { Config } from './config';
import type { Database, Db } from './db/connect';
import type { SettingsService } from './settings';
import type { TokenService } from './auth/tokens';
import type { Principal, PrincipalCache } from './auth/principal';
import type { SessionRegistry } from './auth/sessions';
import type { SecretBox } from './crypto';
import type { DocumentStore } from './pec/documentStore';
import type { ResourceRegistry } from './hydra/registry';
import type { ListCache } from './hydra/listCache';
import type { Mailer } from './mail/mailer';
import type { Metrics } from './metrics';
import type { PecServices } from './pecServices';
import { unauthorized } from './http/errors';
import { AUTH_MESSAGES } from '#domain/auth';

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  settings: SettingsService;
  tokens: TokenService;
  /** Signed-in users recently loaded (server/auth/principal.ts). */
  principals: PrincipalCache;
  /** Open sessions (server/auth/sessions.ts). */
  sessions: SessionRegistry;
  /** Encrypts robot credentials at rest. */
  secrets: SecretBox;
  /** The content of PEC files' documents (server/pec/documentStore.ts). */
  documents: DocumentStore;
  /** The declared API resources (server/resources). */
  resources: ResourceRegistry;
  /** List bodies kept until a table they read changes (server/hydra/listCache.ts). */
  lists: ListCache;
  /** The account emails, sent by jobs (server/mail/mailer.ts). */
  mailer: Mailer;
  /** The address clients reach the server at (PUBLIC_URL, else this server on loopback): server/http/links.ts. */
  publicBaseUrl(): string;
  /** Jobs, robot runs and drivers, live events (server/pecServices.ts). */
  pec: PecServices;
  /** Prometheus metrics (server/metrics.ts). */
  metrics: Metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** Reachable without a bearer token. */
    public?: boolean;
  }
}

/** The signed-in user of a protected route (the auth hook has already refused anonymous calls). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized(AUTH_MESSAGES.missingToken);
  return request.principal;
}
