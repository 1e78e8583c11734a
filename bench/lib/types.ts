// What a benchmark scenario is: seed its data into the bench database, then name the endpoints to measure.
import type { Database } from '../../server/db/connect';

export interface BenchAccount {
  email: string;
  password: string;
  /** Access token, once the server is up. */
  token?: string;
}

export interface SeedContext {
  database: Database;
  /** Raw SQL (multi-row INSERT ... SELECT generate_series is the fast way). */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** Encrypts like the server (robot credentials at rest). */
  encrypt(plaintext: string): string;
  /** An argon2id hash of a password, computed once per value. */
  passwordHash(password: string): Promise<string>;
  /** Accounts the scenarios created, by name: measured endpoints are called as them. */
  accounts: Map<string, BenchAccount>;
}

export interface Endpoint {
  /** Short name in the table: "GET /api/shops". */
  label: string;
  path: string;
  /** Name of the account (SeedContext.accounts) the calls are made as. */
  as: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** This endpoint's p99 target, when it is not the scenario's. */
  targetP99Ms?: number;
  /** Sent with every call, besides the token and `Accept: application/ld+json`. */
  headers?: Record<string, string>;
}

export interface Scenario {
  /** Results are written to bench/results/{name}.json. */
  name: string;
  description: string;
  /** Writes the scenario's data; scenarios run in the order of bench/run.ts and may use the data of earlier ones. */
  seed(ctx: SeedContext): Promise<Record<string, number>>;
  endpoints(ctx: SeedContext): Promise<Endpoint[]>;
}

export interface Measurement {
  endpoint: string;
  as: string;
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  requests: number;
  errors: number;
  /** Items in one response (member length), to read the numbers with. */
  items: number;
  totalItems: number | null;
  targetP99Ms?: number;
}
