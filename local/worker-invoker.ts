/**
 * How the local runtime calls a worker for a Task state or an event rule:
 * the heavy pipeline workers run in the worker pool's threads (isolated like
 * separate Lambdas); the failure recorder, the finaliser and the webhook caller
 * run in the main thread, because they publish events and schedule retries
 * through the local event bus and scheduler, which live in this thread's
 * services. Either way a failure reaches the state machine as Lambda reports it.
 */
import { randomUUID } from 'node:crypto';
import { WORKERS, type WorkerId } from '../step-definitions/workers';
import { asLambdaError, timedOut } from '../lambdas/adapters/local/lambda-errors';
import type { WorkerInvoker } from '../lambdas/adapters/local/asl-definition';
import type { WorkerPool } from './worker-pool';
import { timedInvocation, type LambdaInvocation } from './metering/meter';
import { inInvocationScope } from './invocation-scope';
import { lambdaContext } from './proxy-event';

/** Workers given their own thread (WorkerSpec.threaded). */
export const THREADED_WORKERS: readonly WorkerId[] = (Object.keys(WORKERS) as WorkerId[]).filter((id) => WORKERS[id].threaded);

/** The pool's functions for the threaded workers, named by their ASL key. */
export function pooledFunctions(): Record<string, { entry: string; memoryMb: number; timeoutSeconds: number }> {
  return Object.fromEntries(
    THREADED_WORKERS.map((id) => {
      const w = WORKERS[id];
      return [w.key, { entry: w.entry, memoryMb: w.memoryMb, timeoutSeconds: w.timeoutSeconds }];
    }),
  );
}

type Handler = (event: unknown, context?: unknown) => unknown;

export function createWorkerInvoker(opts: {
  pool: WorkerPool;
  /** Imports a main-thread worker's module (default: the entry from WORKERS). */
  loadMainThreadHandler?: (id: WorkerId) => Promise<Handler>;
  /** Overrides every worker's timeout (tests). */
  timeoutMs?: number;
  /** Told of every main-thread invocation as it ends (the pool reports the threaded ones), for the cost model. */
  onInvoked?: (invocation: LambdaInvocation) => void;
}): WorkerInvoker {
  const load = opts.loadMainThreadHandler ?? defaultLoad;
  const modules = new Map<WorkerId, Promise<Handler>>();

  async function runInMainThread(id: WorkerId, input: unknown): Promise<unknown> {
    let h = modules.get(id);
    if (!h) {
      h = load(id);
      modules.set(id, h);
      h.catch(() => modules.delete(id));
    }
    const timeoutMs = opts.timeoutMs ?? WORKERS[id].timeoutSeconds * 1000;
    const requestId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    try {
      const handler = await h;
      // The handler cannot be stopped here; past its timeout its answer no longer counts.
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timedOut(requestId, timeoutMs / 1000)), timeoutMs);
      });
      // In a scope of its own: this thread runs many invocations at once, each with its own log keys.
      const context = lambdaContext(`proofline-local-${WORKERS[id].key}`, requestId, timeoutMs, WORKERS[id].memoryMb);
      const run = timedInvocation(opts.onInvoked, { functionName: WORKERS[id].key, memoryMb: WORKERS[id].memoryMb }, async () => inInvocationScope(requestId, () => handler(input, context)));
      const output = await Promise.race([run, expired]);
      // The result crosses as JSON, as it would from a Lambda.
      return output === undefined ? null : JSON.parse(JSON.stringify(output));
    } catch (err) {
      throw asLambdaError(err);
    } finally {
      clearTimeout(timer);
    }
  }

  return (id, input) => (THREADED_WORKERS.includes(id) ? opts.pool.invoke(WORKERS[id].key, input) : runInMainThread(id, input));
}

async function defaultLoad(id: WorkerId): Promise<Handler> {
  const mod = (await import(new URL(`../${WORKERS[id].entry}`, import.meta.url).href)) as { handler?: unknown };
  if (typeof mod.handler !== 'function') throw new Error(`${WORKERS[id].entry} does not export a handler`);
  return mod.handler as Handler;
}
