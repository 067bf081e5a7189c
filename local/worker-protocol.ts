/** Messages between the worker pool (main thread) and its worker threads. */
import type { LambdaErrorPayload } from '../lambdas/adapters/local/lambda-errors';

/** workerData of a thread. */
export interface ThreadData {
  /** file: URL of the module exporting `handler`. */
  entryUrl: string;
  functionName: string;
  functionArn: string;
  memoryMb: number;
}

export type ToThread = { type: 'invoke'; id: number; requestId: string; input: unknown; deadline: number };

export type FromThread =
  | { type: 'ready' }
  | { type: 'init-error'; error: LambdaErrorPayload }
  | { type: 'result'; id: number; ok: true; output: unknown }
  | { type: 'result'; id: number; ok: false; error: LambdaErrorPayload };
