/**
 * Inside an engine thread: the message loop. Runs the engine for each input
 * the calling side sends and answers with its result or its error, plus the
 * heap the thread holds afterwards (the caller ends a thread that grew large
 * instead of keeping it warm); the soft deadline (engine-deadline.ts) comes
 * with each input, and the engine's progress reports (engine-progress.ts) go
 * back while it runs.
 *
 * A module of its own, apart from serve-engine.ts (which also sets core's
 * stream-decode limits and so loads pdf-lib), for threads whose engine does
 * not decode PDF streams: the previews' render threads, which would
 * otherwise carry pdf-lib for nothing.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { toThreadError, type FromEngineThread, type ToEngineThread } from './engine-thread-protocol';
import { setEngineDeadline } from './engine-deadline';
import { setEngineProgressSink } from './engine-progress';

export function serveEngineRequests(run: (input: never) => Promise<unknown>): void {
  const port = parentPort;
  if (!port) return;
  const post = (message: FromEngineThread) => port.postMessage(message);
  port.on('message', (message: ToEngineThread) => {
    if (message.type !== 'run') return;
    setEngineDeadline(message.deadline);
    setEngineProgressSink((done, total) => post({ type: 'progress', done, total }));
    Promise.resolve()
      .then(() => run(message.input as never))
      .then(
        (output) => post({ type: 'result', ok: true, output, heapBytes: heapBytes() }),
        (err: unknown) => post({ type: 'result', ok: false, error: toThreadError(err), heapBytes: heapBytes() }),
      )
      // An output that cannot be cloned is the engine's fault; say so rather than hang.
      .catch((err: unknown) => post({ type: 'result', ok: false, error: toThreadError(err), heapBytes: heapBytes() }))
      .finally(() => {
        setEngineDeadline(undefined);
        setEngineProgressSink(undefined);
      });
  });
  post({ type: 'ready' });
}

function heapBytes(): number {
  const stats = getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { external_memory?: number };
  return stats.used_heap_size + (stats.external_memory ?? 0);
}
