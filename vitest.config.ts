import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Two suites: `unit` (domain rules and React components) and `api` (the server over HTTP on a real database).
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/api/helpers/global-setup.ts'],
          setupFiles: ['tests/api/helpers/setup.ts'],
          // Some tests start several servers, each migrating its own PGlite database: seconds each on a loaded 2-core machine.
          testTimeout: 90_000,
          hookTimeout: 60_000,
          // Each file has its own database; two at a time suits two cores.
          maxWorkers: 2,
        },
      },
    ],
  },
});
