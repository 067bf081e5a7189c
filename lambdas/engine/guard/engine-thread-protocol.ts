/**
 * What crosses between a guarded engine call and its thread (engine-thread.ts on
 * the calling side, serve-engine.ts in the thread). Errors cross as plain data
 * and are rebuilt on the calling side: an UnprocessableFileError as the real
 * class (its message is for the customer), anything else as an Error that keeps
 * its name, so the step runner still reports it as unexpected.
 */
import { UnprocessableFileError } from '../../domain/errors';
import type { DecodeLimits } from '../core/stream-decode';

/** workerData of an engine thread; `guardedEngine` marks the thread it serves. */
export interface EngineThreadData {
  guardedEngine: string;
  /** The module that calls guardedEngine(): what a TypeScript thread imports (thread-bootstrap.mjs). */
  moduleUrl: string;
  decodeLimits: DecodeLimits;
}

/** `deadline`: the call's soft deadline in epoch ms (engine-deadline.ts). */
export type ToEngineThread = { type: 'run'; input: unknown; deadline: number };

export type FromEngineThread =
  | { type: 'ready' }
  /** Sent while a call runs (engine-progress.ts). */
  | { type: 'progress'; done: number; total: number }
  | { type: 'result'; ok: true; output: unknown; heapBytes: number }
  | { type: 'result'; ok: false; error: ThreadError; heapBytes: number };

export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
}

export function toThreadError(err: unknown): ThreadError {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { name: 'Error', message: String(err) };
}

export function fromThreadError(e: ThreadError): Error {
  if (e.name === 'UnprocessableFileError') return new UnprocessableFileError(e.message);
  const err = new Error(e.message);
  err.name = e.name;
  if (e.stack) err.stack = e.stack;
  return err;
}

/** True in a thread started to serve the engine `name`. */
export function isEngineThreadFor(name: string, isMainThread: boolean, workerData: unknown): workerData is EngineThreadData {
  return !isMainThread && typeof workerData === 'object' && workerData !== null && (workerData as Partial<EngineThreadData>).guardedEngine === name;
}
