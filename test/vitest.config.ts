import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const setupFiles = ['test/support/setup.ts'];

/**
 * Two projects, both run by `npm test`:
 * - `unit`: unit, adapter-integration and CDK assertion tests;
 * - `e2e`: the black-box suite over HTTP, against the local runtime started
 *   in-process by its global setup, or against any deployment given to
 *   `npm run test:e2e -- --base-url URL --key KEY`.
 */
export default defineConfig({
  root,
  test: {
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one on these 2-core machines, where
    // npm test then took 893 s; two workers take 673 s, every test passing.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          root,
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/cdk/**/*.test.ts'],
          setupFiles,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          root,
          include: ['test/e2e/**/*.test.ts'],
          setupFiles,
          globalSetup: ['test/e2e/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
