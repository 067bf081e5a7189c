/**
 * A render thread: opens the PDF once, from a file on disk or from the bytes
 * the calling thread serves (page-thread-protocol.ts PageSource), then
 * renders the pages it is handed, one at a time, each to an image file in the out dir. The calling
 * side is render-pool.ts.
 *
 * The renderer is PDFium (pdfium.ts, page-render-pdfium.ts), which reads the
 * file lazily: only the blocks the pages need. A file PDFium refuses to open
 * (damaged beyond its repair, encrypted with a password, 4 GiB or more) goes
 * to pdf.js (page-render.ts), which reads the whole file and gives the
 * customer the sentences it always did (a password is needed, the structure
 * is damaged). pdf.js is imported only then, so a thread that never needs it
 * never loads it.
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
import { FileSource, type ByteSource } from '../core/reader/byte-source';
import { SharedSource } from '../core/reader/shared-source';
import { isEngineThreadFor } from '../guard/engine-thread-protocol';
import { serveEngineRequests } from '../guard/serve-engine-requests';
import { PageFailure, RENDER_FAILED } from './page-failure';
import { LayerHiddenAnnotations } from './layer-hidden-annotations';
import { renderPdfiumPage } from './page-render-pdfium';
import { PAGE_THREAD, type PageSource, type PageThreadInput, type PageThreadOutput, type Renderer } from './page-thread-protocol';
import { discardPdfium, isPdfiumCrash, PdfiumDocument, PdfiumRefused, pdfiumMemoryBytes } from './pdfium';

/**
 * PDFium's wasm memory grows with the largest page and never shrinks: a
 * thread holding more than this after a document is ended instead of kept warm.
 */
const KEEP_WARM_MAX_BYTES = 512 * 1024 * 1024;

type Open = { renderer: 'pdfium'; doc: PdfiumDocument } | { renderer: 'pdfjs'; doc: PDFDocumentProxy };

let open: Open | undefined;
/** The open document's bytes, read by PDFium and the layer reader (pdf.js read them whole). */
let source: ByteSource | undefined;
/** For PDFium: which annotations a hidden layer keeps from printing (PDFium does not look). */
let layers: LayerHiddenAnnotations | undefined;
let stall = new Set<number>();

async function serve(input: PageThreadInput): Promise<PageThreadOutput> {
  if (input.op === 'open' || input.op === 'close') {
    // One document at a time; a warm thread must not hold the last one's memory.
    const previous = open;
    open = undefined;
    layers?.close();
    layers = undefined;
    stall = new Set();
    if (previous?.renderer === 'pdfium') previous.doc.close();
    else await previous?.doc.destroy();
    source?.close();
    source = undefined;
    if (input.op === 'close') return { op: 'close', retire: (await pdfiumMemoryBytes()) > KEEP_WARM_MAX_BYTES };
    source = sourceOf(input.source);
    try {
      open = await openDocument(source, input.renderer ?? 'pdfium', input.fallback ?? true);
    } catch (e) {
      source.close();
      source = undefined;
      throw e;
    }
    if (open.renderer === 'pdfium') layers = new LayerHiddenAnnotations(source);
    stall = new Set(input.stallPages ?? []);
    return { op: 'open', numPages: open.doc.numPages, renderer: open.renderer };
  }
  if (input.op === 'bytes-read') return { op: 'bytes-read', bytes: open?.renderer === 'pdfium' ? open.doc.bytesRead : null };
  if (!open) throw new Error('A render thread was asked for a page before it opened a document');
  if (stall.has(input.page)) for (;;);
  const current = open;
  try {
    const image =
      current.renderer === 'pdfium'
        ? await renderPdfiumPage(current.doc, input.page, input.options, input.role, input.outDir, layers)
        : await (await import('./page-render')).renderPage(current.doc, input.page, input.options, input.role, input.outDir);
    return { op: 'render', ok: true, image, threadId };
  } catch (e) {
    // A page that could not be read because storage failed is not the file's fault: the step fails, and is retried.
    throwStorageFailure();
    if (e instanceof PageFailure) return { op: 'render', ok: false, reason: e.message, threadId };
    if (current.renderer === 'pdfium' && isPdfiumCrash(e)) {
      // The page made PDFium trap or abort: that page fails, and the document is opened again in a fresh instance for the next.
      current.doc.abandon();
      discardPdfium();
      open = { renderer: 'pdfium', doc: await PdfiumDocument.open(current.doc.source) };
      return { op: 'render', ok: false, reason: RENDER_FAILED, threadId };
    }
    throw e;
  }
}

function sourceOf(from: PageSource): ByteSource {
  return 'path' in from ? new FileSource(from.path) : new SharedSource(from.channel, from.size);
}

/** Storage (through the calling thread) failed to deliver bytes: that error, not the renderer's view of the missing bytes. */
function throwStorageFailure(): void {
  if (source instanceof SharedSource && source.failure) throw source.failure;
}

async function openDocument(from: ByteSource, renderer: Renderer, fallback: boolean): Promise<Open> {
  if (renderer === 'pdfium') {
    try {
      return { renderer: 'pdfium', doc: await PdfiumDocument.open(from) };
    } catch (e) {
      throwStorageFailure();
      if (!(e instanceof PdfiumRefused) || !fallback) throw e;
    }
  }
  const pdfjs = await import('./page-render');
  // pdf.js reads the whole file: a copy, since pdf.js takes ownership of what it is given.
  const whole = from.read(0, from.size);
  throwStorageFailure();
  return { renderer: 'pdfjs', doc: await pdfjs.openDocument(whole.byteOffset === 0 && whole.length === whole.buffer.byteLength ? whole : whole.slice()) };
}

// Neither renderer decodes through the guard: its decode limits (and pdf-lib) have no part here.
if (isEngineThreadFor(PAGE_THREAD, isMainThread, workerData)) serveEngineRequests(serve as (input: never) => Promise<unknown>);
