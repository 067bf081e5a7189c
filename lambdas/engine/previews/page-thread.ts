/**
 * A render thread: opens the PDF once, then renders the pages it is handed,
 * one at a time, each to an image file in the out dir. The calling side is
 * render-pool.ts.
 *
 * It starts the way a guarded engine's thread does (guard/engine-thread.ts):
 * from thread-bootstrap.mjs, which imports this module, when the code runs as
 * TypeScript (vitest, tsx); from the Lambda bundle itself otherwise. Either way
 * this module's top level sees workerData naming PAGE_THREAD and serves
 * (guard/serve-engine.ts): each input is answered with its output or its error.
 */
import '../../platform/polyfills';
import { isMainThread, threadId, workerData } from 'node:worker_threads';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isEngineThreadFor } from '../guard/engine-thread-protocol';
import { serveEngine } from '../guard/serve-engine';
import type { PreviewOptions } from './options';
import { openDocument, PageFailure, renderPage } from './page-render';
import type { PreviewImage } from './types';

/** The thread's name in workerData, distinct from every guarded engine's. */
export const PAGE_THREAD = 'previews-pdf';
/** What the thread starts from (see above). */
export const PAGE_THREAD_URL = import.meta.url;

export type PageThreadInput =
  | {
      op: 'open';
      /** Shared with the other render threads: the bytes are not copied per thread. */
      bytes: SharedArrayBuffer;
      /** Tests only: pages on which the thread spins without end, as a pathological page would. */
      stallPages?: number[];
    }
  | { op: 'render'; page: number; role: PreviewImage['role']; options: PreviewOptions; outDir: string }
  /** The document is done with; the thread waits, warm, for the next one. */
  | { op: 'close' };

export type PageThreadOutput =
  | { op: 'open'; numPages: number }
  | { op: 'render'; ok: true; image: PreviewImage; threadId: number }
  | { op: 'render'; ok: false; reason: string; threadId: number }
  | { op: 'close' };

let pdf: PDFDocumentProxy | undefined;
let stall = new Set<number>();

async function serve(input: PageThreadInput): Promise<PageThreadOutput> {
  if (input.op === 'open' || input.op === 'close') {
    // One document at a time; a warm thread must not hold the last one's memory.
    const previous = pdf;
    pdf = undefined;
    stall = new Set();
    await previous?.destroy();
    if (input.op === 'close') return { op: 'close' };
    pdf = await openDocument(new Uint8Array(input.bytes));
    stall = new Set(input.stallPages ?? []);
    return { op: 'open', numPages: pdf.numPages };
  }
  if (!pdf) throw new Error('A render thread was asked for a page before it opened a document');
  if (stall.has(input.page)) for (;;);
  try {
    return { op: 'render', ok: true, image: await renderPage(pdf, input.page, input.options, input.role, input.outDir), threadId };
  } catch (e) {
    if (e instanceof PageFailure) return { op: 'render', ok: false, reason: e.message, threadId };
    throw e;
  }
}

if (isEngineThreadFor(PAGE_THREAD, isMainThread, workerData)) serveEngine(serve as (input: never) => Promise<unknown>, workerData);
