import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import react from '@vitejs/plugin-react';

/**
 * The API files that take longest (measured in CI on PGlite, longest first): they start first, so that none of them
 * is the last file left running on one worker while the other waits (mail-sigkill, 130 s of mostly waiting for an
 * expired job, ran last on a fresh clone and alone made the last two minutes). Vitest orders by the durations it cached
 * from an earlier run when it has them; a fresh clone has none, and orders by file size.
 */
const LONGEST_FIRST = ['mail-sigkill', 'backoffice-bad-input', 'security-limits', 'backup', 'pec-robot', 'accounts-passwords', 'list-json', 'pec-bulk'].map(
  (name) => `/tests/api/${name}.test.ts`,
);

class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((ending) => file.moduleId.endsWith(ending));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the other files keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Two suites: `unit` (domain rules and React components) and `api` (the server over HTTP on a real database).
export default defineConfig({
  plugins: [react()],
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/unit/setup.ts'],
          // Vitest's default is one worker less than the cores: one, on a two-core machine.
          maxWorkers: 2,
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
