/**
 * Chooses the e2e target once for the whole run.
 *
 * - `npm run test:e2e -- --base-url URL --key KEY [--admin-key K] [--other-key K]`
 *   (see test/e2e/run.ts) sets E2E_BASE_URL & co: the suite runs against that
 *   deployment (local, LocalStack or AWS) and starts nothing.
 * - Otherwise (`npm test`) it starts the local runtime in this process on
 *   ephemeral loopback ports over a temporary DATA_DIR, with the knobs a test
 *   needs compressed, and issues the extra keys with the keys CLI — the same
 *   command a user runs.
 */
import type { TestProject } from 'vitest/node';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { E2ETarget } from './target';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');

export const LOCAL_KNOBS = {
  // Long enough for a sync validate (ingest, then an engine thread's first start
  // under tsx) on a 2-core machine that is busy with other tests; 4 s was not.
  SYNC_WAIT_MS: '10000',
  WEBHOOK_RETRY_SCHEDULE: '0,0,0,0,0,0,0',
  WEBHOOK_TIMEOUT_MS: '1500',
  AUTH_CACHE_TTL_SECONDS: '1',
  RATE_LIMIT_RPS: '1000',
  RATE_LIMIT_BURST: '2000',
} as const;

export async function keysCli(dataDir: string, port: number, args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/keys.ts', ...args, '--json'], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port) },
  });
  return JSON.parse(stdout);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const remote = process.env.E2E_BASE_URL;
  if (remote) {
    const key = process.env.E2E_KEY;
    if (!key) throw new Error('E2E_KEY (--key) is required with E2E_BASE_URL (--base-url)');
    const t: E2ETarget = {
      baseUrl: remote.endsWith('/') ? remote : `${remote}/`,
      key,
      adminKey: process.env.E2E_ADMIN_KEY || null,
      otherKey: process.env.E2E_OTHER_KEY || null,
      webhookSecret: process.env.E2E_WEBHOOK_SECRET || null,
      local: false,
      syncWaitMs: 27_000,
      revocationWindowMs: 60_000,
      dataDir: null,
      port: null,
      ownPorts: [],
    };
    project.provide('e2eTarget', t);
    return async () => {};
  }

  const dataDir = await mkdtemp(path.join(tmpdir(), 'proofline-e2e-'));
  // The runtime runs in this process and logs to its output, among the reporter's: a line per
  // request and per worker invocation would bury the results, so only warnings and errors are
  // written unless POWERTOOLS_LOG_LEVEL says otherwise (read when the logger loads, below, and
  // copied for the runtime's threads at its start). Then put back: the test processes vitest forks
  // from this one inherit its environment, and the unit tests read the logger's info lines.
  const logLevel = process.env.POWERTOOLS_LOG_LEVEL;
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const { startLocalRuntime } = await import('../../../local/runtime');
  const runtime = await startLocalRuntime({ port: 0, storagePort: 0, dataDir, quiet: true, env: { ...LOCAL_KNOBS } });
  if (logLevel === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
  const port = Number(new URL(runtime.url).port);
  // Both at once: each CLI spends seconds loading under tsx, and no test file starts before both are done.
  const [admin, other] = await Promise.all([
    keysCli(dataDir, port, ['create', '--account', 'local', '--role', 'admin']),
    keysCli(dataDir, port, ['create', '--account', 'other-shop']),
  ]);
  const t: E2ETarget = {
    baseUrl: runtime.url.endsWith('/') ? runtime.url : `${runtime.url}/`,
    key: runtime.apiKey,
    adminKey: admin.key,
    otherKey: other.key,
    webhookSecret: admin.webhookSecret,
    local: true,
    syncWaitMs: Number(LOCAL_KNOBS.SYNC_WAIT_MS),
    revocationWindowMs: 1000 * Number(LOCAL_KNOBS.AUTH_CACHE_TTL_SECONDS) + 500,
    dataDir,
    port,
    ownPorts: runtime.config.reservedPorts,
  };
  project.provide('e2eTarget', t);
  return async () => {
    await runtime.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
