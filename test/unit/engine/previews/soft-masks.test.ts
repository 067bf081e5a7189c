/**
 * Soft masks in previews (soft-masks.ts): pdfjs on @napi-rs/canvas has no SVG
 * filters, so without our filters a luminosity mask hid nothing and a mask's
 * transfer function was ignored. Each page below is 200 × 100 pt, white, with
 * red painted over all of it through a soft mask; the pixels say how much red
 * got through where.
 */
import { mkdirSync } from 'node:fs';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { PreviewOptions } from '../../../../lambdas/engine/previews/options';
import { openDocument, renderPage } from '../../../../lambdas/engine/previews/page-render';
import { tempFiles } from '../temp-files';

const files = tempFiles('soft-masks');
const PNG_72: PreviewOptions = { format: 'png', dpi: 72, width: null, height: null, pages: null, quality: 85, background: 'white', thumbnail: false };
const opened: { destroy(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.destroy()));
});

interface MaskSpec {
  subtype: 'Luminosity' | 'Alpha';
  /** Content of the mask group (a 200 × 100 form in page space). */
  group: string;
  backdrop?: number[];
  groupResources?: Record<string, unknown>;
  /** A transfer function mapping 0 → c0 and 1 → c1 (FunctionType 2). */
  transfer?: [number, number];
}

/** One page: white, then red over the whole page under the soft mask. */
async function maskedPage(mask: MaskSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const page = doc.addPage([200, 100]);
  const group = ctx.register(
    ctx.flateStream(mask.group, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 200, 100], Group: { Type: 'Group', S: 'Transparency', CS: 'DeviceRGB' }, ...(mask.groupResources ? { Resources: mask.groupResources } : {}) } as never),
  );
  const smask: Record<string, unknown> = { Type: 'Mask', S: mask.subtype, G: group };
  if (mask.backdrop) smask.BC = mask.backdrop;
  if (mask.transfer) smask.TR = { FunctionType: 2, Domain: [0, 1], C0: [mask.transfer[0]], C1: [mask.transfer[1]], N: 1 };
  const gs = ctx.register(ctx.obj({ Type: 'ExtGState', SMask: ctx.obj(smask as never) }));
  page.node.set(PDFName.of('Resources'), ctx.obj({ ExtGState: { GS1: gs } }));
  page.node.set(PDFName.of('Contents'), ctx.register(ctx.flateStream('q /GS1 gs 1 0 0 rg 0 0 200 100 re f Q')));
  return doc.save({ useObjectStreams: false, addDefaultPage: false });
}

/** RGB at (x, y) pixels from the top left of the page rendered at 72 dpi. */
async function render(bytes: Uint8Array): Promise<(x: number, y: number) => number[]> {
  const pdf = await openDocument(bytes);
  opened.push(pdf);
  const outDir = files.path(`out${opened.length}`);
  mkdirSync(outDir, { recursive: true });
  const image = await renderPage(pdf, 1, PNG_72, 'preview', outDir);
  const { data, info } = await sharp(image.path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return (x, y) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
}

const near = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]!) <= 3);

describe('soft masks', () => {
  it('a luminosity mask hides where its group is black and shows where it is white', async () => {
    const at = await render(await maskedPage({ subtype: 'Luminosity', group: '0 g 0 0 100 100 re f 1 g 100 0 100 100 re f' }));
    expect(at(50, 50)).toEqual([255, 255, 255]);
    expect(at(150, 50)).toEqual([255, 0, 0]);
  });

  it('a luminosity mask without a backdrop composites its group over black: white at 25 % opacity lets a quarter through', async () => {
    const at = await render(await maskedPage({ subtype: 'Luminosity', group: '/Quarter gs 1 g 0 0 200 100 re f', groupResources: { ExtGState: { Quarter: { Type: 'ExtGState', ca: 0.25 } } } }));
    // A quarter of the red over white.
    expect(near(at(100, 50), [255, 191, 191])).toBe(true);
  });

  it('a luminosity mask shows its backdrop colour where its group paints nothing', async () => {
    // White backdrop, group paints black on the left only: the right half shows red.
    const at = await render(await maskedPage({ subtype: 'Luminosity', backdrop: [1, 1, 1], group: '0 g 0 0 100 100 re f' }));
    expect(at(50, 50)).toEqual([255, 255, 255]);
    expect(at(150, 50)).toEqual([255, 0, 0]);
  });

  it("applies the mask's transfer function: an inverting one turns an alpha mask inside out", async () => {
    const at = await render(await maskedPage({ subtype: 'Alpha', transfer: [1, 0], group: '0 g 0 0 100 100 re f' }));
    // The group covers the left half (alpha 1 → 0 after the function) and leaves the right (alpha 0 → 1).
    expect(at(50, 50)).toEqual([255, 255, 255]);
    expect(at(150, 50)).toEqual([255, 0, 0]);
  });
});
