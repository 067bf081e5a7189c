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
 * and LOCAL_COLD_START_MS (each route function's first request waits this long, default 0).
 * Ctrl-C (SIGINT) or SIGTERM stops it gracefully; unfinished jobs resume at the next start.
 */
import '../lambdas/platform/polyfills';
import { DataDirInUseError, startLocalRuntime } from '../local/runtime';

async function main(): Promise<void> {
  const startedAt = Date.now();
  const runtime = await startLocalRuntime({ prewarm: process.env.LOCAL_PREWARM !== '0' });
  console.error(`[local] started in ${Date.now() - startedAt} ms`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      console.error(`[local] ${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    console.error(`[local] ${signal}: stopping…`);
    runtime.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('[local] stop failed', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('[local] could not start:', err instanceof Error ? err.message : err);
  if (err instanceof Error && !(err instanceof DataDirInUseError) && err.stack) console.error(err.stack);
  process.exit(1);
});
