/**
 * Stroke adjustment (stroke-adjust.ts, applied through canvas-hooks.ts): thin
 * horizontal and vertical lines and filled rectangles land on whole pixels,
 * as ISO 32000-2 10.7.5 lets a renderer do and print rasterisers do.
 */
import { mkdirSync } from 'node:fs';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { canvasHooked } from '../../../../lambdas/engine/previews/canvas-hooks';
import type { PreviewOptions } from '../../../../lambdas/engine/previews/options';
import { openDocument, renderPage } from '../../../../lambdas/engine/previews/page-render';
import { adjustRectangleFill, adjustStroke, DRAW } from '../../../../lambdas/engine/previews/stroke-adjust';
import { tempFiles } from '../temp-files';

const { moveTo: M, lineTo: L, curveTo: C, closePath: Z } = DRAW;
/** 72 dpi device space of a 100 pt high page: y flipped. */
const PAGE = { a: 1, b: 0, c: 0, d: -1, e: 0, f: 100 };
const IDENTITY = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };

describe('a filled rectangle', () => {
  it('has its edges rounded to pixel boundaries', () => {
    // x 10.3–20.6 → 10–21; device y 100 − 50.4 = 49.6 → 50, 100 − 40.2 = 59.8 → 60.
    const ops = adjustRectangleFill([M, 10.3, 40.2, L, 20.6, 40.2, L, 20.6, 50.4, L, 10.3, 50.4, Z], PAGE);
    expect(ops).toEqual([M, 10, 40, L, 21, 40, L, 21, 50, L, 10, 50, Z]);
  });

  it('keeps at least one pixel when it is thinner (a hairline rule drawn as a fill)', () => {
    const ops = adjustRectangleFill([M, 0, 10.1, L, 50, 10.1, L, 50, 10.3, L, 0, 10.3, Z], IDENTITY)!;
    const ys = [ops[2], ops[5], ops[8], ops[11]];
    expect(Math.min(...ys)).toBe(10);
    expect(Math.max(...ys)).toBe(11);
  });

  it('is left alone when the fill is not a single axis-aligned rectangle', () => {
    expect(adjustRectangleFill([M, 0, 0, L, 10, 0, L, 10, 10, L, 0, 10, Z, M, 20, 0, L, 30, 0, L, 30, 10, L, 20, 10, Z], IDENTITY)).toBeNull();
    expect(adjustRectangleFill([M, 0, 0, L, 10, 1, L, 10, 10, L, 0, 10, Z], IDENTITY)).toBeNull();
    expect(adjustRectangleFill([M, 0, 0, L, 10, 0, L, 10, 10, L, 0, 10, Z], { a: 1, b: 0.2, c: 0, d: 1, e: 0, f: 0 })).toBeNull();
  });
});

describe('a stroke', () => {
  it('of horizontal and vertical segments has both edges of each on pixel boundaries', () => {
    // A 0.5 pt line at y 20.2: edges 19.95 and 20.45 both round to 20 → it keeps row 20.
    const s = adjustStroke([M, 0, 20.2, L, 50, 20.2], IDENTITY, 0.5)!;
    expect(s.ops).toEqual([M, 0, 20.5, L, 50, 20.5]);
    expect(s.lineWidth).toBe(1);
  });

  it('centred on a pixel boundary and a little wider than a pixel spans two pixels', () => {
    // 1.08 px at 35.0: edges 34.46 → 34 and 35.54 → 36 (Test-plusminus.pdf's title block).
    const s = adjustStroke([M, 0, 35, L, 50, 35], IDENTITY, 1.08)!;
    expect(s.ops).toEqual([M, 0, 35, L, 50, 35]);
    expect(s.lineWidth).toBe(2);
  });

  it('of the thinnest width (0) is one pixel below its rounded edge', () => {
    const s = adjustStroke([M, 10.7, 0, L, 10.7, 30], IDENTITY, 0)!;
    expect(s.ops).toEqual([M, 11.5, 0, L, 11.5, 30]);
    expect(s.lineWidth).toBe(1);
  });

  it('moves only the coordinates across each segment: a rectangle outline keeps its corners joined', () => {
    const s = adjustStroke([M, 10.2, 10.2, L, 40.2, 10.2, L, 40.2, 30.2, L, 10.2, 30.2, Z], IDENTITY, 1)!;
    expect(s.ops).toEqual([M, 10.5, 10.5, L, 40.5, 10.5, L, 40.5, 30.5, L, 10.5, 30.5, Z]);
  });

  it('scales back into user space', () => {
    // 2× scale: a 0.25-unit line is 0.5 px; at user y 10.1 it sits at device 20.2 → row 20 → user 10.25.
    const s = adjustStroke([M, 0, 10.1, L, 10, 10.1], { a: 2, b: 0, c: 0, d: 2, e: 0, f: 0 }, 0.25)!;
    expect(s.ops).toEqual([M, 0, 10.25, L, 10, 10.25]);
    expect(s.lineWidth).toBe(0.5);
  });

  it('with a curve, a diagonal, or a non-uniform scale is left alone', () => {
    expect(adjustStroke([M, 0, 0, C, 1, 1, 2, 2, 3, 0], IDENTITY, 1)).toBeNull();
    expect(adjustStroke([M, 0, 0, L, 10, 10], IDENTITY, 1)).toBeNull();
    expect(adjustStroke([M, 0, 0, L, 10, 0], { a: 1, b: 0, c: 0, d: 2, e: 0, f: 0 }, 1)).toBeNull();
  });
});

describe('in a rendered page', () => {
  const files = tempFiles('stroke-adjust');
  const PNG_72: PreviewOptions = { format: 'png', dpi: 72, width: null, height: null, pages: null, quality: 85, background: 'white', thumbnail: false };
  const opened: { destroy(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((d) => d.destroy()));
  });

  it('a 0.5 pt rule whose centre falls on a pixel boundary is one dark row, not two grey ones', async () => {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const page = doc.addPage([100, 100]);
    // Device row 100 − 60 = 40.0: exactly between rows 39 and 40.
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream('0 G 0.5 w 10 60 m 90 60 l S')));
    const pdf = await openDocument(await doc.save({ useObjectStreams: false, addDefaultPage: false }));
    opened.push(pdf);
    const outDir = files.path('rule');
    mkdirSync(outDir, { recursive: true });
    const image = await renderPage(pdf, 1, PNG_72, 'preview', outDir);
    const { data, info } = await sharp(image.path).greyscale().raw().toBuffer({ resolveWithObject: true });
    const column = (y: number) => data[y * info.width + 50]!;
    expect(canvasHooked()).toBe(true);
    // Edges 39.75 and 40.25 both round to 40: the line keeps row 40, fully dark.
    expect(column(40)).toBeLessThan(40);
    expect(column(39)).toBeGreaterThan(215);
    expect(column(41)).toBeGreaterThan(215);
  });
});
