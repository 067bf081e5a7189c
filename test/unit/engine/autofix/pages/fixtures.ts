/**
 * What the page-geometry fix tests share: PDFs built in code with exactly the
 * geometry under test (rotation, boxes, annotations, patterns), running one fix
 * the way the autofix engine does (catalogue defaults, save, re-open),
 * rendering with the previews engine and comparing pixels, and reading text
 * back with pdfjs.
 */
import { readFile } from 'node:fs/promises';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFString, type PDFContext, type PDFRef } from '@cantoo/pdf-lib';
import type { OrderContext } from '../../../../../lambdas/domain/model';
import type { FixOutcome } from '../../../../../lambdas/engine/autofix/fix';
import { FIX_IMPLEMENTATIONS } from '../../../../../lambdas/engine/autofix/registry';
import { findFix, fixParams } from '../../../../../lambdas/engine/profile-catalogue';
import { openPdfBytes } from '../../../../../lambdas/engine/core/load-pdf';
import { readPageBoxes, type PageBoxes } from '../../../../../lambdas/engine/core/page-boxes';
import { extractText } from '../../../../support/text-extract';
import { tempFiles } from '../../temp-files';
import { previewRasters, type Raster as AnyRaster } from '../fixtures-common';

export type Rect = [number, number, number, number];

export const files = tempFiles('autofix-pages');
let outN = 0;

/** Runs one fix on the bytes like the engine does: defaults for the params not given, save, re-open. */
export async function runFix(fixId: string, bytes: Uint8Array, opts: { order?: OrderContext | null; params?: Record<string, unknown> } = {}): Promise<{ outcome: FixOutcome; bytes: Uint8Array; path: string }> {
  const info = findFix(fixId);
  const fix = FIX_IMPLEMENTATIONS[fixId];
  if (!info || !fix) throw new Error(`no fix ${fixId}`);
  const { doc } = await openPdfBytes(bytes);
  const outcome = await fix(doc, { order: opts.order ?? null, params: fixParams(info, opts.params) });
  const out = outcome.count > 0 ? await doc.save({ useObjectStreams: false, updateFieldAppearances: false }) : bytes;
  await openPdfBytes(out); // re-opens, as the engine requires
  return { outcome, bytes: out, path: files.write(out, 'pdf') };
}

export async function boxesOf(bytes: Uint8Array): Promise<PageBoxes[]> {
  const { doc } = await openPdfBytes(bytes);
  return doc.getPages().map((p) => readPageBoxes(doc.context, p.node));
}

/** A page as the previews engine renders it: RGB, 3 bytes a pixel, rows top to bottom. */
export type Raster = AnyRaster & { data: Uint8Array };

/** Every page rendered by the previews engine (PNG, 72 dpi unless told), as raw RGB. */
export async function render(bytes: Uint8Array, dpi = 72): Promise<Raster[]> {
  return previewRasters(files.write(bytes, 'pdf'), files.path(`render${++outN}`), { dpi });
}

/**
 * Pixels that differ by more than `tolerance` (0–255, any channel) inside a
 * region given in pixels from the top left (default: the whole image), after
 * insetting it by `inset` pixels (anti-aliasing along an edge is not content).
 */
export function differingPixels(a: Raster, b: Raster, region?: { left: number; top: number; right: number; bottom: number }, tolerance = 24, inset = 0): number {
  if (a.width !== b.width || a.height !== b.height) return Number.POSITIVE_INFINITY;
  const r = region ?? { left: 0, top: 0, right: a.width, bottom: a.height };
  let n = 0;
  for (let y = Math.max(0, Math.ceil(r.top) + inset); y < Math.min(a.height, Math.floor(r.bottom) - inset); y++) {
    for (let x = Math.max(0, Math.ceil(r.left) + inset); x < Math.min(a.width, Math.floor(r.right) - inset); x++) {
      const i = (y * a.width + x) * 3;
      if (Math.abs(a.data[i]! - b.data[i]!) > tolerance || Math.abs(a.data[i + 1]! - b.data[i + 1]!) > tolerance || Math.abs(a.data[i + 2]! - b.data[i + 2]!) > tolerance) n++;
    }
  }
  return n;
}

/** RGB of one pixel. */
export function pixelAt(img: Raster, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * img.width + Math.round(x)) * 3;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
}

/** Pixels that are not paper white in a region (pixels from the top left). */
export function inkedPixels(img: Raster, region: { left: number; top: number; right: number; bottom: number }): number {
  let n = 0;
  for (let y = Math.max(0, Math.ceil(region.top)); y < Math.min(img.height, Math.floor(region.bottom)); y++) {
    for (let x = Math.max(0, Math.ceil(region.left)); x < Math.min(img.width, Math.floor(region.right)); x++) {
      const i = (y * img.width + x) * 3;
      if (img.data[i]! < 245 || img.data[i + 1]! < 245 || img.data[i + 2]! < 245) n++;
    }
  }
  return n;
}

export async function textOf(bytes: Uint8Array): Promise<string[]> {
  return extractText(files.write(bytes, 'pdf'), 20);
}

export interface TestPage {
  mediaBox?: Rect;
  cropBox?: Rect;
  trimBox?: Rect;
  bleedBox?: Rect;
  artBox?: Rect;
  /** Written as is (a number, or a name to test leniency). */
  rotate?: number | string;
  /** Content stream text; default: an asymmetric picture (see `picture`). */
  content?: string;
  /** A Square annotation with an appearance stream, at this Rect. */
  annotation?: { rect: Rect; quadPoints?: number[]; flags?: number };
  /** A tiling pattern P1 in the resources (the content may paint with it: /Pattern cs /P1 scn). */
  pattern?: boolean;
}

/**
 * An asymmetric picture on a page: text at the top left, a red block at the
 * bottom left, a blue bar along the right edge, a green square near the top
 * right. Any wrong turn, flip or shift shows in the pixels.
 */
export function picture(box: Rect, text = 'Proofline'): string {
  const [x0, y0, x1, y1] = box;
  const w = x1 - x0;
  const h = y1 - y0;
  return [
    '0 0 0 rg BT /F1 18 Tf', `${x0 + 30} ${y1 - 50} Td (${text}) Tj ET`,
    '1 0 0 rg', `${x0 + 20} ${y0 + 20} ${w * 0.3} ${h * 0.15} re f`,
    '0 0 1 rg', `${x1 - 40} ${y0 + 10} 30 ${h * 0.6} re f`,
    '0 0.6 0 rg', `${x1 - 120} ${y1 - 110} 60 60 re f`,
  ].join('\n');
}

/**
 * A PDF with one page per spec; `parentRotate` sets /Rotate on the page tree
 * root (inherited by pages without their own).
 */
export async function buildPages(pages: TestPage[], opts: { parentRotate?: number; parentMediaBox?: Rect } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const font = ctx.register(ctx.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
  for (const spec of pages) {
    const page = doc.addPage([595, 842]);
    const node = page.node;
    const media = spec.mediaBox ?? [0, 0, 595, 842];
    if (opts.parentMediaBox && !spec.mediaBox) node.delete(PDFName.of('MediaBox'));
    else node.set(PDFName.of('MediaBox'), ctx.obj(media));
    for (const key of ['cropBox', 'trimBox', 'bleedBox', 'artBox'] as const) {
      const r = spec[key];
      if (r) node.set(PDFName.of(key[0]!.toUpperCase() + key.slice(1)), ctx.obj(r));
    }
    if (typeof spec.rotate === 'number') node.set(PDFName.of('Rotate'), PDFNumber.of(spec.rotate));
    else if (typeof spec.rotate === 'string') node.set(PDFName.of('Rotate'), PDFName.of(spec.rotate));
    const resources: Record<string, unknown> = { Font: ctx.obj({ F1: font }) };
    if (spec.pattern) resources['Pattern'] = ctx.obj({ P1: tilingPattern(ctx) });
    node.set(PDFName.of('Resources'), ctx.obj(resources as never));
    node.set(PDFName.of('Contents'), ctx.register(ctx.flateStream(spec.content ?? picture(opts.parentMediaBox && !spec.mediaBox ? opts.parentMediaBox : media))));
    if (spec.annotation) node.set(PDFName.of('Annots'), ctx.obj([squareAnnotation(ctx, spec.annotation)]));
  }
  const root = doc.catalog.lookup(PDFName.of('Pages')) as PDFDict;
  if (opts.parentRotate !== undefined) root.set(PDFName.of('Rotate'), PDFNumber.of(opts.parentRotate));
  if (opts.parentMediaBox) root.set(PDFName.of('MediaBox'), ctx.obj(opts.parentMediaBox));
  return doc.save({ useObjectStreams: false });
}

/** A 20 × 20 tiling pattern: a black square in its lower-left quarter, with a pattern matrix of its own. */
function tilingPattern(ctx: PDFContext): PDFRef {
  return ctx.register(
    ctx.flateStream('0 0 0 rg 0 0 10 10 re f', { Type: 'Pattern', PatternType: 1, PaintType: 1, TilingType: 1, BBox: [0, 0, 20, 20], XStep: 20, YStep: 20, Matrix: [1, 0, 0, 1, 3, 7], Resources: ctx.obj({}) }),
  );
}

/** A Square annotation whose appearance is an L shape (asymmetric, so a wrong turn shows). */
function squareAnnotation(ctx: PDFContext, a: NonNullable<TestPage['annotation']>): PDFRef {
  const [x0, y0, x1, y1] = a.rect;
  const w = x1 - x0;
  const h = y1 - y0;
  const ap = ctx.register(ctx.flateStream(`1 0.5 0 rg 0 0 ${w} ${h / 4} re f 0 0 ${w / 4} ${h} re f`, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, w, h] }));
  const dict: Record<string, unknown> = { Type: 'Annot', Subtype: 'Square', Rect: a.rect, F: a.flags ?? 4, Contents: PDFString.of('note'), AP: ctx.obj({ N: ap }) };
  if (a.quadPoints) dict['QuadPoints'] = a.quadPoints;
  return ctx.register(ctx.obj(dict as never));
}

/** The page's annotations' Rect and QuadPoints as numbers. */
export async function annotationGeometry(bytes: Uint8Array): Promise<{ rect: number[]; quadPoints: number[] | null }[][]> {
  const { doc } = await openPdfBytes(bytes);
  return doc.getPages().map((p) => {
    const annots = p.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) return [];
    return annots.asArray().map((ref) => {
      const a = doc.context.lookup(ref) as PDFDict;
      const nums = (k: string) => {
        const arr = a.lookup(PDFName.of(k));
        return arr instanceof PDFArray ? arr.asArray().map((n) => (n as PDFNumber).asNumber()) : null;
      };
      return { rect: nums('Rect')!, quadPoints: nums('QuadPoints') };
    });
  });
}

/** The raw /Rotate of each page (own entry), as written. */
export async function ownRotate(bytes: Uint8Array): Promise<(number | null)[]> {
  const { doc } = await openPdfBytes(bytes);
  return doc.getPages().map((p) => {
    const r = p.node.get(PDFName.of('Rotate'));
    return r instanceof PDFNumber ? r.asNumber() : null;
  });
}

export const readBytes = async (path: string): Promise<Uint8Array> => new Uint8Array(await readFile(path));
