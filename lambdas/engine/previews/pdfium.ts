/**
 * PDFium (WebAssembly, @embedpdf/pdfium) set up for the render threads: one
 * instance per thread, documents opened lazily from a file on disk.
 *
 * - Lazy loading: a document is opened with FPDF_LoadCustomDocument and an
 *   FPDF_FILEACCESS whose m_GetBlock reads the blocks PDFium asks for from a
 *   ByteSource (core/reader/byte-source.ts): a file on disk, or the step's
 *   storage through the thread that serves it (core/reader/shared-source.ts).
 *   Opening reads the trailer, the cross-reference table and the catalog;
 *   rendering a page reads that page's objects and nothing else, so the first
 *   pages of a 500 MB file cost what they weigh, not what the file weighs.
 *   `bytesRead` counts what was read (tests).
 * - m_GetBlock is a JavaScript function added to the module's function table
 *   (addFunction, signature 'iiiii': int(void*, unsigned long, unsigned char*,
 *   unsigned long), all i32 in wasm32; the module allows table growth). wasm32's
 *   unsigned long is 32 bits, so a file of 4 GiB or more cannot be described
 *   to PDFium: it is refused here (error code FILE_TOO_LARGE) and goes to the
 *   caller's fallback.
 * - The wasm file is read from `pdfium/pdfium.wasm` beside the bundle (the
 *   Lambda bundle ships it there, lib/bundling/copy-runtime-files.mjs), else
 *   from the installed @embedpdf/pdfium package (development, tests).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { FileSource, type ByteSource } from '../core/reader/byte-source';
import { layOnBackdrop } from './page-backdrop';
import { makeRoomForDrawnAnnotations } from './pdfium-annotation-rects';

/** FPDF_GetLastError codes (fpdfview.h), and ours for a file PDFium cannot address. */
export const PDFIUM_ERRORS = { UNKNOWN: 1, FILE: 2, FORMAT: 3, PASSWORD: 4, SECURITY: 5, PAGE: 6, FILE_TOO_LARGE: 1001 } as const;

/** PDFium refused to open the document; `code` is FPDF_GetLastError's. */
export class PdfiumRefused extends Error {
  override name = 'PdfiumRefused';
  constructor(readonly code: number) {
    super(`PDFium could not open the document (error ${code})`);
  }
}

/** Render flags (fpdfview.h). */
const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const FPDF_PRINTING = 0x800;
const FPDFBITMAP_BGRA = 4;
/** Annotation flags (PDF 32000-1 12.5.3) and the Widget subtype's number (fpdf_annot.h). */
const ANNOT_HIDDEN = 2;
const ANNOT_PRINT = 4;
const FPDF_ANNOT_WIDGET = 20;
const FORMTYPE_NONE = 0;

const MAX_FILE_BYTES = 2 ** 32 - 1;

const NONE_HIDDEN: ReadonlySet<number> = new Set();

let loading: Promise<WrappedPdfiumModule> | undefined;

/** The wasm file: beside the bundle when it ships one, else the installed package's. */
export function pdfiumWasmPath(): string {
  const besideBundle = fileURLToPath(new URL('./pdfium/pdfium.wasm', import.meta.url));
  if (existsSync(besideBundle)) return besideBundle;
  return createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm');
}

/** This thread's PDFium, started on first use. */
export function pdfium(): Promise<WrappedPdfiumModule> {
  loading ??= init({ wasmBinary: readFileSync(pdfiumWasmPath()) } as never).then((m) => {
    m.PDFiumExt_Init();
    return m;
  });
  return loading;
}

/** An RGBA image, rows packed (width × 4 bytes each). */
export interface RgbaPixels {
  data: Buffer;
  width: number;
  height: number;
}

/** One open document: pages are rendered on demand, reading the file as they go. */
export class PdfiumDocument {
  /** Bytes read from the file so far, through m_GetBlock. */
  bytesRead = 0;
  readonly numPages: number;
  private form = 0;
  private formInfo = 0;
  private closed = false;

  private constructor(
    /** What the document is read from; closed with the document when it was opened from a path. */
    readonly source: ByteSource,
    private readonly ownsSource: boolean,
    private readonly m: WrappedPdfiumModule,
    private readonly fileAccess: number,
    private readonly getBlock: number,
    private doc: number,
  ) {
    this.numPages = m.FPDF_GetPageCount(doc);
  }

  /**
   * Opens the document at `path` (read and closed by the document) or in
   * `source` (read, left open: the caller owns it); refuses with
   * PdfiumRefused when PDFium cannot.
   */
  static async open(from: string | ByteSource): Promise<PdfiumDocument> {
    const m = await pdfium();
    // A fresh library per document: PDFium keeps font substitution state between
    // documents, and a substituted font rendered differently the first time and
    // after (issue18099_reduced.pdf; test/unit/engine/previews/pdfium-determinism.test.ts).
    // One document at a time per thread, so nothing else is open here.
    m.FPDF_DestroyLibrary();
    m.PDFiumExt_Init();
    const owns = typeof from === 'string';
    const source = typeof from === 'string' ? new FileSource(from) : from;
    const release = () => {
      if (owns) source.close();
    };
    if (source.size > MAX_FILE_BYTES) {
      release();
      throw new PdfiumRefused(PDFIUM_ERRORS.FILE_TOO_LARGE);
    }
    let opened: PdfiumDocument | undefined;
    const P = m.pdfium;
    const read = (_param: number, position: number, buf: number, length: number): number => {
      try {
        // Unsigned in C; i32 here. HEAPU8 is looked up on every call: memory growth replaces it.
        const bytes = source.read(position >>> 0, length >>> 0);
        heap(P).set(bytes, buf >>> 0);
        if (opened) opened.bytesRead += bytes.length;
        else pending += bytes.length;
        return bytes.length === length >>> 0 ? 1 : 0;
      } catch {
        return 0;
      }
    };
    let pending = 0;
    const getBlock = P.addFunction(read, 'iiiii');
    // FPDF_FILEACCESS { unsigned long m_FileLen; m_GetBlock; void* m_Param; }: three i32.
    const fileAccess = P.wasmExports.malloc(12);
    P.setValue(fileAccess, source.size, 'i32');
    P.setValue(fileAccess + 4, getBlock, 'i32');
    P.setValue(fileAccess + 8, 0, 'i32');
    const doc = m.FPDF_LoadCustomDocument(fileAccess, '');
    if (!doc) {
      const code = m.FPDF_GetLastError();
      P.wasmExports.free(fileAccess);
      P.removeFunction(getBlock);
      release();
      throw new PdfiumRefused(code || PDFIUM_ERRORS.UNKNOWN);
    }
    opened = new PdfiumDocument(source, owns, m, fileAccess, getBlock, doc);
    opened.bytesRead = pending;
    if (m.FPDF_GetFormType(doc) !== FORMTYPE_NONE) opened.startForms();
    return opened;
  }

  /** Widgets are drawn by the form-fill layer (FPDF_FFLDraw), only when the document has a form. */
  private startForms(): void {
    this.formInfo = this.m.PDFiumExt_OpenFormFillInfo();
    this.form = this.m.PDFiumExt_InitFormFillEnvironment(this.doc, this.formInfo);
    // No highlight of fillable fields: a preview shows the page as printed.
    if (this.form) this.m.FPDF_SetFormFieldHighlightAlpha(this.form, 0);
  }

  /**
   * Renders a page's CropBox, RGBA, onto `background` (0xAARRGGBB; alpha 0
   * keeps it transparent), with the annotations that print: FPDF_ANNOT |
   * FPDF_PRINTING draws the printable annotations; widgets are drawn by
   * FPDF_FFLDraw, which does not look at the print flag, so widgets that do
   * not print are taken off the page first (in memory only; the file is never
   * written).
   *
   * `fit` gets the page's size in points at scale 1 (its CropBox within the
   * MediaBox, /Rotate applied, as pdf.js' viewport gives it; PDFium ignores
   * UserUnit) and returns the pixel size, or throws to refuse the page. The
   * page is loaded (its content parsed) once, for both.
   *
   * `hiddenAmong` is asked, only when some of the page's annotations belong
   * to a layer (have /OC), which of those positions in /Annots are hidden
   * (layer-hidden-annotations.ts): most pages have none, and are drawn
   * without the layer reader ever being loaded.
   * Throws PdfiumPageUnreadable when the page object cannot be loaded, and
   * PdfiumOutOfMemory when the bitmap cannot be allocated.
   */
  async renderPage(
    pageNo: number,
    fit: (width: number, height: number) => { width: number; height: number },
    background: number,
    hiddenAmong?: (layered: number[]) => Promise<ReadonlySet<number>>,
  ): Promise<RgbaPixels> {
    const m = this.m;
    const P = m.pdfium;
    const page = m.FPDF_LoadPage(this.doc, pageNo - 1);
    if (!page) throw new PdfiumPageUnreadable(pageNo);
    let bitmap = 0;
    let formPage = false;
    try {
      const { width, height } = fit(m.FPDF_GetPageWidthF(page), m.FPDF_GetPageHeightF(page));
      const layered = hiddenAmong ? this.annotationsInLayers(page) : [];
      const hidden = layered.length > 0 ? await hiddenAmong!(layered) : NONE_HIDDEN;
      bitmap = m.FPDFBitmap_CreateEx(width, height, FPDFBITMAP_BGRA, 0, 0);
      if (!bitmap) throw new PdfiumOutOfMemory(pageNo);
      this.dropAnnotationsThatDoNotPrint(page, hidden);
      makeRoomForDrawnAnnotations(m, page);
      if (this.form) {
        m.FORM_OnAfterLoadPage(page, this.form);
        formPage = true;
      }
      // Drawn onto transparency and laid onto the background afterwards: page-backdrop.ts says why.
      m.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0);
      const flags = FPDF_ANNOT | FPDF_PRINTING | FPDF_REVERSE_BYTE_ORDER;
      m.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, flags);
      if (this.form) m.FPDF_FFLDraw(this.form, bitmap, page, 0, 0, width, height, 0, flags);
      const stride = m.FPDFBitmap_GetStride(bitmap);
      const at = m.FPDFBitmap_GetBuffer(bitmap);
      // A copy (made while laying the page onto its background): the wasm memory is reused by the next page while sharp encodes this one.
      const data = layOnBackdrop(heap(P).subarray(at, at + stride * height), stride, width, height, background);
      return { data, width, height };
    } finally {
      if (bitmap) m.FPDFBitmap_Destroy(bitmap);
      if (formPage) m.FORM_OnBeforeClosePage(page, this.form);
      m.FPDF_ClosePage(page);
    }
  }

  /** Positions in the page's /Annots of the annotations that name a layer (/OC). */
  private annotationsInLayers(page: number): number[] {
    const m = this.m;
    const layered: number[] = [];
    for (let i = 0, n = m.FPDFPage_GetAnnotCount(page); i < n; i++) {
      const annot = m.FPDFPage_GetAnnot(page, i);
      if (!annot) continue;
      if (m.FPDFAnnot_HasKey(annot, 'OC')) layered.push(i);
      m.FPDFPage_CloseAnnot(annot);
    }
    return layered;
  }

  /**
   * Takes off the page (in memory) the widgets that do not print, when the
   * form-fill layer will draw widgets, and the annotations at the `hidden`
   * positions of /Annots (those in a layer that is off, layer-hidden-annotations.ts).
   */
  private dropAnnotationsThatDoNotPrint(page: number, hidden: ReadonlySet<number>): void {
    const m = this.m;
    if (!this.form && hidden.size === 0) return;
    for (let i = m.FPDFPage_GetAnnotCount(page) - 1; i >= 0; i--) {
      if (hidden.has(i)) {
        m.FPDFPage_RemoveAnnot(page, i);
        continue;
      }
      if (!this.form) continue;
      const annot = m.FPDFPage_GetAnnot(page, i);
      if (!annot) continue;
      const widget = m.FPDFAnnot_GetSubtype(annot) === FPDF_ANNOT_WIDGET;
      const flags = m.FPDFAnnot_GetFlags(annot);
      m.FPDFPage_CloseAnnot(annot);
      if (widget && ((flags & ANNOT_PRINT) === 0 || (flags & ANNOT_HIDDEN) !== 0)) m.FPDFPage_RemoveAnnot(page, i);
    }
  }

  /** The wasm memory this thread holds, in bytes (it grows and never shrinks). */
  memoryBytes(): number {
    return heap(this.m.pdfium).byteLength;
  }

  /** After PDFium crashed: its memory is not touched again, only the file is closed. */
  abandon(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsSource) this.source.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const m = this.m;
    if (this.form) m.PDFiumExt_ExitFormFillEnvironment(this.form);
    if (this.formInfo) m.PDFiumExt_CloseFormFillInfo(this.formInfo);
    m.FPDF_CloseDocument(this.doc);
    this.doc = 0;
    m.pdfium.wasmExports.free(this.fileAccess);
    m.pdfium.removeFunction(this.getBlock);
    if (this.ownsSource) this.source.close();
  }
}

/** The page's bitmap does not fit in PDFium's memory. */
export class PdfiumOutOfMemory extends Error {
  override name = 'PdfiumOutOfMemory';
  constructor(readonly page: number) {
    super(`PDFium could not allocate the bitmap of page ${page}`);
  }
}

/**
 * Forgets this thread's PDFium instance: after a trap or an abort inside the
 * wasm its memory cannot be trusted, and the next document gets a fresh one.
 */
export function discardPdfium(): void {
  loading = undefined;
}

/** A trap or abort inside PDFium's wasm (as opposed to a page it refused). */
export function isPdfiumCrash(e: unknown): boolean {
  return (e instanceof Error && (e.name === 'RuntimeError' || /^Aborted\(/.test(e.message))) || (typeof e === 'string' && /^Aborted\(|Unable to grow/.test(e));
}

/** A page object PDFium cannot load. */
export class PdfiumPageUnreadable extends Error {
  override name = 'PdfiumPageUnreadable';
  constructor(readonly page: number) {
    super(`PDFium could not load page ${page}`);
  }
}

/** The wasm memory of this thread's PDFium, in bytes; 0 before it is started. */
export async function pdfiumMemoryBytes(): Promise<number> {
  return loading ? heap((await loading).pdfium).byteLength : 0;
}

/** The wasm memory as bytes; looked up each time, since memory growth replaces the view. */
const heap = (P: WrappedPdfiumModule['pdfium']): Uint8Array => (P as unknown as { HEAPU8: Uint8Array }).HEAPU8;
