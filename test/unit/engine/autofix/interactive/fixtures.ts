/**
 * Fixtures and measurements for the interactive fixes: PDFs with annotations,
 * form fields, attachments and layers built with pdf-lib, and the helpers the
 * tests measure with — running one fix the way the engine does (load, fix,
 * save, re-open), rendering pages with pdfjs in display or print intent,
 * rendering with the previews engine, and reading text back.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, StandardFonts, rgb, type PDFPage } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { expect } from 'vitest';
import { findFix, fixParams } from '../../../../../lambdas/engine/catalog';
import { FIX_IMPLEMENTATIONS } from '../../../../../lambdas/engine/autofix/registry';
import type { FixOutcome } from '../../../../../lambdas/engine/autofix/fix';
import { openPdfBytes } from '../../../../../lambdas/engine/core/load-pdf';
import { decodeStream } from '../../../../../lambdas/engine/core/pdf-objects';
import { renderPreviews } from '../../../../../lambdas/engine/previews/index';
import { openForRendering } from '../../../../../lambdas/engine/previews/pdfjs';
import { preflight } from '../../../../../lambdas/engine/preflight/index';

export const A4: [number, number] = [595.28, 841.89];

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

export interface FixRun {
  outcome: FixOutcome;
  before: Uint8Array;
  after: Uint8Array;
  doc: PDFDocument;
}

/** Runs one fix as the engine does: open, fix with the catalogue's defaults over `params`, save, re-open. */
export async function runFix(fixId: string, input: PDFDocument | Uint8Array, params: Record<string, unknown> = {}): Promise<FixRun> {
  const before = input instanceof Uint8Array ? input : await input.save({ useObjectStreams: false });
  const { doc } = await openPdfBytes(before);
  const info = findFix(fixId)!;
  const outcome = await FIX_IMPLEMENTATIONS[fixId]!(doc, { order: null, params: fixParams(info, params) });
  const after = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  const reopened = await openPdfBytes(after);
  return { outcome, before, after, doc: reopened.doc };
}

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

/** Share of pixels whose channels differ by more than `tolerance` (0–255). */
export function differingShare(a: { data: Uint8ClampedArray | Uint8Array }, b: { data: Uint8ClampedArray | Uint8Array }, tolerance = 24): number {
  if (a.data.length !== b.data.length) return 1;
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i]! - b.data[i]!) > tolerance || Math.abs(a.data[i + 1]! - b.data[i + 1]!) > tolerance || Math.abs(a.data[i + 2]! - b.data[i + 2]!) > tolerance) differing++;
  }
  return differing / (a.data.length / 4);
}

/** The RGB colour of a pixel at PDF coordinates (x, y) on a 72 dpi render of an A4 page. */
export function pixelAt(img: { width: number; height: number; data: Uint8ClampedArray }, x: number, y: number): [number, number, number] {
  const px = Math.floor(x);
  const py = Math.floor(img.height - y);
  const i = (py * img.width + px) * 4;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
}

/** Renders every page with the previews engine (PNG, 72 dpi) and returns their raw RGB pixels. */
export async function previewPixels(bytes: Uint8Array, dir: string): Promise<{ data: Uint8Array; width: number; height: number }[]> {
  const path = join(dir, `p${Math.random().toString(36).slice(2)}.pdf`);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path, bytes);
  const result = await renderPreviews({ path, fileType: 'pdf', params: { format: 'png', dpi: 72, thumbnail: false }, outDir: `${path}.out` });
  expect(result.failures).toEqual([]);
  const out = [];
  for (const img of result.images.filter((i) => i.role === 'preview')) {
    const { data, info } = await sharp(await readFile(img.path)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    out.push({ data: new Uint8Array(data), width: info.width, height: info.height });
  }
  return out;
}

/** Text of every page, as pdfjs extracts it. */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await openForRendering(bytes);
  try {
    const out: string[] = [];
    for (let i = 1; i <= pdf.numPages; i++) {
      const content = await (await pdf.getPage(i)).getTextContent();
      out.push(content.items.map((it) => ('str' in it ? it.str : '')).join(''));
    }
    return out;
  } finally {
    await pdf.destroy();
  }
}

/** The check ids preflight reports for a file (profile `default`). */
export async function preflightChecks(bytes: Uint8Array, dir: string): Promise<string[]> {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.pdf`);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path, bytes);
  const result = await preflight({ path, fileType: 'pdf', profileId: 'default', context: null });
  return result.report.findings.map((f) => f.checkId);
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
