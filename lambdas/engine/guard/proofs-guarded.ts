/**
 * Proof images of a preflight report (previews/proof.ts), rendered in a thread
 * of their own that is ended when their time is up. The proof renderer starts
 * render threads of its own (previews/render-pool.ts) and takes neither a
 * deadline nor an abort signal; ending the thread that called it ends those
 * render threads with it (a worker thread's own worker threads stop when it
 * stops), so an abandoned proof render stops using cores and memory instead
 * of running on, unseen, until its pages' own limits.
 *
 * The thread is kept warm between calls like the other engine threads
 * (engine-thread.ts), with the render threads it holds warm inside it; a
 * thread that timed out, ran out of heap or holds much memory is ended.
 */
import '../../platform/polyfills';
// sharp must be loaded by this thread before the proofs thread loads it: on
// glibc a thread that ends would otherwise unload libvips under the others' feet.
import 'sharp';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { UnprocessableFileError } from '../../domain/errors';
import type { PreflightReport } from '../preflight';
import { renderProofs, type ProofsResult } from '../previews/proof';
import { isEngineThreadFor } from './engine-thread-protocol';
import { EngineOutOfMemory, EngineTimeout, runInEngineThread } from './engine-thread';
import { serveEngine } from './serve-engine';

const NAME = 'proofs';
const MiB = 1024 * 1024;

export interface ProofsInput {
  path: string;
  report: PreflightReport;
  outDir: string;
  /**
   * Tests only: instead of rendering, the thread starts `threads` worker
   * threads of its own (as the render pool does) and then spins without end.
   */
  stall?: { threads: number };
}

export interface ProofsLimits {
  /**
   * Wall-clock budget of the rendering, not counting the thread's start (a
   * warm thread starts at once); a caller with a hard deadline also stops
   * waiting at it.
   */
  timeoutMs: number;
  /** The proofs thread's JavaScript heap, MB (the render threads have their own). */
  maxHeapMb: number;
  maxStreamDecodedMb?: number;
  maxDocumentDecodedMb?: number;
}

/** The proofs were not finished within their budget; the thread and its render threads were ended. */
export class ProofsTimeout extends Error {
  override name = 'ProofsTimeout';
  constructor(readonly timeoutMs: number) {
    super(`no proofs within ${timeoutMs} ms`);
  }
}

if (isEngineThreadFor(NAME, isMainThread, workerData)) serveEngine(proofsInThread as (input: never) => Promise<unknown>, workerData);

async function proofsInThread(input: ProofsInput): Promise<ProofsResult> {
  if (input.stall) {
    for (let i = 0; i < input.stall.threads; i++) new Worker('setInterval(() => {}, 1000);', { eval: true });
    // Give the threads time to start, then never answer.
    await new Promise((r) => setTimeout(r, 200));
    for (;;) {
      /* spin */
    }
  }
  return renderProofs(input);
}

/**
 * Renders the proofs in the proofs thread; rejects with ProofsTimeout when
 * they are not done within `limits.timeoutMs` (the thread, and the render
 * threads it started, are ended), and with UnprocessableFileError when the
 * thread runs out of heap.
 */
export async function renderProofsGuarded(input: ProofsInput, limits: ProofsLimits): Promise<ProofsResult> {
  const thread = {
    name: NAME,
    moduleUrl: import.meta.url,
    maxHeapMb: limits.maxHeapMb,
    decodeLimits: { maxStreamBytes: (limits.maxStreamDecodedMb ?? 256) * MiB, maxDocumentBytes: (limits.maxDocumentDecodedMb ?? 4096) * MiB },
  };
  try {
    return (await runInEngineThread(thread, input, limits.timeoutMs)) as ProofsResult;
  } catch (err) {
    if (err instanceof EngineTimeout) throw new ProofsTimeout(limits.timeoutMs);
    if (err instanceof EngineOutOfMemory) throw new UnprocessableFileError(`The proof images need more than ${limits.maxHeapMb} MB of memory.`);
    throw err;
  }
}
