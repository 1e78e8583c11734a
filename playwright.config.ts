// Browser tests: Debian's Chromium (never a downloaded browser) against the real server on a fresh embedded database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4310);
// npm test passes a fresh folder; a direct `npx playwright test` gets one too.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'pecflow-e2e-'));
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    baseURL,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node_modules/.bin/tsx server/main.ts',
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      DATABASE_URL: '',
      DEMO_SEED: '1',
      ROBOT_SIM_DELAY_MS: '500',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // Every browser of the suite signs in from loopback.
      RATE_LIMIT_LOGIN_MAX: '100000',
      RATE_LIMIT_API_MAX: '1000000',
      RATE_LIMIT_CALLBACK_MAX: '1000000',
      // Several people (or agents) can test at once, each with their own build.
      STATIC_DIR: process.env.E2E_STATIC_DIR ?? 'dist',
    },
  },
});
