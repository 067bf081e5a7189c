/**
 * The snake_case fields the original hosted service's clients read beside our
 * own (docs/api.md §11 rule 5): source, errors, pdf, spot_colors, and on each page
 * and image; each restates a fact the report already holds.
 */
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { preflight } from '../../../../lambdas/engine/preflight/index';
import { pdfColourSpaceName } from '../../../../lambdas/engine/preflight/reference-facts';
import { contentPdf, separation, stream } from '../../../support/content-fixtures';
import { A4, buildPdf, jpegBytes, MM, pngBytes, type PageSpec } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('reference-facts');

const preflightPdf = async (bytes: Uint8Array, name?: string) => {
  const path = files.write(bytes, 'pdf');
  return { path, report: (await preflight({ path, ...(name ? { name } : {}), fileType: 'pdf', profileId: 'default', context: null })).report };
};
const preflightImage = async (bytes: Uint8Array) => (await preflight({ path: files.write(bytes, 'img'), name: 'photo.jpg', fileType: 'raster', profileId: 'default', context: null })).report;

/** An A4 page with `bleedMm` bleed on each side (TrimBox inside a larger MediaBox and BleedBox). */
function bleedPage(bleedMm: { top: number; right: number; bottom: number; left: number }): PageSpec {
  const [w, h] = A4;
  const { top, right, bottom, left } = bleedMm;
  const media: [number, number] = [w + (left + right) * MM, h + (top + bottom) * MM];
  return { size: media, trimBox: [left * MM, bottom * MM, left * MM + w, bottom * MM + h], bleedBox: [0, 0, media[0], media[1]] };
}

describe('the reference facts of a PDF', () => {
  it('name the file and its size: the name given, else the last part of its path', async () => {
    const bytes = await buildPdf();
    const named = await preflightPdf(bytes, 'Flyer A5.pdf');
    expect(named.report.source).toEqual({ name: 'Flyer A5.pdf', sizeBytes: statSync(named.path).size });
    const unnamed = await preflightPdf(bytes);
    expect(unnamed.report.source.name).toBe(unnamed.path.split('/').at(-1));
  });

  it('state the version, page count and tagging as pdf', async () => {
    const { report } = await preflightPdf(await buildPdf({ pages: 3, version: '1.6' }));
    expect(report.pdf).toEqual({ version: '1.6', page_count: 3, tagged: false });
    const tagged = await preflightPdf(await buildPdf({ pages: 1, structTree: true, markInfo: true }));
    expect(tagged.report.pdf).toMatchObject({ tagged: true });
  });

  it('give each page its least bleed in points (null without a TrimBox) and whether it uses transparency', async () => {
    const { report } = await preflightPdf(
      await buildPdf({ pages: [bleedPage({ top: 3, right: 3, bottom: 3, left: 3 }), { ...bleedPage({ top: 5, right: 2, bottom: 5, left: 5 }), transparency: true }, {}] }),
    );
    expect(report.pages.map((p) => [p.page, p.bleed_pt, p.transparency])).toEqual([
      [1, 8.5, false], // 3 mm
      [2, 5.7, true], // 2 mm
      [3, null, false],
    ]);
  });

  it('give each image its effective resolution in whole dpi (the lower axis) and its colour space by PDF name', async () => {
    // 120 × 100 px over 2 × 1 inches: 60 ppi across, 100 ppi down.
    const { report } = await preflightPdf(await buildPdf({ pages: [{ image: { widthPx: 120, heightPx: 100, placedWidthPt: 144, placedHeightPt: 72 } }] }));
    expect(report.images.map((i) => [i.ppiX, i.ppiY, i.effective_dpi, i.colorSpace, i.color_space])).toEqual([[60, 100, 60, 'DeviceRGB', 'DeviceRGB']]);
  });

  it('list the spot colours by name', async () => {
    const bytes = await contentPdf({ pages: [{ content: '/CS0 cs 1 scn 0 0 100 100 re f /CS1 cs 0.5 scn 0 200 50 50 re f', resources: { colourSpaces: { CS0: separation('PANTONE 185 C'), CS1: separation('Gold') } } }] });
    const { report } = await preflightPdf(bytes);
    expect(report.spotColors.map((s) => s.name)).toEqual(['Gold', 'PANTONE 185 C']);
    expect(report.spot_colors).toEqual(['Gold', 'PANTONE 185 C']);
  });

  it('list what could not be analysed as errors, one page each, and none when everything was', async () => {
    const bytes = await contentPdf({
      pages: [{ content: '0 0 10 10 re f' }, { content: 'BT ET', raw: { Contents: stream({ dict: { Filter: '/JBIG2Decode' }, data: 'junk', compress: false }) } }],
    });
    const { report } = await preflightPdf(bytes);
    expect(report.errors).toEqual([expect.stringMatching(/^Page 2: .*could not be decoded/)]);
    expect((await preflightPdf(await buildPdf())).report.errors).toEqual([]);
  });
});

describe('the reference facts of an image file', () => {
  it('name the file, have no pdf section and nothing that could not be analysed', async () => {
    const bytes = await pngBytes({ width: 40, height: 30, density: 300 });
    const report = await preflightImage(bytes);
    expect(report).toMatchObject({ source: { name: 'photo.jpg', sizeBytes: bytes.length }, pdf: null, errors: [], spot_colors: [], pages: [] });
  });

  it('give the image its resolution and the PDF colour space it would be placed in', async () => {
    const rgb = await preflightImage(await pngBytes({ width: 40, height: 30, density: 300 }));
    expect(rgb.images.map((i) => [i.effective_dpi, i.color_space])).toEqual([[300, 'DeviceRGB']]);
    const cmyk = await preflightImage(await jpegBytes({ cmyk: true }));
    expect(cmyk.images[0]!.color_space).toBe('DeviceCMYK');
    const profiled = await preflightImage(await jpegBytes({ icc: true }));
    expect(profiled.images[0]!.color_space).toBe('ICCBased');
    const unsized = await preflightImage(await pngBytes({ width: 40, height: 30 }));
    expect(unsized.images[0]!.effective_dpi).toBeNull();
  });
});

describe('PDF colour space names', () => {
  it('are the family our labels start with', () => {
    expect(['DeviceCMYK', 'ICCBased RGB', 'Indexed DeviceRGB', 'Separation PANTONE 185 C', 'DeviceN (Cyan, Magenta, Orange)', 'DeviceRGB (DefaultRGB ICCBased RGB)', 'Lab'].map(pdfColourSpaceName)).toEqual([
      'DeviceCMYK', 'ICCBased', 'Indexed', 'Separation', 'DeviceN', 'DeviceRGB', 'Lab',
    ]);
  });

  it('are null for a stencil mask and for spaces we could not tell', () => {
    expect([null, 'JPXDecode (colour space in the image data)', 'Unknown (no colour space)'].map(pdfColourSpaceName)).toEqual([null, null, null]);
  });
});
