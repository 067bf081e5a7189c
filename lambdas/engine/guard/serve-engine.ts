/**
 * Inside an engine thread: runs the engine for each input the calling side
 * sends and answers with its result or its error, plus the heap the thread
 * holds afterwards (the caller ends a thread that grew large instead of
 * keeping it warm). Decode limits come with the thread's workerData, the soft
 * deadline (engine-deadline.ts) with each input.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { toThreadError, type EngineThreadData, type FromEngineThread, type ToEngineThread } from './engine-thread-protocol';
import { setEngineDeadline } from './engine-deadline';
import { setDecodeLimits } from './stream-decode';

export function serveEngine(run: (input: never) => Promise<unknown>, data: EngineThreadData): void {
  const port = parentPort;
  if (!port) return;
  setDecodeLimits(data.decodeLimits);
  const post = (message: FromEngineThread) => port.postMessage(message);
  port.on('message', (message: ToEngineThread) => {
    if (message.type !== 'run') return;
    setEngineDeadline(message.deadline);
    Promise.resolve()
      .then(() => run(message.input as never))
      .then(
        (output) => post({ type: 'result', ok: true, output, heapBytes: heapBytes() }),
        (err: unknown) => post({ type: 'result', ok: false, error: toThreadError(err), heapBytes: heapBytes() }),
      )
      // An output that cannot be cloned is the engine's fault; say so rather than hang.
      .catch((err: unknown) => post({ type: 'result', ok: false, error: toThreadError(err), heapBytes: heapBytes() }))
      .finally(() => setEngineDeadline(undefined));
  });
  post({ type: 'ready' });
}

function heapBytes(): number {
  const stats = getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { external_memory?: number };
  return stats.used_heap_size + (stats.external_memory ?? 0);
}
