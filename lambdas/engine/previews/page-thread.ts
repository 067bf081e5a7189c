/**
 * A render thread: opens the PDF once, then renders the pages it is handed,
 * one at a time, each to an image file in the out dir. The calling side is
 * render-pool.ts.
 *
 * It starts the way a guarded engine's thread does (guard/engine-thread.ts):
 * from thread-bootstrap.mjs, which imports this module, when the code runs as
 * TypeScript (vitest, tsx); from the Lambda bundle itself otherwise. Either way
 * this module's top level sees workerData naming PAGE_THREAD and serves
 * (guard/serve-engine-requests.ts): each input is answered with its output or
 * its error.
 * Only render threads load this module (render-pool.ts says how); the messages
 * are in page-thread-protocol.ts.
 */
import '../../platform/polyfills';
import { isMainThread, threadId, workerData } from 'node:worker_threads';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isEngineThreadFor } from '../guard/engine-thread-protocol';
import { serveEngineRequests } from '../guard/serve-engine-requests';
import { openDocument, PageFailure, renderPage } from './page-render';
import { PAGE_THREAD, type PageThreadInput, type PageThreadOutput } from './page-thread-protocol';

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

// pdfjs decodes streams itself: the guard's decode limits (and pdf-lib) have no part here.
if (isEngineThreadFor(PAGE_THREAD, isMainThread, workerData)) serveEngineRequests(serve as (input: never) => Promise<unknown>);
