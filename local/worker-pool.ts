/**
 * Runs the heavy pipeline workers (ingest, preflight, autofix, validate,
 * previews) in worker threads, each thread standing in for one Lambda execution
 * environment: it loads the worker module once, serves one invocation at a time
 * and is reused while warm. As with Lambda, a crash, an out-of-memory or a
 * timeout ends that environment only, never the server, and the invocation
 * fails with the error name Lambda gives (Runtime.ExitError,
 * Runtime.OutOfMemory, Sandbox.Timedout) so the state machine's Catch records it.
 *
 * Limits come from WORKERS: memoryMb caps the thread's JavaScript heap (native
 * buffers, e.g. sharp's, are not counted, unlike Lambda), timeoutSeconds bounds
 * each invocation (tests shorten it). Invocations beyond `maxConcurrency` per
 * function wait their turn instead of being throttled.
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { exited, LambdaInvocationError, outOfMemory, timedOut } from '../lambdas/adapters/local/lambda-errors';
import { localFunctionArn } from '../lambdas/adapters/local/asl-definition';
import type { FromThread, ThreadData, ToThread } from './worker-protocol';
import { timedInvocation, type LambdaInvocation } from './metering/meter';
import { componentLog, type ComponentLog } from '../lambdas/observability/logger';

export interface PooledFunction {
  /** Module exporting `handler`: absolute, or relative to the repository root. */
  entry: string;
  memoryMb: number;
  timeoutSeconds: number;
}

export interface WorkerPoolOptions {
  functions: Record<string, PooledFunction>;
  /** Per-invocation timeout for every function instead of its timeoutSeconds. */
  timeoutMs?: number;
  /** Threads per function at once (default: the machine's parallelism, at most 4). */
  maxConcurrency?: number;
  /** The last warm thread of a function is ended after this long idle (default 10 minutes). */
  idleMs?: number;
  /**
   * A thread idle this long (default 30 s) is ended while another thread of its
   * function is alive, and replaced by a fresh one when it is the last and has
   * served invocations since it loaded. Issue 16 (3.7 GB held after 40 jobs):
   * a burst starts a second environment of a function, each holding hundreds
   * of MB, so after it the runtime goes back to one per function; and what a
   * thread's native memory grew to under load (the C allocator's per-thread
   * arenas, WebAssembly memory: neither shrinks, and the JavaScript heap does
   * not see them) is given back only when the thread ends. The replacement is
   * loaded at once, so the next job still finds its function warm.
   */
  spareIdleMs?: number;
  /** Longest a thread may take to load its module (Lambda's init phase). */
  initTimeoutMs?: number;
  /** The threads' environment, like a Lambda's configuration (default: this process's). */
  env?: NodeJS.ProcessEnv;
  log?: ComponentLog;
  /** Told of every invocation as it ends, with how long it ran in its thread (not the wait for a thread or its loading), for the cost model. */
  onInvoked?: (invocation: LambdaInvocation) => void;
}

export interface WorkerPool {
  invoke(name: string, input: unknown): Promise<unknown>;
  /**
   * Starts one environment of every function that has none, one after the
   * other in the background, and keeps it warm (as Lambda's provisioned concurrency does):
   * the first job then does not wait for each worker module to load. An
   * invocation arriving meanwhile waits for that environment instead of
   * starting another. Settles when every function has been loaded (or failed to).
   */
  prewarm(): Promise<void>;
  /** Live threads per function (warm or busy). */
  threads(): Record<string, number>;
  close(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);

interface Pending {
  id: number;
  requestId: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
}

/** One thread: one Lambda execution environment. */
class Environment {
  readonly ready: Promise<void>;
  alive = true;
  busy = false;
  /** Invocations run since the module loaded: a thread that served none has nothing to give back. */
  served = 0;
  idleTimer?: NodeJS.Timeout;
  private current?: Pending;
  private nextId = 1;
  private readonly worker: Worker;
  /** Set when we end the thread ourselves, so its exit is not reported as a crash. */
  private endedBy?: LambdaInvocationError;

  constructor(
    readonly name: string,
    readonly spec: PooledFunction,
    private readonly opts: { initTimeoutMs: number; env?: NodeJS.ProcessEnv; log: (m: string, e?: unknown) => void; onDeath: (env: Environment) => void },
  ) {
    const entryPath = isAbsolute(spec.entry) ? spec.entry : resolve(REPO_ROOT, spec.entry);
    const data: ThreadData = {
      entryUrl: pathToFileURL(entryPath).href,
      functionName: `proofline-local-${name}`,
      functionArn: localFunctionArn(name),
      memoryMb: spec.memoryMb,
    };
    this.worker = new Worker(BOOTSTRAP, {
      workerData: data,
      // Not the parent's flags: the bootstrap loads TypeScript support itself.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: spec.memoryMb },
      name: data.functionName,
      ...(opts.env ? { env: opts.env } : {}),
    });
    this.ready = new Promise<void>((resolveReady, rejectReady) => {
      const initTimer = setTimeout(() => {
        rejectReady(timedOut(`init-${name}`, opts.initTimeoutMs / 1000));
        this.end();
      }, opts.initTimeoutMs);
      this.worker.on('message', (m: FromThread) => {
        if (m.type === 'ready') { clearTimeout(initTimer); resolveReady(); }
        else if (m.type === 'init-error') { clearTimeout(initTimer); rejectReady(new LambdaInvocationError(m.error)); this.end(); }
        else if (m.type === 'result' && this.current?.id === m.id) {
          const p = this.settle();
          if (m.ok) p?.resolve(m.output);
          else p?.reject(new LambdaInvocationError(m.error));
        }
      });
      this.worker.on('error', (err: Error & { code?: string }) => {
        clearTimeout(initTimer);
        // The thread is going; 'exit' follows. Never hand it out again meanwhile.
        this.alive = false;
        const requestId = this.current?.requestId ?? `init-${name}`;
        const failure = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? outOfMemory(requestId) : exited(requestId, 'exit status 1');
        opts.log(`${data.functionName}: thread crashed (${failure.name})`, err);
        this.endedBy ??= failure;
        rejectReady(failure);
      });
      this.worker.on('exit', (code) => {
        clearTimeout(initTimer);
        this.alive = false;
        const failure = this.endedBy ?? exited(this.current?.requestId ?? `init-${name}`, `exit status ${code}`);
        rejectReady(failure);
        this.settle()?.reject(failure);
        opts.onDeath(this);
      });
    });
    // Callers observe `ready` through invoke(); this keeps an unobserved failure quiet.
    this.ready.catch(() => {});
  }

  run(input: unknown, timeoutMs: number): Promise<unknown> {
    this.served++;
    return new Promise((resolveRun, rejectRun) => {
      const requestId = randomUUID();
      const pending: Pending = { id: this.nextId++, requestId, resolve: resolveRun, reject: rejectRun };
      pending.timer = setTimeout(() => {
        // Lambda freezes and discards an environment that timed out; so do we.
        const failure = timedOut(requestId, timeoutMs / 1000);
        this.settle()?.reject(failure);
        this.endedBy = failure;
        this.end();
      }, timeoutMs);
      this.current = pending;
      const message: ToThread = { type: 'invoke', id: pending.id, requestId, input, deadline: Date.now() + timeoutMs };
      try {
        this.worker.postMessage(message);
      } catch (err) {
        // Input that cannot be cloned: the invocation fails, the environment stays.
        this.settle()?.reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  private settle(): Pending | undefined {
    const p = this.current;
    this.current = undefined;
    if (p?.timer) clearTimeout(p.timer);
    return p;
  }

  end(): Promise<number> {
    this.alive = false;
    clearTimeout(this.idleTimer);
    return this.worker.terminate();
  }
}

export function createWorkerPool(opts: WorkerPoolOptions): WorkerPool {
  const log = opts.log ?? componentLog('worker-pool');
  const maxConcurrency = opts.maxConcurrency ?? Math.max(1, Math.min(4, availableParallelism()));
  const idleMs = opts.idleMs ?? 10 * 60_000;
  const spareIdleMs = Math.min(opts.spareIdleMs ?? 30_000, idleMs);
  const initTimeoutMs = opts.initTimeoutMs ?? 60_000;
  const envs = new Map<string, Set<Environment>>();
  const queues = new Map<string, (() => void)[]>();
  let closed = false;

  const envsOf = (name: string) => envs.get(name) ?? envs.set(name, new Set()).get(name)!;

  function onDeath(env: Environment): void {
    envsOf(env.name).delete(env);
    wake(env.name);
  }

  function wake(name: string): void {
    const next = queues.get(name)?.shift();
    if (next) next();
  }

  /** A new environment of `name`, loading its module (added to the function's set by the caller). */
  const startEnvironment = (name: string, spec: PooledFunction): Environment => new Environment(name, spec, { initTimeoutMs, env: opts.env, log, onDeath });

  /** A warm idle environment, a new one, or (at the limit) the next one freed. */
  async function acquire(name: string, spec: PooledFunction): Promise<Environment> {
    for (;;) {
      if (closed) throw new Error('The worker pool is closed');
      const set = envsOf(name);
      const idle = [...set].find((e) => e.alive && !e.busy);
      if (idle) {
        clearTimeout(idle.idleTimer);
        idle.busy = true;
        return idle;
      }
      if (set.size < maxConcurrency) {
        const env = startEnvironment(name, spec);
        env.busy = true;
        set.add(env);
        return env;
      }
      await new Promise<void>((r) => (queues.get(name) ?? queues.set(name, []).get(name)!).push(r));
    }
  }

  function release(env: Environment): void {
    env.busy = false;
    if (env.alive) retireWhenIdle(env);
    wake(env.name);
  }

  /**
   * After spareIdleMs idle: ends the thread while its function has another,
   * replaces it with a fresh one when it is the last and has served, else
   * ends it after idleMs idle in all.
   */
  function retireWhenIdle(env: Environment): void {
    const idleSince = Date.now();
    const after = (ms: number, then: () => void) => {
      env.idleTimer = setTimeout(then, ms);
      env.idleTimer.unref();
    };
    after(spareIdleMs, () => {
      if (!env.alive || env.busy) return;
      const spare = [...envsOf(env.name)].some((e) => e !== env && e.alive);
      const left = idleMs - (Date.now() - idleSince);
      if (spare || left <= 0) void env.end();
      else if (env.served > 0) replace(env);
      else after(left, () => void (env.alive && !env.busy && env.end()));
    });
  }

  /**
   * Ends `env` and loads a fresh environment of its function in its place, kept
   * warm as a prewarmed one is. The fresh one joins the set first, so an
   * invocation waiting for a free slot finds it instead of starting another.
   */
  function replace(env: Environment): void {
    if (closed) return;
    const fresh = startEnvironment(env.name, env.spec);
    envsOf(env.name).add(fresh);
    void env.end();
    keepWarm(fresh);
  }

  /** Once loaded, an environment nobody took meanwhile is idle like any other (and so retired in time). */
  function keepWarm(env: Environment): void {
    void env.ready.then(
      () => {
        if (!env.busy) release(env);
      },
      // A failed load ends the environment through onDeath.
      () => undefined,
    );
  }

  return {
    async invoke(name, input) {
      const spec = opts.functions[name];
      if (!spec) throw new Error(`No pooled function named ${name}`);
      const env = await acquire(name, spec);
      try {
        await env.ready;
        return await timedInvocation(opts.onInvoked, { functionName: name, memoryMb: spec.memoryMb }, () => env.run(input, opts.timeoutMs ?? spec.timeoutSeconds * 1000));
      } finally {
        release(env);
      }
    },
    prewarm() {
      // One function at a time, in the order given (ingest, which every job needs, first): loading
      // them all at once would take every core from the requests being served meanwhile (an upload).
      return (async () => {
        for (const [name, spec] of Object.entries(opts.functions)) {
          if (closed) return;
          if (envsOf(name).size > 0) continue;
          const env = startEnvironment(name, spec);
          envsOf(name).add(env);
          keepWarm(env);
          await env.ready.catch(() => undefined);
        }
      })();
    },
    threads() {
      return Object.fromEntries([...envs].map(([name, set]) => [name, [...set].filter((e) => e.alive).length]));
    },
    async close() {
      closed = true;
      for (const q of queues.values()) q.splice(0).forEach((r) => r());
      await Promise.allSettled([...envs.values()].flatMap((set) => [...set].map((e) => e.end())));
    },
  };
}
