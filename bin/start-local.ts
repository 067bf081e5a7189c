/**
 * `npm start`: the whole API on http://127.0.0.1:${PORT:-3000}, with no cloud
 * account (docs/api.md §10). Environment:
 *   PORT          API port (default 3000)
 *   STORAGE_PORT  S3 endpoint for uploads and downloads (default PORT + 1)
 *   DATA_DIR      where data lives across restarts (default .local/)
 *   DEV_API_KEY   a key registered verbatim for account `local`
 * plus the knobs of lambdas/platform/config.ts (SYNC_WAIT_MS, WEBHOOK_RETRY_SCHEDULE, …),
 * RATE_LIMIT_RPS / RATE_LIMIT_BURST, LOCAL_WORKER_TIMEOUT_MS, LOCAL_PREWARM (default 1:
 * load one environment of each pipeline function in the background once serving; 0: on first use),
 * LOCAL_GATEWAY_TIMEOUT_MS (the front door's integration timeout, default 29000, API Gateway's)
 * LOCAL_COLD_START_MS (each route function's first request waits this long, default 0)
 * and POWERTOOLS_LOG_LEVEL (the lowest level of the JSON log lines it writes, default INFO).
 * Ctrl-C (SIGINT) or SIGTERM stops it gracefully; unfinished jobs resume at the next start.
 */
import '../lambdas/platform/polyfills';
import { DataDirInUseError, startLocalRuntime } from '../local/runtime';
import { componentLog } from '../lambdas/observability/logger';

/** The runtime's own lines, in the one logger's JSON like every other line it writes. */
const log = componentLog('runtime');

async function main(): Promise<void> {
  const startedAt = Date.now();
  const runtime = await startLocalRuntime({ prewarm: process.env.LOCAL_PREWARM !== '0' });
  log(`started in ${Date.now() - startedAt} ms`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: stopping…`);
    runtime.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log('stop failed', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  // Another runtime on the data directory is a person's mistake, said in one sentence; anything else with its stack.
  if (err instanceof DataDirInUseError) log(`could not start: ${err.message}`);
  else log('could not start', err);
  process.exit(1);
});
