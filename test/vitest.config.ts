import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const setupFiles = ['test/support/setup.ts'];
/**
 * Run without isolation (the `shared-modules` project below): the engine's tests but those of
 * previews/ and guard/, which start threads and stub the environment, and the tests of pure
 * modules (bench summaries, docs, domain rules, the console's helpers, the architecture rules).
 */
const SHARED_MODULE_TESTS = [
  ...['autofix', 'check-fix-pairs', 'core', 'detect', 'fix-catalogue', 'optimize', 'preflight', 'validate'].map((d) => `test/unit/engine/${d}/**/*.test.ts`),
  ...['bench', 'docs', 'domain', 'web', 'architecture', 'step-definitions', 'support'].map((d) => `test/unit/${d}/**/*.test.ts`),
  'test/unit/engine/*.test.ts',
];

/**
 * Three projects, all run by `npm test`:
 * - `unit`: unit, adapter-integration and CDK assertion tests;
 * - `shared-modules`: the engine's and pure modules' unit tests, sharing loaded
 *   modules within a worker;
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
          exclude: SHARED_MODULE_TESTS,
          setupFiles,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          // Tests of pure functions over data and files built in the test: each worker loads pdf-lib,
          // pdf.js and the engine once rather than once per file (loading them was about half of
          // npm test's time). A helper that keeps state at load time must not assume one file
          // (test/unit/engine/temp-files.ts).
          name: 'shared-modules',
          root,
          include: SHARED_MODULE_TESTS,
          isolate: false,
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
