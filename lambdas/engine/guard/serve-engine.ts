/**
 * Inside a guarded engine's thread: sets the decode limits that came with the
 * thread's workerData (core/stream-decode.ts), then serves each input the calling
 * side sends (serve-engine-requests.ts).
 */
import { parentPort } from 'node:worker_threads';
import type { EngineThreadData } from './engine-thread-protocol';
import { serveEngineRequests } from './serve-engine-requests';
import { setDecodeLimits } from '../core/stream-decode';

export function serveEngine(run: (input: never) => Promise<unknown>, data: EngineThreadData): void {
  if (!parentPort) return;
  setDecodeLimits(data.decodeLimits);
  serveEngineRequests(run);
}
