/**
 * Fixtures for the content fixes: pages built from content stream text (with
 * Helvetica as /F1 and whatever extra resources a test names), form XObjects,
 * spot colour spaces, and reading back the operations of a page or form. The
 * measurements every area shares (running a fix, rendering, text, preflight,
 * qpdf) come from ../fixtures-common.ts.
 */
import { PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, StandardFonts } from '@cantoo/pdf-lib';
import { operations, type Operation } from '../../../../../lambdas/engine/core/content-lexer';
import { contentBytes } from '../../../../../lambdas/engine/core/page-content';
import { decodeStream } from '../../../../../lambdas/engine/core/pdf-objects';
import { A4 } from '../fixtures-common';

export { A4, differingShare, pageTexts, pixelAt, preflightChecks, previewPixels, qpdfCheck, runFix, type FixRun } from '../fixtures-common';

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
