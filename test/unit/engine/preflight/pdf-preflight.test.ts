import { describe, expect, it } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import type { OrderContext } from '../../../../lambdas/domain/model';
import { preflight, type Finding } from '../../../../lambdas/engine/preflight/index';
import type { PdfDocumentSection } from '../../../../lambdas/engine/preflight/report';
import { A4, A5, buildPdf, garbageAfterHeader, MM, type PageSpec, type PdfSpec, type Rect } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('preflight');

/** A page ready for print: 3 mm bleed all round, TrimBox and BleedBox set, font embedded, CMYK colour. */
function printPage(size: [number, number] = A4, bleedMm = 3): PageSpec {
  const b = bleedMm * MM;
  const trim: Rect = [b, b, b + size[0], b + size[1]];
  return { size: [size[0] + 2 * b, size[1] + 2 * b], trimBox: trim, bleedBox: [0, 0, size[0] + 2 * b, size[1] + 2 * b], font: 'embedded', colourSpace: 'cmyk' };
}

async function run(spec: PdfSpec, context: OrderContext | null = null, profileId = 'default') {
  const path = files.write(await buildPdf(spec), 'pdf');
  return preflight({ path, fileType: 'pdf', profileId, context });
}

const find = (findings: Finding[], checkId: string) => findings.filter((f) => f.checkId === checkId);

describe('PDF preflight, default profile', () => {
  it('passes a print-ready PDF with no findings', async () => {
    const r = await run({ pages: [printPage(), printPage()] });
    expect(r.report.findings).toEqual([]);
    expect(r.outcome).toBe('pass');
    expect(r.report.summary).toEqual({ errors: 0, warnings: 0, infos: 0, pages: 2 });
    expect(r.report.recommendedFixes).toEqual([]);
  });

  it('reports document facts, page boxes and fonts', async () => {
    const r = await run({ pages: [printPage(A4, 3), { ...printPage(A4, 3), rotate: 90 }], pdfa: { part: 2, conformance: 'B' }, outputIntent: 'pdfa-srgb', title: 'Flyer' });
    const doc = r.report.document as PdfDocumentSection;
    expect(doc).toMatchObject({ kind: 'pdf', pdfVersion: '1.7', pageCount: 2, encrypted: false, pdfa: '2b', pdfx: null, javaScript: false, title: 'Flyer' });
    expect(doc.outputIntents).toEqual([
      { subtype: 'GTS_PDFA1', outputConditionIdentifier: 'sRGB IEC61966-2.1', outputCondition: null, registryName: 'http://www.color.org', hasIccProfile: true, iccColourSpace: 'RGB' },
    ]);
    expect(r.report.pages[0]).toMatchObject({ page: 1, sizeMm: { width: 210, height: 297 }, mediaSizeMm: { width: 216, height: 303 }, bleedMm: { top: 3, right: 3, bottom: 3, left: 3 }, rotation: 0, userUnit: 1 });
    expect(r.report.pages[1]).toMatchObject({ sizeMm: { width: 297, height: 210 }, rotation: 90 });
    expect(r.report.fonts).toEqual([
      { name: 'LiberationSans', type: 'TrueType', embedded: true, subset: false, objectNumber: expect.any(Number), pages: [1, 2], usedOnPages: [1, 2], minSizePt: 24, maxSizePt: 24 },
    ]);
    expect(r.report.pages[0]).toMatchObject({ empty: false, colourSpaces: ['DeviceCMYK'], spotColors: [], maxTacPercent: 200, transparency: false });
    expect(doc).toMatchObject({ annotations: 0, formFields: 0, embeddedFiles: [], layers: [], colourSpaces: ['DeviceCMYK'], transparency: false, analysisLimits: [] });
    expect(r.report.spotColors).toEqual([]);
  });

  it('outcome: fail with any error, warn with only warnings, pass with only infos', async () => {
    expect((await run({ pages: [{ ...printPage(), font: 'standard' }] })).outcome).toBe('fail');
    expect((await run({ pages: [{ ...printPage(), trimBox: undefined }] })).outcome).toBe('warn');
    const infoOnly = await run({ pages: [printPage(A4), printPage(A5)] });
    expect(infoOnly.report.findings.map((f) => f.severity)).toEqual(['info']);
    expect(infoOnly.outcome).toBe('pass');
  });

  describe('fonts.not-embedded', () => {
    it('is an error naming the font and the pages using it', async () => {
      const r = await run({ pages: [{ ...printPage(), font: 'standard' }, { ...printPage(), font: 'standard' }] });
      const [f] = find(r.report.findings, 'fonts.not-embedded');
      expect(f).toMatchObject({ severity: 'error', page: 1, pages: [1, 2], count: 2, fix: { available: false, fixId: null } });
      expect(f!.message).toContain('Helvetica');
      expect(f!.message).toContain('pages 1–2');
    });
    it('is absent for embedded fonts and for invisible (OCR) text', async () => {
      const r = await run({ pages: [printPage(), { ...printPage(), font: 'standard', invisibleText: true }] });
      expect(find(r.report.findings, 'fonts.not-embedded')).toEqual([]);
    });
  });

  describe('boxes.trimbox-missing', () => {
    it('groups pages without TrimBox into one finding with a count, even for many pages', async () => {
      const r = await run({ pages: 120, pageDefaults: { font: 'embedded' } });
      const found = find(r.report.findings, 'boxes.trimbox-missing');
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: 'warn', count: 120, page: 1, fix: { available: true, fixId: 'boxes.normalize' } });
      expect(found[0]!.pages).toHaveLength(120);
      expect(found[0]!.message).toBe('120 pages have no TrimBox (pages 1–120); the printer cannot tell where to cut.');
      expect(r.report.recommendedFixes).toContain('boxes.normalize');
    });
    it('names a single page in a sentence', async () => {
      const r = await run({ pages: [printPage(), { ...printPage(), trimBox: undefined }] });
      expect(find(r.report.findings, 'boxes.trimbox-missing')[0]!.message).toBe('Page 2 has no TrimBox; the printer cannot tell where to cut.');
    });
  });

  describe('boxes outside the MediaBox', () => {
    it('reports a TrimBox beyond the MediaBox as an error with the overhang in mm', async () => {
      const r = await run({ pages: [{ size: [300, 300], trimBox: [-10 * MM, 0, 300, 300], font: 'embedded' }] });
      const [f] = find(r.report.findings, 'boxes.trimbox-outside-mediabox');
      expect(f).toMatchObject({ severity: 'error', page: 1, measured: { overhang_mm: 10 }, bbox: [-10 * MM, 0, 300, 300] });
      expect(f!.message).toContain('10 mm');
    });
    it('reports a BleedBox beyond the MediaBox as an error the box fix resolves', async () => {
      const r = await run({ pages: [{ size: [300, 300], trimBox: [10, 10, 290, 290], bleedBox: [-5, -5, 305, 305], font: 'embedded' }] });
      const [f] = find(r.report.findings, 'boxes.bleedbox-outside-mediabox');
      expect(f).toMatchObject({ severity: 'error', fix: { available: true, fixId: 'boxes.normalize' } });
    });
    it('reports neither for boxes inside the MediaBox', async () => {
      const r = await run({ pages: [printPage()] });
      expect(find(r.report.findings, 'boxes.trimbox-outside-mediabox')).toEqual([]);
      expect(find(r.report.findings, 'boxes.bleedbox-outside-mediabox')).toEqual([]);
    });
  });

  describe('bleed.insufficient', () => {
    it('warns when the page has no bleed, and offers mirrored bleed when the page has no room for it', async () => {
      const r = await run({ pages: [{ trimBox: [0, 0, A4[0], A4[1]], font: 'embedded' }] });
      const [f] = find(r.report.findings, 'bleed.insufficient');
      expect(f).toMatchObject({ severity: 'warn', required: { required_mm: 3 }, fix: { available: true, fixId: 'bleed.mirror' } });
      expect(r.report.recommendedFixes).toContain('bleed.mirror');
      expect(f!.message).toBe('Page 1 has 0 mm bleed where 3 mm is required; artwork that reaches the edge may show white slivers after cutting.');
    });
    it('names both fixes when some pages have room for the bleed and others do not', async () => {
      const page = printPage();
      const r = await run({ pages: [{ ...page, bleedBox: page.trimBox }, { trimBox: [0, 0, A4[0], A4[1]], font: 'embedded' }] });
      const [f] = find(r.report.findings, 'bleed.insufficient');
      expect(f!.fix).toMatchObject({ available: true, fixIds: ['boxes.normalize', 'bleed.mirror'] });
      expect(r.report.recommendedFixes).toEqual(expect.arrayContaining(['boxes.normalize', 'bleed.mirror']));
    });
    it('offers the box fix when the page extends beyond the trim but the BleedBox does not say so', async () => {
      const page = printPage();
      const r = await run({ pages: [{ ...page, bleedBox: page.trimBox }] });
      expect(find(r.report.findings, 'bleed.insufficient')[0]!.fix).toEqual({ available: true, fixId: 'boxes.normalize' });
    });
    it('uses the ordered bleed from the context instead of the profile default', async () => {
      const r = await run({ pages: [printPage(A4, 3)] }, { bleed: { required_mm: 5 } });
      expect(find(r.report.findings, 'bleed.insufficient')[0]!.required).toEqual({ required_mm: 5 });
      expect(r.runtimeParams).toMatchObject({ profileId: 'default', thresholds: { 'bleed.insufficient': { required_mm: 5 } }, contextApplied: ['bleed'] });
      const ok = await run({ pages: [printPage(A4, 3)] }, { bleed: { required_mm: 2 } });
      expect(find(ok.report.findings, 'bleed.insufficient')).toEqual([]);
    });
  });

  describe('pages.mixed-sizes', () => {
    it('lists each size with its pages', async () => {
      const r = await run({ pages: [printPage(A4), printPage(A4), printPage(A5)] });
      const [f] = find(r.report.findings, 'pages.mixed-sizes');
      expect(f!.severity).toBe('info');
      expect(f!.message).toBe('The PDF mixes 2 page sizes: 210 × 297 mm (pages 1–2) and 148 × 210 mm (page 3).');
    });
    it('treats the same size in another orientation as the same size', async () => {
      const r = await run({ pages: [printPage(A4), printPage([A4[1], A4[0]])] });
      expect(find(r.report.findings, 'pages.mixed-sizes')).toEqual([]);
    });
  });

  describe('document.javascript', () => {
    it('counts JavaScript and launch actions wherever they are attached', async () => {
      const r = await run({ pages: [{ ...printPage(), launchLink: true, pageOpenJavaScript: 'x()' }], documentJavaScript: 'app.alert(1)', openAction: 'javascript' });
      const [f] = find(r.report.findings, 'document.javascript');
      expect(f).toMatchObject({ severity: 'warn', count: 4, fix: { available: true, fixId: 'actions.remove' } });
      expect(f!.message).toContain('4 JavaScript or launch actions');
      expect((r.report.document as PdfDocumentSection).actions).toEqual({ JavaScript: 3, Launch: 1 });
    });
    it('ignores harmless actions such as a GoTo open action', async () => {
      const r = await run({ pages: [printPage()], openAction: 'goto' });
      expect(find(r.report.findings, 'document.javascript')).toEqual([]);
    });
  });

  it('warns about an encrypted PDF that opens without a password', async () => {
    const r = await run({ pages: [printPage()], encrypt: { ownerPassword: 'owner' } });
    expect(find(r.report.findings, 'pdf.encrypted')[0]).toMatchObject({ severity: 'warn' });
    expect((r.report.document as PdfDocumentSection).encrypted).toBe(true);
  });

  describe('image resolution', () => {
    const withImage = (widthPx: number, placedPt: number): PdfSpec => ({ pages: [{ ...printPage(), image: { widthPx, heightPx: widthPx, placedWidthPt: placedPt, placedHeightPt: placedPt } }] });
    it('is an error below 150 ppi, measured where the image is placed', async () => {
      const r = await run(withImage(100, 144)); // 100 px over 2 inches
      const [f] = find(r.report.findings, 'images.resolution-low');
      expect(f).toMatchObject({ severity: 'error', page: 1, bbox: [72, 72, 216, 216], measured: { effective_ppi: 50 }, required: { min_ppi: 150 } });
      expect(f!.message).toBe('The image on page 1 is 50 ppi where it is placed; this product needs at least 150 ppi, so it will print visibly blurred or pixelated.');
      expect(r.report.images).toEqual([
        {
          page: 1,
          width: 100,
          height: 100,
          ppiX: 50,
          ppiY: 50,
          colorSpace: 'DeviceRGB',
          bitsPerComponent: 8,
          bbox: [72, 72, 216, 216],
          objectNumber: expect.any(Number),
          inline: false,
          imageMask: false,
          filter: 'FlateDecode',
          softMask: false,
          placedMm: { width: 50.8, height: 50.8 },
          effective_dpi: 50,
          color_space: 'DeviceRGB',
        },
      ]);
      expect(r.report.imageCount).toBe(1);
    });
    it('is a warning between 150 and 225 ppi', async () => {
      const r = await run(withImage(400, 144)); // 200 ppi
      expect(find(r.report.findings, 'images.resolution-low')).toEqual([]);
      expect(find(r.report.findings, 'images.resolution-marginal')[0]).toMatchObject({ severity: 'warn', measured: { effective_ppi: 200 } });
    });
    it('says where each placement is: every page and box, and the page of the worst', async () => {
      const placed = (placedPt: number): PageSpec => ({ ...printPage(), image: { widthPx: 100, heightPx: 100, placedWidthPt: placedPt, placedHeightPt: placedPt } });
      // 72 ppi on page 1, 36 ppi (the worst) on page 3.
      const r = await run({ pages: [placed(100), printPage(), placed(200)] });
      const [f] = find(r.report.findings, 'images.resolution-low');
      expect(f).toMatchObject({ page: 1, pages: [1, 3], count: 2, bbox: [72, 72, 272, 272], bboxPage: 3, measured: { effective_ppi: 36 } });
      expect(f!.locations).toEqual([
        { page: 1, bbox: [72, 72, 172, 172] },
        { page: 3, bbox: [72, 72, 272, 272] },
      ]);
    });
    it('is silent at 300 ppi (the RGB image is only noted as RGB)', async () => {
      const r = await run(withImage(600, 144));
      expect(r.report.findings.map((f) => [f.checkId, f.severity])).toEqual([['colour.rgb', 'info']]);
    });
  });

  describe('order context', () => {
    it('accepts a trim size matching the ordered artwork in either orientation within 1 mm', async () => {
      for (const artworkSize of [{ width_mm: 210, height_mm: 297 }, { width_mm: 297, height_mm: 210 }, { width_mm: 210.8, height_mm: 296.3 }]) {
        const r = await run({ pages: [printPage()] }, { artworkSize });
        expect(find(r.report.findings, 'artwork.size-mismatch')).toEqual([]);
      }
    });
    it('reports pages whose trim size differs from the ordered artwork', async () => {
      const r = await run({ pages: [printPage(A4), printPage(A5)] }, { artworkSize: { width_mm: 148, height_mm: 210 } });
      const [f] = find(r.report.findings, 'artwork.size-mismatch');
      expect(f).toMatchObject({ severity: 'error', page: 1, count: 1, measured: { width_mm: 210, height_mm: 297 } });
      expect(f!.message).toBe('Page 1 is 210 × 297 mm but the ordered artwork size is 148 × 210 mm (tolerance 1 mm).');
      expect(r.runtimeParams).toMatchObject({ thresholds: { 'artwork.size-mismatch': { width_mm: 148, height_mm: 210, tolerance_mm: 1 } } });
    });
    it('reports a page count outside the ordered range', async () => {
      const r = await run({ pages: [printPage()] }, { pageCount: { min: 2, max: 4 } });
      expect(find(r.report.findings, 'document.page-count')[0]!.message).toBe('The PDF has 1 page; the order allows 2 to 4 pages.');
      const ok = await run({ pages: [printPage(), printPage(), printPage()] }, { pageCount: { min: 2, max: 4 } });
      expect(find(ok.report.findings, 'document.page-count')).toEqual([]);
    });
    it('adds no checks the profile lacks, and says which context it ignored', async () => {
      const r = await run({ pages: [{ ...printPage(), trimBox: undefined, bleedBox: undefined }] }, { bleed: { required_mm: 5 }, safety: { min_mm: 5 }, fileCount: { min: 1 } }, 'screen');
      expect(r.report.findings).toEqual([]);
      expect(r.runtimeParams.contextIgnored).toEqual(['bleed', 'safety', 'fileCount']);
    });
    it('applies the safety margin to text near the trim edge', async () => {
      // "Page 1" is drawn 72 pt from the sheet's left edge, 63.5 pt (22.4 mm) inside the trim, and about 25 mm below its top.
      const fine = await run({ pages: [printPage()] }, { safety: { min_mm: 5 } });
      expect(find(fine.report.findings, 'safety.live-content')).toEqual([]);
      expect(fine.runtimeParams).toMatchObject({ thresholds: { 'safety.live-content': { min_mm: 5 } }, contextApplied: ['safety'] });
      const tight = await run({ pages: [printPage()] }, { safety: { min_mm: 23 } });
      const [f] = find(tight.report.findings, 'safety.live-content');
      expect(f).toMatchObject({ severity: 'warn', page: 1, measured: { kind: 'text', sides: ['left'] } });
      expect(f!.message).toMatch(/^Text on page 1 is 22\.\d mm from the trim edge, inside the 23 mm safety margin;/);
    });
    it('leaves the artwork and page-count checks inactive without context', async () => {
      const r = await run({ pages: [printPage(A5)] });
      expect(Object.keys(r.runtimeParams.thresholds as object)).not.toContain('artwork.size-mismatch');
      expect(Object.keys(r.runtimeParams.thresholds as object)).not.toContain('document.page-count');
    });
  });

  it('refuses an unknown profile with a sentence naming the available ones', async () => {
    const path = files.write(await buildPdf(), 'pdf');
    await expect(preflight({ path, fileType: 'pdf', profileId: 'gwg-nope', context: null })).rejects.toThrow(/no preflight profile "gwg-nope".*default, gwg-sheetfed-cmyk/);
  });

  it('refuses an unreadable PDF with UnprocessableFileError', async () => {
    const path = files.write(garbageAfterHeader(), 'pdf');
    await expect(preflight({ path, fileType: 'pdf', profileId: 'default', context: null })).rejects.toBeInstanceOf(UnprocessableFileError);
  });
});
