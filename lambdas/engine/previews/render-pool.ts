/**
 * A few render threads (page-thread.ts) working through one document's pages
 * in parallel. Each thread opens the document once and renders the pages it
 * is handed; the pool hands out pages in order as threads become free (a
 * thread still starting takes pages once it is ready; no page waits for it)
 * and collects the results by page, so the output order does not depend on
 * which thread was faster.
 *
 * The document is a file on disk, or a file in storage read in ranges, which
 * this thread serves to the render threads (page-sources.ts): rendering pages
 * 1–3 of a 500 MB file fetches those pages' objects and not the file. Either
 * way PDFium reads only the parts the pages need, and nothing is copied
 * between threads.
 *
 * The per-page time limit is enforced by ending the thread (a stuck page would
 * otherwise keep burning a core until the function dies); a thread that reaches
 * its heap limit is ended the same way. Either way only that page fails, with a
 * sentence, and a fresh thread opens the document and carries on with the pages
 * left. Threads are started through guard/engine-thread.ts, so they start from
 * TypeScript in tests and under tsx, and from the bundle in a Lambda.
 *
 * Starting a thread means compiling PDFium's wasm again (and pdfjs, for a file
 * that falls back to it: about half a second from a bundle, two under tsx), so
 * a pool hands its threads back warm when it is closed, with their document
 * closed, and the next pool (a warm Lambda's next invocation) takes them first
 * (render-threads.ts). A thread whose PDFium memory grew large on a big page
 * is ended instead (page-thread.ts).
 */
import { availableParallelism } from 'node:os';
// sharp must be loaded by the main thread before any thread loads it: on glibc a
// thread that ends would otherwise unload libvips under the others' feet.
import 'sharp';
import { UnprocessableFileError } from '../../domain/errors';
import { EngineOutOfMemory, EngineTimeout, type EngineThread } from '../guard/engine-thread';
import type { PreviewOptions } from './options';
import { PageSources, type RangedFile } from './page-sources';
import type { PageThreadInput, PageThreadOutput, Renderer } from './page-thread-protocol';
import { countStarting, keepWarm, MAX_THREADS, newThread, onEnded, roomToKeepWarm, takeIdle } from './render-threads';
import type { PreviewImage } from './types';

export interface RenderPoolOptions {
  /** Render threads at most; default: the cores available, at most MAX_THREADS. */
  threads?: number;
  /** A page still rendering after this long is stopped and reported. */
  pageTimeoutMs?: number;
  /** Each thread's JavaScript heap (V8 old generation), in MB. */
  maxHeapMb?: number;
  /** Tests only: pages on which a thread spins without end (page-thread.ts). */
  stallPages?: number[];
  /** Default pdfium; the benchmark also asks for pdfjs. */
  renderer?: Renderer;
  /** Whether a file PDFium refuses goes to pdf.js; default true. */
  fallback?: boolean;
}

export const PAGE_TIMEOUT_MS = 120_000;
/**
 * Decoded images and canvases live outside the V8 heap; the heap holds parsed
 * content and fonts. A lower ceiling makes V8 collect sooner, which is what
 * keeps two threads on 50 pages at 150 dpi near 1.3 GB RSS instead of 1.45.
 */
const MAX_HEAP_MB = 512;
/** Opening is parsing the trailer and page tree: slow only for a hostile file. */
const OPEN_TIMEOUT_MS = 60_000;
/** Closing a document is freeing it; a thread that takes longer is ended instead of kept. */
const CLOSE_TIMEOUT_MS = 5_000;


export interface PageJob {
  page: number;
  role: PreviewImage['role'];
  options: PreviewOptions;
}

/** `threadId`: the thread that rendered the page (absent when it was stopped or skipped). */
export type PageResult = ({ image: PreviewImage; reason?: undefined } | { image?: undefined; reason: string }) & { threadId?: number };

/** Pages the caller's deadline (RenderPool.render's `stop`) kept from starting or stopped. */
const DEADLINE_BEFORE = 'Rendering was stopped at the time limit before this page was started.';
const deadlineSentence = (page: number) => `Page ${page} was still rendering at the time limit and was stopped.`;

export function defaultThreadCount(): number {
  return Math.max(1, Math.min(availableParallelism(), MAX_THREADS));
}

export class RenderPool {
  private readonly threads = new Set<EngineThread>();
  private readonly limits: Required<Omit<RenderPoolOptions, 'stallPages'>> & Pick<RenderPoolOptions, 'stallPages'>;
  private first?: EngineThread;
  /** Pages in the document, known once the first thread has opened it. */
  numPages = 0;
  /** The renderer the threads opened the document with (pdfjs when PDFium refused it). */
  renderer: Renderer = 'pdfium';

  private readonly sources: PageSources<EngineThread>;
  /** Threads started and still opening the document. */
  private readonly opening = new Set<EngineThread>();
  private closed = false;

  private constructor(
    file: string | RangedFile,
    options: RenderPoolOptions,
  ) {
    this.sources = new PageSources(file);
    this.limits = {
      threads: Math.max(1, Math.floor(options.threads ?? defaultThreadCount())),
      pageTimeoutMs: options.pageTimeoutMs ?? PAGE_TIMEOUT_MS,
      maxHeapMb: options.maxHeapMb ?? MAX_HEAP_MB,
      stallPages: options.stallPages,
      renderer: options.renderer ?? 'pdfium',
      fallback: options.fallback ?? true,
    };
  }

  /**
   * Starts the first thread and opens the document in it: the file at a path,
   * or a RangedFile. A document that cannot be opened is refused with
   * UnprocessableFileError and no thread is left behind.
   */
  static async open(file: string | RangedFile, options: RenderPoolOptions = {}): Promise<RenderPool> {
    const pool = new RenderPool(file, options);
    try {
      pool.first = await pool.startThread();
      return pool;
    } catch (e) {
      await pool.close();
      if (e instanceof EngineTimeout) throw new UnprocessableFileError(`The PDF could not be opened for rendering within ${OPEN_TIMEOUT_MS / 1000} s; its structure is too complex. Export it again from the application that made it.`);
      if (e instanceof EngineOutOfMemory) throw new UnprocessableFileError(`The PDF needs more than ${pool.limits.maxHeapMb} MB of memory to open for rendering; split it into smaller files and send it again.`);
      throw e;
    }
  }

  /**
   * Renders the jobs, at most `threads` at a time, and returns their results in
   * the jobs' order. `beforeStart` is asked as each job is about to start; a
   * sentence back skips the job with that reason (the caller's time budget).
   * `settled` is told as each job ends, rendered or not (the caller's progress).
   * Errors that are not the page's (the out dir cannot be written) reject.
   */
  async render(
    jobs: PageJob[],
    outDir: string,
    beforeStart: (job: PageJob) => string | null = () => null,
    stop?: { at: number; now: () => number },
    settled: (job: PageJob) => void = () => {},
  ): Promise<PageResult[]> {
    const results: (PageResult | undefined)[] = jobs.map(() => undefined);
    let next = 0;
    let fault: unknown;
    let retired: unknown;

    const work = async (thread: EngineThread | undefined) => {
      for (;;) {
        if (fault !== undefined || next >= jobs.length) return;
        if (!thread?.usable) {
          // A page ended the thread (its time or heap limit), or the thread ended itself after a large page.
          try {
            thread = await this.startThread();
          } catch (e) {
            retired = e;
            return;
          }
          continue;
        }
        const i = next++;
        const job = jobs[i]!;
        const left = stop ? stop.at - stop.now() : Infinity;
        const skip = left <= 0 ? DEADLINE_BEFORE : beforeStart(job);
        if (skip !== null) {
          results[i] = { reason: skip };
          settled(job);
          continue;
        }
        const input: PageThreadInput = { op: 'render', page: job.page, role: job.role, options: job.options, outDir };
        // The caller's deadline ends a page like its own time limit does: the thread is ended.
        const byDeadline = left < this.limits.pageTimeoutMs;
        try {
          const out = (await thread.run(input, Math.min(this.limits.pageTimeoutMs, left))) as PageThreadOutput;
          if (out.op !== 'render') throw new Error(`A render thread answered a page with ${out.op}`);
          results[i] = out.ok ? { image: out.image, threadId: out.threadId } : { reason: out.reason, threadId: out.threadId };
        } catch (e) {
          if (e instanceof EngineTimeout) results[i] = { reason: byDeadline ? deadlineSentence(job.page) : this.timeoutSentence(job.page) };
          else if (e instanceof EngineOutOfMemory) results[i] = { reason: this.memorySentence(job.page) };
          else fault ??= e;
        }
        if (results[i]) settled(job);
      }
    };

    // The first thread has the document open already; the others start now and
    // take pages once ready. When every page has been taken and finished before
    // a thread is ready, nobody waits for it: close() hands it back once it is.
    let working = 0;
    let finished!: () => void;
    const allFinished = new Promise<null>((resolve) => (finished = () => resolve(null)));
    const serve = async (thread: EngineThread) => {
      working++;
      try {
        await work(thread);
      } finally {
        if (--working === 0 && (next >= jobs.length || fault !== undefined)) finished();
      }
    };
    const slots = Math.min(this.limits.threads, jobs.length);
    const first = this.first;
    this.first = undefined;
    await Promise.all(
      Array.from({ length: slots }, async (_, s) => {
        if (s === 0 && first) return serve(first);
        const starting = this.startThread();
        starting.catch(() => undefined);
        let thread: EngineThread | null;
        try {
          thread = await Promise.race([starting, allFinished]);
        } catch (e) {
          retired = e;
          return;
        }
        if (thread) await serve(thread);
      }),
    );
    if (fault !== undefined) throw fault;
    return results.map((r, i) => r ?? { reason: notRestarted(jobs[i]!.page, retired) });
  }

  /** Tests: the bytes of the file PDFium has read so far, summed over this pool's threads (after render()). */
  async bytesRead(): Promise<number> {
    let total = 0;
    for (const t of this.threads) {
      if (!t.usable) continue;
      const out = (await t.run({ op: 'bytes-read' } satisfies PageThreadInput, CLOSE_TIMEOUT_MS)) as PageThreadOutput;
      if (out.op === 'bytes-read') total += out.bytes ?? 0;
    }
    return total;
  }

  /**
   * Hands the threads back warm (up to MAX_THREADS in all) with their document
   * closed, or ends them; the pool cannot be used afterwards. No thread is busy
   * here: render() waits for every page it started.
   */
  async close(): Promise<void> {
    this.closed = true;
    // A thread still opening the document is handed back when it has (startThread).
    const all = [...this.threads].filter((t) => !this.opening.has(t));
    for (const t of all) this.threads.delete(t);
    await Promise.all(all.map((t) => this.release(t)));
  }

  /** Tests and logs: requests made to storage, and bytes fetched, for a RangedFile. */
  get storageReads(): { requests: number; bytes: number } | null {
    return this.sources.storageReads;
  }

  private async release(thread: EngineThread): Promise<void> {
    let retire = false;
    if (thread.usable && roomToKeepWarm()) {
      try {
        const out = (await thread.run({ op: 'close' } satisfies PageThreadInput, CLOSE_TIMEOUT_MS)) as PageThreadOutput;
        retire = out.op === 'close' && out.retire;
      } catch {
        // Ended by the time limit, or dead: not worth keeping.
      }
    }
    // The thread has closed the document (or is ended): nothing reads through its channel any more.
    this.sources.release(thread);
    if (retire || !keepWarm(thread)) await thread.end();
  }

  /** Starts (or takes a warm) thread and opens the document in it; counted in `starting` until it is done. */
  private startThread(): Promise<EngineThread> {
    const started = this.openInThread();
    const settled = started.then(
      () => undefined,
      () => undefined,
    );
    countStarting(settled);
    return started;
  }

  private async openInThread(): Promise<EngineThread> {
    const thread = takeIdle(this.limits.maxHeapMb) ?? newThread(this.limits.maxHeapMb);
    this.threads.add(thread);
    this.opening.add(thread);
    onEnded(thread, () => {
      this.threads.delete(thread);
      this.opening.delete(thread);
      this.sources.release(thread);
    });
    try {
      await thread.ready;
      const { renderer, fallback, stallPages } = this.limits;
      const source = this.sources.for(thread);
      const opened = (await thread.run({ op: 'open', source, renderer, fallback, stallPages } satisfies PageThreadInput, OPEN_TIMEOUT_MS)) as PageThreadOutput;
      if (opened.op === 'open') {
        this.numPages = opened.numPages;
        this.renderer = opened.renderer;
      }
    } catch (e) {
      // A refused document leaves a sound thread: kept warm. A stopped one is ended already.
      this.opening.delete(thread);
      this.threads.delete(thread);
      await this.release(thread);
      throw e;
    }
    this.opening.delete(thread);
    if (this.closed) {
      // Ready after the pool's pages were all done and the pool closed: handed back at once.
      this.threads.delete(thread);
      await this.release(thread);
    }
    return thread;
  }

  private timeoutSentence(page: number): string {
    return `Page ${page} took longer than ${seconds(this.limits.pageTimeoutMs)} s to render and was stopped; simplify the page (for example flatten transparency) or request a lower resolution.`;
  }

  private memorySentence(page: number): string {
    return `Page ${page} needs more than ${this.limits.maxHeapMb} MB of memory to render and was stopped; simplify the page (for example reduce the size of its images) or request a lower resolution.`;
  }
}


function notRestarted(page: number, cause: unknown): string {
  const why = cause instanceof Error ? ` (${cause.message})` : '';
  return `Page ${page} could not be rendered: the renderer could not be started again after an earlier page stopped it${why}.`;
}

/** Whole seconds; below ten seconds up to milliseconds (tests use short limits). */
function seconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? String(Math.round(s)) : String(Number(s.toFixed(3)));
}
