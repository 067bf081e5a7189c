/**
 * Runs an engine function in a worker thread with a heap limit and a
 * wall-clock budget, so one hostile or pathological file ends in a sentence for
 * the customer instead of a hung or crashed function:
 *
 * - the budget runs out → the thread is ended and the call rejects with
 *   UnprocessableFileError ("Preflight stopped after 60 s: …");
 * - the heap limit is reached → likewise, with a sentence about memory;
 * - the engine throws UnprocessableFileError → the same error and message;
 * - anything else → an Error with the engine's error name (the step runner
 *   reports it as unexpected, naming it).
 *
 * An engine module adopts it with one call at its top level, which in the
 * engine thread also starts serving (see engine-thread.ts for how the thread
 * finds that module in tests, under tsx and in a Lambda bundle):
 *
 *   export const validateGuarded = guardedEngine({ name: 'validate', label: 'Validation',
 *     task: 'validate', moduleUrl: import.meta.url, run: validate, defaults: … });
 */
import '../../platform/polyfills';
import { isMainThread, workerData } from 'node:worker_threads';
import { UnprocessableFileError } from '../../domain/errors';
import { isEngineThreadFor } from './engine-thread-protocol';
import { EngineOutOfMemory, EngineTimeout, runInEngineThread, type EngineProgress } from './engine-thread';
import { serveEngine } from './serve-engine';

const MiB = 1024 * 1024;

export interface EngineLimits {
  /** Wall-clock budget of one call, not counting the engine's start. */
  timeoutMs?: number;
  /** The thread's JavaScript heap (V8 old generation), in MB. */
  maxHeapMb?: number;
  /** Largest decoded size of one PDF stream, in MB (decompression bombs). */
  maxStreamDecodedMb?: number;
  /** Largest total decoded from one document's streams, in MB. */
  maxDocumentDecodedMb?: number;
}

export interface GuardedEngineSpec<I, O> {
  /** Identifies the engine's thread (`preflight`). */
  name: string;
  /** Starts the customer's sentences (`Preflight`). */
  label: string;
  /** What the engine does to a file, as a verb (`check`). */
  task: string;
  /** import.meta.url of the module making this call. */
  moduleUrl: string;
  run: (input: I) => Promise<O>;
  /** The limits when the caller gives none (read from configuration at call time). */
  defaults: () => Required<EngineLimits>;
}

/** `onProgress` hears the engine's reports of pages done while it runs (engine-progress.ts). */
export type GuardedEngine<I, O> = (input: I, limits?: EngineLimits, onProgress?: EngineProgress) => Promise<O>;

export function guardedEngine<I, O>(spec: GuardedEngineSpec<I, O>): GuardedEngine<I, O> {
  if (isEngineThreadFor(spec.name, isMainThread, workerData)) serveEngine(spec.run as (input: never) => Promise<unknown>, workerData);

  return async (input, limits = {}, onProgress) => {
    const applied = { ...spec.defaults(), ...definedOnly(limits) };
    const thread = {
      name: spec.name,
      moduleUrl: spec.moduleUrl,
      maxHeapMb: applied.maxHeapMb,
      decodeLimits: { maxStreamBytes: applied.maxStreamDecodedMb * MiB, maxDocumentBytes: applied.maxDocumentDecodedMb * MiB },
    };
    try {
      return (await runInEngineThread(thread, input, applied.timeoutMs, onProgress)) as O;
    } catch (err) {
      if (err instanceof EngineTimeout) throw new UnprocessableFileError(timeoutSentence(spec, applied.timeoutMs));
      if (err instanceof EngineOutOfMemory) throw new UnprocessableFileError(memorySentence(spec, applied.maxHeapMb));
      throw err;
    }
  };
}

export function timeoutSentence(spec: Pick<GuardedEngineSpec<unknown, unknown>, 'label' | 'task'>, timeoutMs: number): string {
  return (
    `${spec.label} stopped after ${seconds(timeoutMs)} s: the file is too complex to ${spec.task} within the time limit. ` +
    'Simplify it (for example flatten transparency or reduce the number of pages) or split it into smaller files, and send it again.'
  );
}

export function memorySentence(spec: Pick<GuardedEngineSpec<unknown, unknown>, 'label' | 'task'>, maxHeapMb: number): string {
  return (
    `${spec.label} stopped: the file needs more than ${maxHeapMb} MB of memory to ${spec.task}. ` +
    'Simplify it (for example reduce the size of its images or flatten transparency) or split it into smaller files, and send it again.'
  );
}

/** Whole seconds; below ten seconds up to milliseconds (tests use short budgets). */
function seconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? String(Math.round(s)) : String(Number(s.toFixed(3)));
}

function definedOnly(limits: EngineLimits): EngineLimits {
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) as EngineLimits;
}
