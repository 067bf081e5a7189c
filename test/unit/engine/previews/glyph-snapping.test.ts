/**
 * Glyph snapping (glyph-snapping.ts): each glyph's origin moves to the pixel
 * grid — a quarter pixel across, a whole pixel down, always up and to the
 * left — so a letter looks the same on every line, as in poppler and browsers.
 */
import { mkdirSync } from 'node:fs';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { snappedOrigin } from '../../../../lambdas/engine/previews/glyph-snapping'
import { canvasHooked } from '../../../../lambdas/engine/previews/canvas-hooks';
import type { PreviewOptions } from '../../../../lambdas/engine/previews/options';
import { openDocument, renderPage } from '../../../../lambdas/engine/previews/page-render';
import { tempFiles } from '../temp-files';

const files = tempFiles('glyph-snapping');
const PNG_72: PreviewOptions = { format: 'png', dpi: 72, width: null, height: null, pages: null, quality: 85, background: 'white', thumbnail: false };
const opened: { destroy(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.destroy()));
});

/** A 200 × 100 pt page with the given content and Helvetica as /F1. */
async function textPage(content: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const page = doc.addPage([200, 100]);
  page.node.set(PDFName.of('Resources'), ctx.obj({ Font: { F1: { Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica' } } }));
  page.node.set(PDFName.of('Contents'), ctx.register(ctx.flateStream(content)));
  return doc.save({ useObjectStreams: false, addDefaultPage: false });
}

/** Grey levels of the page at 72 dpi, one byte a pixel, 200 × 100. */
async function grey(bytes: Uint8Array): Promise<(x: number, y: number, w: number, h: number) => number[]> {
  const pdf = await openDocument(bytes);
  opened.push(pdf);
  const outDir = files.path(`out${opened.length}`);
  mkdirSync(outDir, { recursive: true });
  const image = await renderPage(pdf, 1, PNG_72, 'preview', outDir);
  const { data, info } = await sharp(image.path).greyscale().raw().toBuffer({ resolveWithObject: true });
  return (x, y, w, h) => {
    const out: number[] = [];
    for (let r = y; r < y + h; r++) out.push(...data.subarray(r * info.width + x, r * info.width + x + w));
    return out;
  };
}

describe('glyph origins', () => {
  it('move to the grid point at or above-left of them in device space', () => {
    // 72 dpi page space: y flipped, page 100 pt high.
    const flip = { a: 1, b: 0, c: 0, d: -1, e: 0, f: 100 };
    const [x, y] = snappedOrigin(flip, 20.3, 60.6);
    expect(x).toBeCloseTo(20.25, 9); // 20.3 → 20.25 across
    expect(100 - y).toBeCloseTo(39, 9); // device row 39.4 → 39
  });

  it('are left where they are when the transform cannot be inverted', () => {
    expect(snappedOrigin({ a: 0, b: 0, c: 0, d: 0, e: 3, f: 4 }, 1.5, 2.5)).toEqual([1.5, 2.5]);
  });

  it('make a letter look the same on every line, wherever between two pixel rows its baseline falls', async () => {
    // Device rows of the baselines: 100 − 60.6 = 39.4 and 100 − 30.1 = 69.9; both x
    // fractions (.3) fall on the same quarter. Snapped, both H are drawn at row
    // fraction 0 and column fraction .25, so their pixels are identical.
    const at = await grey(await textPage('BT /F1 24 Tf 20.3 60.6 Td (H) Tj ET BT /F1 24 Tf 120.3 30.1 Td (H) Tj ET'));
    expect(canvasHooked()).toBe(true);
    const first = at(18, 39 - 20, 24, 24);
    const second = at(118, 69 - 20, 24, 24);
    expect(first.some((v) => v < 128)).toBe(true); // the H is there
    expect(second).toEqual(first);
  });
});
