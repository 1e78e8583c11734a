// A real Pecflow server on a loopback port and its own database, for API tests over HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp, type App } from '../../../server/app';
import { loadConfig, type Config } from '../../../server/config';
import type { Database } from '../../../server/db/connect';
import { DEMO_PASSWORD } from '../../../server/seed';
import { cloneTemplate, TEST_APP_SECRET_KEY } from './databases';

/** A JSON body as parsed: the assertions check its shape. */
export type JsonBody = ReturnType<typeof JSON.parse>;

export interface ApiResponse<T = JsonBody> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  app: App;
  database: Database;
  config: Config;
  request<T = JsonBody>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = JsonBody>(path: string, token?: string): Promise<ApiResponse<T>>;
  /** Signs in and returns the access token (demo accounts share one password). */
  login(email: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Where the server's log lines go (with a `logLevel` other than silent in the overrides): the test reads them. */
  logStream?: { write(line: string): void };
}

export async function startTestServer(overrides: Partial<Config> = {}, { logStream }: TestServerOptions = {}): Promise<TestServer> {
  const { database, drop } = await cloneTemplate(inject('templateDatabase'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pecflow-test-'));
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-jwt-secret-that-is-long-enough-0123456789',
      APP_SECRET_KEY: TEST_APP_SECRET_KEY,
      ROBOT_CALLBACK_SECRET: 'test-robot-callback-secret',
      ROBOT_SIM_DELAY_MS: '0',
      STATIC_DIR: path.join(dataDir, 'no-front-end'),
    }),
    port: 0,
    host: '127.0.0.1',
    // The suites send thousands of requests from one address: limits that only tests/api/security-limits.test.ts reaches.
    rateLimits: { windowSeconds: 60, login: 1_000_000, api: 1_000_000, callbacks: 1_000_000 },
    ...overrides,
  };
  const app = await buildApp({ config, database, logStream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  async function request<T>(method: string, urlPath: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/ld+json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/ld+json';
    } else if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${url}${urlPath}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  return {
    url,
    app,
    database,
    config,
    request,
    get: (urlPath, token) => request('GET', urlPath, { token }),
    async login(email, password = DEMO_PASSWORD) {
      const res = await request<{ token: string }>('POST', '/api/login_check', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${res.text}`);
      return res.body.token;
    },
    async close() {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
