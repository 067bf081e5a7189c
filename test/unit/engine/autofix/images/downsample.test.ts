import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { appearanceDifference } from '../../../../support/appearance-compare';
import { tempFiles } from '../../temp-files';
import { imageInfo, imagePdf, imageStream, imageXObject, pageTexts, preflightChecks, ptAt, qpdfCheck, runFix, type ImageSpec } from './fixtures';

const files = tempFiles('downsample');
const FIX = 'images.downsample';

/** A 1200 × 900 RGB JPEG at 600 ppi and a 1000 × 1000 Flate CMYK image (PNG predictor) at 500 ppi. */
async function highResolution(): Promise<PDFDocument> {
  return imagePdf(async (doc) => {
    const jpeg = await imageXObject(doc, { width: 1200, height: 900, space: 'DeviceRGB', filter: 'DCTDecode' });
    const cmyk = await imageXObject(doc, { width: 1000, height: 1000, space: 'DeviceCMYK', filter: 'FlateDecode', predictor: true });
    return [
      [
        { key: 'Jpeg', image: jpeg, x: 60, y: 500, w: ptAt(1200, 600), h: ptAt(900, 600) },
        { key: 'Cmyk', image: cmyk, x: 300, y: 500, w: ptAt(1000, 500), h: ptAt(1000, 500) },
      ],
    ];
  });
}

/** One image on one page, placed at `ppi`. */
async function single(spec: ImageSpec, ppi: number): Promise<PDFDocument> {
  return imagePdf(async (doc) => [[{ key: 'Im', image: await imageXObject(doc, spec), x: 60, y: 400, w: ptAt(spec.width, ppi), h: ptAt(spec.height, ppi) }]]);
}

/** Renders before and after at `dpi` and returns the page differences (the whole page is the TrimBox here). */
async function difference(before: Uint8Array, after: Uint8Array, dpi = 72) {
  return appearanceDifference(files.write(before, 'pdf'), files.write(after, 'pdf'), { dpi });
}

/** Downsampled smooth images look the same at preview resolution, up to resampling and JPEG noise. */
function looksAlike(d: { rmse: number; changedShare: number; sizeChanged: boolean }): void {
  expect(d.sizeChanged).toBe(false);
  expect(d.rmse).toBeLessThan(0.01);
  expect(d.changedShare).toBeLessThan(0.001);
}

describe('images.downsample', () => {
  it('brings a 600-ppi RGB JPEG and a 500-ppi Flate CMYK image to 300 ppi, keeping their encoding and colour space', async () => {
    const { outcome, doc } = await runFix(FIX, await highResolution());
    expect(outcome).toMatchObject({ count: 2, pages: [1] });
    expect(outcome.detail).toMatch(/^2 image\(s\) above 450 ppi downsampled to 300 ppi/);
    expect(imageInfo(doc, 0, 'Jpeg')).toMatchObject({ width: 600, height: 450, bits: 8, filter: ['DCTDecode'], decodeParms: undefined, colorSpace: '/DeviceRGB' });
    const cmyk = imageInfo(doc, 0, 'Cmyk');
    expect(cmyk).toMatchObject({ width: 600, height: 600, bits: 8, filter: ['FlateDecode'], colorSpace: '/DeviceCMYK' });
    // The old predictor's parameters describe the old rows; smooth samples get new PNG rows of the new width.
    expect(cmyk.decodeParms).toMatch(/\/Predictor 15/);
    expect(cmyk.decodeParms).toMatch(/\/Colors 4/);
    expect(cmyk.decodeParms).toMatch(/\/Columns 600/);
  });

  it('renders nearly the same, keeps the text, shrinks the file, passes qpdf and leaves no resolution finding', async () => {
    const { before, after } = await runFix(FIX, await highResolution());
    for (const d of await difference(before, after, 100)) looksAlike(d);
    expect(await pageTexts(after)).toEqual(['Downsampled images stay readable']);
    expect(after.length).toBeLessThan(before.length * 0.6);
    expect(await qpdfCheck(after, files.dir)).toBe(0);
    const findings = await preflightChecks(after, files.dir);
    expect(findings.filter((c) => c.startsWith('images.'))).toEqual([]);
  });

  it('is idempotent: the downsampled images are at 300 ppi, below the threshold', async () => {
    const first = await runFix(FIX, await highResolution());
    const second = await runFix(FIX, first.after);
    expect(second.outcome).toMatchObject({ count: 0, pages: [] });
    expect(second.outcome.skipReason).toBeUndefined();
  });

  it('keeps the colours of CMYK JPEGs, stored inverted with an Adobe marker or plain without one', async () => {
    for (const adobe of [true, false]) {
      const { outcome, before, after, doc } = await runFix(FIX, await single({ width: 1000, height: 800, space: 'DeviceCMYK', filter: 'DCTDecode', adobe }, 600));
      expect(outcome.count).toBe(1);
      expect(imageInfo(doc, 0, 'Im')).toMatchObject({ width: 500, height: 400, filter: ['DCTDecode'], colorSpace: '/DeviceCMYK' });
      // A four-component JPEG, not one converted to RGB on the way.
      expect(await sharp(imageStream(doc, 0, 'Im').contents).metadata()).toMatchObject({ channels: 4, space: 'cmyk' });
      for (const d of await difference(before, after, 100)) looksAlike(d);
    }
  });

  it('downsamples gray JPEGs and gray Flate images too', async () => {
    for (const filter of ['DCTDecode', 'FlateDecode'] as const) {
      const { outcome, before, after, doc } = await runFix(FIX, await single({ width: 900, height: 900, space: 'DeviceGray', filter }, 900));
      expect(outcome.count).toBe(1);
      expect(imageInfo(doc, 0, 'Im')).toMatchObject({ width: 300, height: 300, filter: [filter], colorSpace: '/DeviceGray' });
      for (const d of await difference(before, after, 100)) looksAlike(d);
    }
  });

  it('leaves an image at 200 ppi alone and reports nothing to change', async () => {
    const input = await single({ width: 400, height: 300, space: 'DeviceRGB', filter: 'DCTDecode' }, 200);
    const { outcome, doc } = await runFix(FIX, input);
    expect(outcome).toMatchObject({ count: 0, pages: [] });
    expect(outcome.skipReason).toBeUndefined();
    expect(imageInfo(doc, 0, 'Im')).toMatchObject({ width: 400, height: 300 });
  });

  it('judges an image placed twice by its larger placement', async () => {
    const input = await imagePdf(async (doc) => {
      const a = await imageXObject(doc, { width: 1000, height: 500, space: 'DeviceRGB', filter: 'FlateDecode' });
      const b = await imageXObject(doc, { width: 1000, height: 500, space: 'DeviceRGB', filter: 'FlateDecode' });
      return [
        // A: 1000 ppi on page 1 and 500 ppi on page 2 → brought to 300 ppi at 500 ppi: 600 × 300 px.
        [{ key: 'A', image: a, x: 60, y: 600, w: ptAt(1000, 1000), h: ptAt(500, 1000) }, { key: 'B', image: b, x: 300, y: 600, w: ptAt(1000, 1000), h: ptAt(500, 1000) }],
        // B: also placed at 400 ppi, below the threshold: left as it is.
        [{ key: 'A', image: a, x: 60, y: 300, w: ptAt(1000, 500), h: ptAt(500, 500) }, { key: 'B', image: b, x: 60, y: 60, w: ptAt(1000, 400), h: ptAt(500, 400) }],
      ];
    });
    const { outcome, doc } = await runFix(FIX, input);
    expect(outcome).toMatchObject({ count: 1, pages: [1, 2] });
    expect(imageInfo(doc, 0, 'A')).toMatchObject({ width: 600, height: 300 });
    expect(imageInfo(doc, 1, 'A')).toMatchObject({ width: 600, height: 300 });
    expect(imageInfo(doc, 0, 'B')).toMatchObject({ width: 1000, height: 500 });
  });

  it('resamples each axis to its own resolution when an image is stretched', async () => {
    // 1200 × 1200 px placed 2 in wide and 1 in high: 600 ppi across, 1200 ppi down.
    const input = await imagePdf(async (doc) => [[{ key: 'Im', image: await imageXObject(doc, { width: 1200, height: 1200, space: 'DeviceRGB', filter: 'FlateDecode' }), x: 60, y: 400, w: 144, h: 72 }]]);
    const { doc } = await runFix(FIX, input);
    expect(imageInfo(doc, 0, 'Im')).toMatchObject({ width: 600, height: 300 });
  });

  it('resamples the soft mask with its image', async () => {
    const { outcome, before, after, doc } = await runFix(FIX, await single({ width: 1200, height: 600, space: 'DeviceRGB', filter: 'FlateDecode', smask: true }, 600));
    expect(outcome.count).toBe(1);
    const info = imageInfo(doc, 0, 'Im');
    expect(info).toMatchObject({ width: 600, height: 300 });
    expect(info.smask?.dict.toString()).toMatch(/\/Width 600[\s\S]*\/Height 300|\/Height 300[\s\S]*\/Width 600/);
    for (const d of await difference(before, after, 100)) looksAlike(d);
    expect(await qpdfCheck(after, files.dir)).toBe(0);
  });

  it('follows the ppi and thresholdPpi parameters, and JPEG quality', async () => {
    const input = await single({ width: 1200, height: 900, space: 'DeviceRGB', filter: 'DCTDecode' }, 400);
    expect((await runFix(FIX, input)).outcome.count).toBe(0);
    const low = await runFix(FIX, input, { ppi: 150, thresholdPpi: 300, quality: 50 });
    expect(imageInfo(low.doc, 0, 'Im')).toMatchObject({ width: 450, height: 338 });
    const high = await runFix(FIX, input, { ppi: 150, thresholdPpi: 300, quality: 95 });
    expect(imageInfo(low.doc, 0, 'Im').bytes).toBeLessThan(imageInfo(high.doc, 0, 'Im').bytes);
  });

  it('leaves what it cannot re-encode faithfully and counts each reason', async () => {
    const input = await imagePdf(async (doc) => {
      const base = { width: 600, height: 600, space: 'DeviceRGB' as const, filter: 'FlateDecode' as const };
      const images = [
        await imageXObject(doc, { ...base, extra: { BitsPerComponent: 16 } }),
        await imageXObject(doc, { ...base, extra: { ColorSpace: ['Indexed', 'DeviceRGB', 1, '<000000ffffff>'] } }),
        await imageXObject(doc, { ...base, extra: { Decode: [1, 0, 1, 0, 1, 0] } }),
        await imageXObject(doc, { ...base, extra: { ImageMask: true, ColorSpace: undefined, BitsPerComponent: 1 } }),
        await imageXObject(doc, { ...base, extra: { Mask: [0, 10, 0, 10, 0, 10] } }),
        await imageXObject(doc, { ...base, extra: { Filter: 'JPXDecode' } }),
      ];
      return [images.map((image, i) => ({ key: `I${i}`, image, x: 40 + i * 90, y: 400, w: ptAt(600, 900), h: ptAt(600, 900) }))];
    });
    const { outcome, before, after } = await runFix(FIX, input);
    expect(outcome).toMatchObject({ count: 0, pages: [] });
    expect(outcome.detail).toContain('6 left as they are');
    for (const reason of ['16-bit', 'Indexed', 'Decode array', 'image mask', 'colour-key mask', 'JPX']) expect(outcome.skipReason).toContain(`1 ${reason}`);
    expect(after.length).toBeGreaterThan(before.length * 0.9);
  });

  it('leaves an image whose data is shorter than its dictionary says as it is, without failing', async () => {
    // 600 × 600 samples under a dictionary that claims 1200 × 1200.
    const input = await single({ width: 600, height: 600, space: 'DeviceRGB', filter: 'FlateDecode', extra: { Width: 1200, Height: 1200 } }, 600);
    const { outcome, doc } = await runFix(FIX, input);
    expect(outcome).toMatchObject({ count: 0, pages: [], skipReason: '1 image(s) above 450 ppi could not be downsampled faithfully (1 undecodable).' });
    expect(imageInfo(doc, 0, 'Im')).toMatchObject({ width: 1200, height: 1200 });
  });

  it('leaves inline images alone', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([200, 200]);
    const hex = '00ff00'.repeat(64 * 64);
    page.node.set(
      PDFName.of('Contents'),
      doc.context.register(doc.context.stream(`q 5 0 0 5 10 10 cm BI /W 64 /H 64 /CS /RGB /BPC 8 /F /AHx ID ${hex}> EI Q`)),
    );
    const { outcome } = await runFix(FIX, doc);
    expect(outcome).toMatchObject({ count: 0, pages: [] });
  });
});
