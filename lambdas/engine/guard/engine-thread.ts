/**
 * The calling side of an engine thread: starts it, runs one input at a time in
 * it under a wall-clock budget, and ends it when the budget runs out, when its
 * heap limit is reached, or when it dies. A thread that answered is kept warm
 * for the next call (starting one means loading the whole engine again), unless
 * it holds a lot of memory afterwards.
 *
 * Where the thread starts from depends on how the code runs:
 * - TypeScript source (vitest, tsx): thread-bootstrap.mjs, which registers tsx
 *   and imports the calling module;
 * - a bundle (the Lambda's index.mjs): the bundle itself; it contains the call
 *   to guardedEngine(), which sees the workerData and serves.
 * Both cases are told apart by the calling module's URL.
 */
import { Worker } from 'node:worker_threads';
import { SOFT_DEADLINE_SHARE } from './engine-deadline';
import { fromThreadError, type EngineThreadData, type FromEngineThread, type ToEngineThread } from './engine-thread-protocol';
import type { DecodeLimits } from '../core/stream-decode';

export interface EngineThreadSpec {
  name: string;
  moduleUrl: string;
  maxHeapMb: number;
  decodeLimits: DecodeLimits;
}

/** The budget ran out; the thread was ended. */
export class EngineTimeout extends Error {
  override name = 'EngineTimeout';
}

/** The thread reached its heap limit (ERR_WORKER_OUT_OF_MEMORY). */
export class EngineOutOfMemory extends Error {
  override name = 'EngineOutOfMemory';
}

const BOOTSTRAP = new URL('./thread-bootstrap.mjs', import.meta.url);

/** Longest a thread may take to load the engine before it counts as failed. */
const START_TIMEOUT_MS = 120_000;

/** A thread holding more than this after a call is ended rather than kept warm. */
const KEEP_WARM_MAX_HEAP_BYTES = 256 * 1024 * 1024;

/** Warm threads kept per kind of thread. */
const MAX_WARM_THREADS = 2;

interface Pending {
  resolve: (output: unknown) => void;
  reject: (err: Error) => void;
  onProgress?: EngineProgress;
}

/** The engine's reports of pages done out of pages while a call runs (engine-progress.ts). */
export type EngineProgress = (done: number, total: number) => void;

export class EngineThread {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private pending?: Pending;
  private deathCause?: Error;
  private alive = true;
  /** Called once when the thread is gone, whatever ended it. */
  onExit?: () => void;

  constructor(spec: EngineThreadSpec) {
    const data: EngineThreadData = { guardedEngine: spec.name, moduleUrl: spec.moduleUrl, decodeLimits: spec.decodeLimits };
    this.worker = new Worker(spec.moduleUrl.endsWith('.ts') ? BOOTSTRAP : new URL(spec.moduleUrl), {
      workerData: data,
      // Not the parent's flags (tsx's loader, V8 options a thread refuses).
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: spec.maxHeapMb },
      name: `guarded-${spec.name}`,
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(Object.assign(new Error(`The ${spec.name} engine thread did not start within ${START_TIMEOUT_MS / 1000} s`), { name: 'EngineThreadStartTimeout' }));
        void this.end();
      }, START_TIMEOUT_MS);
      this.worker.on('message', (m: FromEngineThread) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (m.type === 'progress') {
          this.pending?.onProgress?.(m.done, m.total);
        } else if (m.type === 'result') {
          const p = this.settle();
          if (m.ok) p?.resolve(m.output);
          else p?.reject(fromThreadError(m.error));
          if (m.heapBytes > KEEP_WARM_MAX_HEAP_BYTES) void this.end();
        }
      });
      this.worker.on('error', (err: Error & { code?: string }) => {
        clearTimeout(timer);
        this.deathCause ??= err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new EngineOutOfMemory(err.message) : err;
        reject(this.deathCause);
      });
      this.worker.on('exit', (code) => {
        clearTimeout(timer);
        this.alive = false;
        const cause = this.deathCause ?? Object.assign(new Error(`The ${spec.name} engine thread exited (code ${code})`), { name: 'EngineThreadExited' });
        reject(cause);
        this.settle()?.reject(cause);
        this.onExit?.();
      });
    });
    this.ready.catch(() => {});
  }

  get usable(): boolean {
    return this.alive && this.deathCause === undefined;
  }

  /** Runs one input; the budget starts now, not while the engine loads. */
  run(input: unknown, timeoutMs: number, onProgress?: EngineProgress): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      if (!this.usable) {
        reject(this.deathCause ?? Object.assign(new Error('The engine thread has ended'), { name: 'EngineThreadExited' }));
        return;
      }
      const timer = setTimeout(() => {
        this.deathCause ??= new EngineTimeout(`no answer within ${timeoutMs} ms`);
        this.settle()?.reject(this.deathCause);
        void this.end();
      }, timeoutMs);
      this.pending = {
        resolve: (output) => { clearTimeout(timer); resolve(output); },
        reject: (err) => { clearTimeout(timer); reject(err); },
        onProgress,
      };
      const message: ToEngineThread = { type: 'run', input, deadline: Date.now() + timeoutMs * SOFT_DEADLINE_SHARE };
      try {
        this.worker.postMessage(message);
      } catch (err) {
        this.settle()?.reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /** An idle warm thread does not keep the process alive. */
  setIdle(idle: boolean): void {
    if (idle) this.worker.unref();
    else this.worker.ref();
  }

  end(): Promise<number> {
    this.alive = false;
    return this.worker.terminate();
  }

  private settle(): Pending | undefined {
    const p = this.pending;
    this.pending = undefined;
    return p;
  }
}

const warm = new Map<string, EngineThread[]>();

const keyOf = (spec: EngineThreadSpec): string => JSON.stringify([spec.name, spec.moduleUrl, spec.maxHeapMb, spec.decodeLimits]);

/** Runs `input` in a warm thread of this kind, or a new one. */
export async function runInEngineThread(spec: EngineThreadSpec, input: unknown, timeoutMs: number, onProgress?: EngineProgress): Promise<unknown> {
  const key = keyOf(spec);
  const idle = warm.get(key);
  let thread = idle?.pop();
  while (thread && !thread.usable) thread = idle?.pop();
  if (thread) thread.setIdle(false);
  else thread = new EngineThread(spec);
  try {
    await thread.ready;
    return await thread.run(input, timeoutMs, onProgress);
  } finally {
    keepWarm(key, thread);
  }
}

function keepWarm(key: string, thread: EngineThread): void {
  if (!thread.usable) return;
  const list = warm.get(key) ?? [];
  if (list.length >= MAX_WARM_THREADS) {
    void thread.end();
    return;
  }
  warm.set(key, list);
  list.push(thread);
  thread.setIdle(true);
  thread.onExit = () => {
    const i = list.indexOf(thread);
    if (i >= 0) list.splice(i, 1);
  };
}

/** Ends every warm thread (tests, and a process about to exit on purpose). */
export async function endWarmEngineThreads(): Promise<void> {
  const all = [...warm.values()].flat();
  warm.clear();
  await Promise.all(all.map((t) => t.end()));
}
