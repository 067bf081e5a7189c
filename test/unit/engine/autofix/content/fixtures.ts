/**
 * Fixtures and measurements for the content fixes: pages built from content
 * stream text (with Helvetica as /F1 and whatever extra resources a test
 * names), form XObjects, and the helpers the tests measure with — running one
 * fix as the engine does (load, fix, save, re-open), the operations of a
 * page or form, rendering with the previews engine, text extraction and
 * preflight.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, StandardFonts } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { expect } from 'vitest';
import { findFix, fixParams } from '../../../../../lambdas/engine/catalog';
import { FIX_IMPLEMENTATIONS } from '../../../../../lambdas/engine/autofix/registry';
import type { FixOutcome } from '../../../../../lambdas/engine/autofix/fix';
import { operations, type Operation } from '../../../../../lambdas/engine/core/content-lexer';
import { openPdfBytes } from '../../../../../lambdas/engine/core/load-pdf';
import { contentBytes } from '../../../../../lambdas/engine/core/page-content';
import { decodeStream } from '../../../../../lambdas/engine/core/pdf-objects';
import { renderPreviews } from '../../../../../lambdas/engine/previews/index';
import { openForRendering } from '../../../../../lambdas/engine/previews/pdfjs';
import { preflight } from '../../../../../lambdas/engine/preflight/index';

export const A4: [number, number] = [595.28, 841.89];

export interface PageSpec {
  content: string;
  /** Extra resource categories, merged with { Font: { F1: Helvetica } }. */
  resources?: Record<string, Record<string, unknown>>;
}

/** A document whose pages have exactly the given content; `setup` may add objects (forms) first and returns extra resources. */
export async function contentPdf(pages: PageSpec[], setup?: (doc: PDFDocument) => void): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  setup?.(doc);
  for (const spec of pages) {
    const page = doc.addPage(A4);
    const resources: Record<string, unknown> = { Font: { F1: font.ref, ...(spec.resources?.Font ?? {}) } };
    for (const [k, v] of Object.entries(spec.resources ?? {})) if (k !== 'Font') resources[k] = v;
    page.node.set(PDFName.of('Resources'), doc.context.obj(resources as never));
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(spec.content)));
  }
  return doc;
}

/** A form XObject with the given content (BBox the whole page unless given). */
export function form(doc: PDFDocument, content: string, opts: { resources?: Record<string, unknown> | null; bbox?: number[]; matrix?: number[] } = {}): PDFRef {
  const dict: Record<string, unknown> = { Type: 'XObject', Subtype: 'Form', BBox: opts.bbox ?? [0, 0, A4[0], A4[1]] };
  if (opts.resources !== null) dict.Resources = opts.resources ?? {};
  if (opts.matrix) dict.Matrix = opts.matrix;
  return doc.context.register(doc.context.stream(content, dict as never));
}

/** Helvetica's reference in a document built by contentPdf (for form resources). */
export function helvetica(doc: PDFDocument): PDFRef {
  const fonts = doc.getPage(0).node.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('Font'), PDFDict);
  return fonts.get(PDFName.of('F1')) as PDFRef;
}

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
  const outcome = await FIX_IMPLEMENTATIONS[fixId]!(doc, { order: null, params: fixParams(findFix(fixId)!, params) });
  const after = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  const reopened = await openPdfBytes(after);
  return { outcome, before, after, doc: reopened.doc };
}

/** The operations of a page's content, each as "operands op" text (numbers as the lexer read them). */
export function pageOps(doc: PDFDocument, pageIndex = 0): string[] {
  const page = doc.getPage(pageIndex).node;
  return opTexts([...operations(contentBytes(doc.context, page.get(PDFName.of('Contents')))!)]);
}

/** The operations of a form XObject named in a page's resources. */
export function formOps(doc: PDFDocument, pageIndex: number, key: string): string[] {
  const s = formStream(doc, pageIndex, key);
  return opTexts([...operations(decodeStream(s).bytes!)]);
}

export function formStream(doc: PDFDocument, pageIndex: number, key: string): PDFStream {
  const xobjects = doc.getPage(pageIndex).node.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('XObject'), PDFDict);
  return xobjects.lookup(PDFName.of(key), PDFStream);
}

export function opTexts(ops: Operation[]): string[] {
  return ops.map((o) => [...o.operands.map(operandString), o.op].join(' '));
}

function operandString(o: unknown): string {
  if (typeof o === 'number' || typeof o === 'boolean' || o === null) return String(o);
  if (Array.isArray(o)) return `[${o.map(operandString).join(' ')}]`;
  if (typeof o === 'object' && 'name' in o) return `/${(o as { name: string }).name}`;
  if (typeof o === 'object' && 'bytes' in o) return `(${Buffer.from((o as { bytes: Uint8Array }).bytes).toString('latin1')})`;
  return JSON.stringify(o);
}

/** Renders every page with the previews engine (PNG, 72 dpi) and returns their raw RGB pixels. */
export async function previewPixels(bytes: Uint8Array, dir: string): Promise<{ data: Uint8Array; width: number; height: number }[]> {
  const path = join(dir, `p${Math.random().toString(36).slice(2)}.pdf`);
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

/** Share of pixels (RGB) whose channels differ by more than `tolerance` (0–255). */
export function differingShare(a: { data: Uint8Array }, b: { data: Uint8Array }, tolerance = 24): number {
  if (a.data.length !== b.data.length) return 1;
  let differing = 0;
  for (let i = 0; i < a.data.length; i += 3) {
    if (Math.abs(a.data[i]! - b.data[i]!) > tolerance || Math.abs(a.data[i + 1]! - b.data[i + 1]!) > tolerance || Math.abs(a.data[i + 2]! - b.data[i + 2]!) > tolerance) differing++;
  }
  return differing / (a.data.length / 3);
}

/** The RGB of the pixel at PDF point (x, y) of a 72 dpi A4 render. */
export function pixelAt(img: { data: Uint8Array; width: number; height: number }, x: number, y: number): [number, number, number] {
  const i = (Math.floor(img.height - y) * img.width + Math.floor(x)) * 3;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
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

/** The check ids preflight reports for a file. */
export async function preflightChecks(bytes: Uint8Array, dir: string, profileId = 'default'): Promise<string[]> {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(path, bytes);
  const result = await preflight({ path, fileType: 'pdf', profileId, context: null });
  return result.report.findings.map((f) => f.checkId);
}

/** qpdf --check's exit status for a file: 0 clean, 3 warnings, 2 errors. */
export async function qpdfCheck(bytes: Uint8Array, dir: string): Promise<number> {
  const { spawnSync } = await import('node:child_process');
  const path = join(dir, `q${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(path, bytes);
  return spawnSync('qpdf', ['--check', path], { encoding: 'utf8' }).status ?? -1;
}

/** A Separation colour space whose alternate is DeviceCMYK, tint → `cmyk` × tint (a Type 2 function). */
export function separation(doc: PDFDocument, colorant: string, cmyk: [number, number, number, number]): PDFRef {
  const fn = doc.context.obj({ FunctionType: 2, Domain: [0, 1], C0: [0, 0, 0, 0], C1: cmyk, N: 1 });
  return doc.context.register(doc.context.obj([PDFName.of('Separation'), PDFName.of(colorant), PDFName.of('DeviceCMYK'), fn]));
}

/** Sets a page's resource entry (category/key) after the page is built. */
export function setResource(doc: PDFDocument, pageIndex: number, category: string, key: string, value: unknown): void {
  const resources = doc.getPage(pageIndex).node.lookup(PDFName.of('Resources'), PDFDict);
  let dict = resources.lookup(PDFName.of(category));
  if (!(dict instanceof PDFDict)) {
    dict = doc.context.obj({});
    resources.set(PDFName.of(category), dict as PDFDict);
  }
  (dict as PDFDict).set(PDFName.of(key), value instanceof PDFRef ? value : doc.context.obj(value as never));
}
