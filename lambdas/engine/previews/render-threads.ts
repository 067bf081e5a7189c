/**
 * The render threads of this process, across pools: how one starts (from
 * TypeScript or from the bundle), the warm ones waiting between documents, and
 * those still starting. A pool (render-pool.ts) takes a warm thread before
 * starting a new one and hands its threads back when it closes.
 *
 * Starting a thread means compiling PDFium's wasm again (and pdfjs, for a file
 * that falls back to it), so threads are kept warm, unref'd so they keep no
 * process alive, for the next pool (a warm Lambda's next invocation).
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { EngineThread } from '../guard/engine-thread';
import { isEngineThreadFor } from '../guard/engine-thread-protocol';
import { PAGE_THREAD } from './page-thread-protocol';

/**
 * Where a render thread starts. The calling side never loads page-thread.ts
 * (PDFium, and pdfjs with its worker, hundreds of MB under tsx, are useless
 * outside the render threads):
 * - TypeScript source: the thread imports page-thread.ts (thread-bootstrap.mjs);
 * - a bundle: the thread starts from the bundle, whose copy of this module
 *   reaches page-thread.ts through the dynamic import below, which esbuild
 *   keeps inside the bundle and which runs only in a render thread.
 */
const PAGE_THREAD_URL = import.meta.url.endsWith('.ts') ? new URL('./page-thread.ts', import.meta.url).href : import.meta.url;
if (isEngineThreadFor(PAGE_THREAD, isMainThread, workerData)) void import('./page-thread');

/** Each thread holds its own PDFium (or parsed pdf.js document and canvas): four keep 50 pages at 150 dpi well under 1.5 GB. */
export const MAX_THREADS = 4;

/** Threads between documents, newest last. */
const idle: EngineThread[] = [];
/** Each thread's heap limit: a pool takes only warm threads started with its own. */
const heapLimitOf = new WeakMap<EngineThread, number>();
/** Who to tell when a thread has ended: its pool, or the warm list. */
const whenEnded = new WeakMap<EngineThread, () => void>();
/** Every render thread not yet ended, busy or idle. */
const alive = new Set<EngineThread>();
/** Threads being started, by open pools or by pools closed before the thread was ready. */
const starting = new Set<Promise<void>>();

/** Render threads alive now, busy or warm (tests: a stopped page's thread must be gone). */
export function renderThreadsAlive(): number {
  return alive.size;
}

/** Tests: settles when every thread being started has been started (and, for a closed pool, handed back). */
export async function renderThreadsSettled(): Promise<void> {
  while (starting.size > 0) await Promise.all([...starting]);
}

/** Ends the warm threads (tests, and a process about to exit on purpose), after those still being started. */
export async function endIdleRenderThreads(): Promise<void> {
  await renderThreadsSettled();
  await Promise.all(idle.splice(0).map((t) => t.end()));
}

/** `thread` belongs to a pool now: `ended` is called if it ends (its time or heap limit, or a crash). */
export function onEnded(thread: EngineThread, ended: () => void): void {
  whenEnded.set(thread, ended);
}

/** Counts a thread being started until `started` settles (renderThreadsSettled waits for it). */
export function countStarting(started: Promise<void>): void {
  starting.add(started);
  void started.then(() => starting.delete(started));
}

/** Whether a thread handed back now would be kept warm. */
export function roomToKeepWarm(): boolean {
  return idle.length < MAX_THREADS;
}

/** Keeps a thread (its document closed) warm for the next pool; false when there is no room and it should be ended. */
export function keepWarm(thread: EngineThread): boolean {
  if (!thread.usable || !roomToKeepWarm()) return false;
  idle.push(thread);
  thread.setIdle(true);
  whenEnded.set(thread, () => {
    const i = idle.indexOf(thread);
    if (i >= 0) idle.splice(i, 1);
  });
  return true;
}

/** A new thread with this heap limit. */
export function newThread(maxHeapMb: number): EngineThread {
  const thread = new EngineThread({
    name: PAGE_THREAD,
    moduleUrl: PAGE_THREAD_URL,
    maxHeapMb,
    // Unused: render threads do not decode through the guard (page-thread.ts).
    decodeLimits: { maxStreamBytes: 256 * 1024 * 1024, maxDocumentBytes: 4096 * 1024 * 1024 },
  });
  heapLimitOf.set(thread, maxHeapMb);
  alive.add(thread);
  thread.onExit = () => {
    alive.delete(thread);
    whenEnded.get(thread)?.();
  };
  return thread;
}

/** A warm thread with this heap limit, if one is waiting. */
export function takeIdle(maxHeapMb: number): EngineThread | undefined {
  for (let i = idle.length - 1; i >= 0; i--) {
    const thread = idle[i]!;
    if (!thread.usable || heapLimitOf.get(thread) !== maxHeapMb) continue;
    idle.splice(i, 1);
    thread.setIdle(false);
    return thread;
  }
  return undefined;
}
