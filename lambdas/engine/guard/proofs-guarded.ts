/**
 * Proof images of a preflight report (previews/proof.ts), rendered in a thread
 * of their own that is ended when their time is up. The proof renderer starts
 * render threads of its own (previews/render-pool.ts) and takes neither a
 * deadline nor an abort signal; ending the thread that called it ends those
 * render threads with it (a worker thread's own worker threads stop when it
 * stops), so an abandoned proof render stops using cores and memory instead
 * of running on, unseen, until its pages' own limits.
 *
 * Unlike the warm engine threads of guarded-engine.ts, each call gets a new
 * thread, ended afterwards whatever happened: a warm proofs thread would keep
 * its idle render threads (and their copy of the document) alive.
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
import { EngineOutOfMemory, EngineThread, EngineTimeout } from './engine-thread';
import { serveEngine } from './serve-engine';

const NAME = 'proofs';
const MiB = 1024 * 1024;
/** Ending a thread is quick; a native call in flight may delay it, and the caller need not wait for that. */
const END_WAIT_MS = 2_000;

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
  /** Wall-clock budget, the thread's start included. */
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
 * Renders the proofs in a new thread; rejects with ProofsTimeout when they are
 * not done within `limits.timeoutMs`, and with UnprocessableFileError when the
 * thread runs out of heap. The thread is ended in every case.
 */
export async function renderProofsGuarded(input: ProofsInput, limits: ProofsLimits): Promise<ProofsResult> {
  const started = Date.now();
  const thread = new EngineThread({
    name: NAME,
    moduleUrl: import.meta.url,
    maxHeapMb: limits.maxHeapMb,
    decodeLimits: { maxStreamBytes: (limits.maxStreamDecodedMb ?? 256) * MiB, maxDocumentBytes: (limits.maxDocumentDecodedMb ?? 4096) * MiB },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const startExpired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProofsTimeout(limits.timeoutMs)), limits.timeoutMs);
    });
    await Promise.race([thread.ready, startExpired]);
    clearTimeout(timer);
    const left = limits.timeoutMs - (Date.now() - started);
    if (left <= 0) throw new ProofsTimeout(limits.timeoutMs);
    return (await thread.run(input, left)) as ProofsResult;
  } catch (err) {
    if (err instanceof EngineTimeout) throw new ProofsTimeout(limits.timeoutMs);
    if (err instanceof EngineOutOfMemory) throw new UnprocessableFileError(`The proof images need more than ${limits.maxHeapMb} MB of memory.`);
    throw err;
  } finally {
    clearTimeout(timer);
    await Promise.race([thread.end().catch(() => undefined), new Promise((r) => setTimeout(r, END_WAIT_MS).unref())]);
  }
}
