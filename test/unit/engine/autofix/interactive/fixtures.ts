/**
 * Fixtures for the interactive fixes: PDFs with annotations, form fields,
 * attachments and layers built with pdf-lib, rendering a page with pdfjs in
 * display or print intent (annotations print or not), and reading back
 * annotations and page content. The measurements every area shares (running a
 * fix, previews, text, preflight) come from ../fixtures-common.ts.
 */
import { createCanvas } from '@napi-rs/canvas';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, StandardFonts, rgb, type PDFPage } from '@cantoo/pdf-lib';
import { decodeStream } from '../../../../../lambdas/engine/core/pdf-objects';
import { openForRendering } from '../../../../../lambdas/engine/previews/pdfjs';
import { A4 } from '../fixtures-common';

export { A4, differingShare, pageTexts, pixelAt, preflightChecks, previewPixels, runFix, type FixRun } from '../fixtures-common';

/** A document of `pages` A4 pages, each with a line of body text and a grey bar. */
export async function basePdf(pages = 1): Promise<{ doc: PDFDocument; pages: PDFPage[] }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const out: PDFPage[] = [];
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage(A4);
    page.drawText(`Body text of page ${i + 1}`, { x: 60, y: 760, size: 14, font });
    page.drawRectangle({ x: 60, y: 600, width: 300, height: 40, color: rgb(0.6, 0.6, 0.6) });
    out.push(page);
  }
  return { doc, pages: out };
}

/** A form XObject usable as an appearance stream: `ops` drawn in its BBox, with an optional Matrix. */
export function appearance(doc: PDFDocument, ops: string, opts: { bbox?: number[]; matrix?: number[]; resources?: Record<string, unknown>; subtype?: boolean } = {}): PDFRef {
  const dict: Record<string, unknown> = { BBox: opts.bbox ?? [0, 0, 100, 50] };
  if (opts.subtype !== false) Object.assign(dict, { Type: 'XObject', Subtype: 'Form' });
  if (opts.matrix) dict.Matrix = opts.matrix;
  if (opts.resources) dict.Resources = opts.resources;
  return doc.context.register(doc.context.stream(ops, dict as never));
}

/** Adds an annotation dictionary to a page's /Annots and returns its reference. */
export function addAnnotation(doc: PDFDocument, page: PDFPage, entries: Record<string, unknown>): PDFRef {
  const ref = doc.context.register(doc.context.obj({ Type: 'Annot', ...entries } as never));
  const node = page.node;
  const annots = node.lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(ref);
  else node.set(PDFName.of('Annots'), doc.context.obj([ref]));
  return ref;
}

export const PRINT = 4;
export const HIDDEN = 2;
export const NO_VIEW = 32;

/** A red square appearance of 100 × 50. */
export const RED_BOX = '1 0 0 rg 0 0 100 50 re f';
export const BLUE_BOX = '0 0 1 rg 0 0 100 50 re f';

/** RGBA pixels of one page rendered by pdfjs at 72 dpi, white background, in display or print intent. */
export async function renderPage(bytes: Uint8Array, pageNo = 1, intent: 'display' | 'print' = 'display'): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const pdf = await openForRendering(bytes);
  try {
    const page = await pdf.getPage(pageNo);
    const viewport = page.getViewport({ scale: 1 });
    const width = Math.ceil(viewport.width);
    const height = Math.ceil(viewport.height);
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = 'white';
    ctx.fillRect(0, 0, width, height);
    await page.render({ canvas: canvas as never, canvasContext: ctx as never, viewport, intent }).promise;
    return { width, height, data: ctx.getImageData(0, 0, width, height).data };
  } finally {
    await pdf.destroy();
  }
}

/** Subtypes of the annotations on each page. */
export function annotationSubtypes(doc: PDFDocument): string[][] {
  return doc.getPages().map((p) => {
    const annots = p.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) return [];
    return annots.asArray().map((r) => {
      const a = doc.context.lookup(r);
      const s = a instanceof PDFDict ? a.lookup(PDFName.of('Subtype')) : undefined;
      return s instanceof PDFName ? s.decodeText() : '?';
    });
  });
}

/** The decoded content of a page, all its streams joined. */
export function pageContent(doc: PDFDocument, pageIndex = 0): string {
  const page = doc.getPage(pageIndex).node;
  const contents = page.lookup(PDFName.of('Contents'));
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
  return streams
    .filter((s): s is PDFStream => s instanceof PDFStream)
    .map((s) => Buffer.from(decode(s)).toString('latin1'))
    .join('\n');
}

function decode(s: PDFStream): Uint8Array {
  return decodeStream(s).bytes ?? new Uint8Array();
}
