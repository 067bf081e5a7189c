import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../../../lambdas/engine/preflight/findings';
import { preflight } from '../../../../lambdas/engine/preflight/index';
import type { PageSection, PreflightReport } from '../../../../lambdas/engine/preflight/report';
import { MAX_PROOF_PAGES, planProofs, renderProofs } from '../../../../lambdas/engine/previews/proof';
import { proofOverlaySvg, SEVERITY_COLOURS } from '../../../../lambdas/engine/previews/proof-overlay';
import { A4, buildPdf, MM, type PageSpec } from '../../../support/pdf-fixtures';

type Rect = [number, number, number, number];

/** A finding as groupFindings makes it; a box is on the first page unless bboxPage says otherwise. */
const finding = (f: Partial<Finding> & Pick<Finding, 'checkId'>): Finding => ({
  severity: 'error', message: f.checkId, page: 1, count: 1, bbox: null, bboxPage: f.bbox ? (f.page ?? 1) : null, measured: null, required: null, fix: { available: false, fixId: null }, ...f,
});

const pageSection = (page: number, p: Partial<PageSection> = {}): PageSection =>
  ({ page, mediaBox: [0, 0, A4[0], A4[1]], cropBox: null, trimBox: null, bleedBox: null, artBox: null, rotation: 0, userUnit: 1, ...p }) as PageSection;

/** Just what proofs read from a report; the rest of its shape does not matter here. */
const report = (findings: Finding[], pages: PageSection[], extra: Partial<PreflightReport> = {}): PreflightReport =>
  ({ document: { kind: 'pdf' }, findings, pages, images: [], ...extra }) as unknown as PreflightReport;

describe('planning proofs', () => {
  it('marks each located finding on its page, numbered by its place in the report', () => {
    const plan = planProofs(report(
      [
        finding({ checkId: 'document.output-intent', page: null }),
        finding({ checkId: 'images.resolution-low', page: 2, bbox: [72, 72, 272, 272] }),
        finding({ checkId: 'text.small', severity: 'warn', page: 2, bbox: [10, 10, 20, 20] }),
        finding({ checkId: 'colour.spot', severity: 'info', page: 3 }),
      ],
      [pageSection(1), pageSection(2), pageSection(3)],
    ));
    expect(plan).toEqual([
      { page: 2, marks: [{ number: 2, severity: 'error', boxes: [[72, 72, 272, 272]] }, { number: 3, severity: 'warn', boxes: [[10, 10, 20, 20]] }] },
    ]);
  });

  it('frames every located box of a finding on the page it was found on, numbered the same', () => {
    const onPage1: Rect = [72, 72, 172, 172];
    const onPage3: Rect[] = [[72, 72, 272, 272], [300, 400, 350, 450]];
    const plan = planProofs(report(
      [finding({
        checkId: 'images.resolution-low', page: 1, pages: [1, 3], count: 3, bbox: onPage3[0]!, bboxPage: 3,
        locations: [{ page: 1, bbox: onPage1 }, { page: 3, bbox: onPage3[0]! }, { page: 3, bbox: onPage3[1]! }],
      })],
      [pageSection(1), pageSection(2), pageSection(3)],
    ));
    expect(plan).toEqual([
      { page: 1, marks: [{ number: 1, severity: 'error', boxes: [onPage1] }] },
      { page: 3, marks: [{ number: 1, severity: 'error', boxes: onPage3 }] },
    ]);
  });

  it("falls back to the worst hit's box on its own page, and to the badge alone where neither says where", () => {
    const worst: Rect = [72, 72, 272, 172];
    const plan = planProofs(report(
      [
        // No locations (a report the caps cut short says the same of the pages it left out): only bboxPage places the box.
        finding({ checkId: 'images.resolution-low', page: 1, pages: [1, 3], bbox: worst, bboxPage: 3 }),
        // Located on page 1 only; page 2 was a page-level observation.
        finding({ checkId: 'transparency.used', severity: 'info', page: 1, pages: [1, 2], bbox: [10, 10, 20, 20], bboxPage: 1, locations: [{ page: 1, bbox: [10, 10, 20, 20] }] }),
      ],
      [pageSection(1), pageSection(2), pageSection(3)],
    ));
    expect(plan.map((p) => [p.page, p.marks.map((m) => [m.number, m.boxes])])).toEqual([
      [1, [[1, []], [2, [[10, 10, 20, 20]]]]],
      [2, [[2, []]]],
      [3, [[1, [worst]]]],
    ]);
  });

  it('makes no proof for findings no page says where they are', () => {
    const plan = planProofs(report(
      [finding({ checkId: 'document.analysis-incomplete', page: 1, pages: [1, 2] }), finding({ checkId: 'pages.mixed-sizes', page: null })],
      [pageSection(1), pageSection(2)],
    ));
    expect(plan).toEqual([]);
  });

  it(`stops after the first ${MAX_PROOF_PAGES} pages with located findings`, () => {
    const pages = Array.from({ length: 15 }, (_, i) => i + 1);
    const plan = planProofs(report(pages.map((page) => finding({ checkId: 'text.small', page, bbox: [0, 0, 10, 10] })), pages.map((p) => pageSection(p))));
    expect(plan.map((p) => p.page)).toEqual(pages.slice(0, MAX_PROOF_PAGES));
  });

  it('makes none for an image file, whose report has no page geometry to draw on', () => {
    const raster = report([finding({ checkId: 'images.resolution-low', bbox: [0, 0, 10, 10] })], [], { document: { kind: 'raster' } as PreflightReport['document'] });
    expect(planProofs(raster)).toEqual([]);
  });
});

describe('the proof drawing', () => {
  it('uses the severity colours and draws the page boxes as dashed lines', () => {
    const svg = proofOverlaySvg({
      width: 600,
      height: 800,
      marks: [
        { number: 1, severity: 'error', box: { left: 10, top: 100, width: 50, height: 50 } },
        { number: 12, severity: 'warn', box: { left: 100, top: 100, width: 50, height: 50 } },
        { number: 3, severity: 'info', box: null },
      ],
      trim: { left: 20, top: 20, width: 560, height: 760 },
      bleed: { left: 10, top: 10, width: 580, height: 780 },
    });
    for (const colour of Object.values(SEVERITY_COLOURS)) expect(svg).toContain(colour);
    expect(svg.match(/stroke-dasharray/g)).toHaveLength(2);
    // The numbers are paths, not text that needs fonts.
    expect(svg).not.toContain('<text');
  });
});

describe('rendering proofs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proof-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('frames the right spot on a rotated page with a CropBox offset, as the renderer draws it', async () => {
    // Every fixture page has a red 100 pt square at (100, 100); an info (blue) frame goes around it.
    const crop: Rect = [50, 40, 545, 800];
    const path = join(dir, 'rotated.pdf');
    await writeFile(path, await buildPdf({ pages: [{ rotate: 90, cropBox: crop, text: null }] }));
    const square: Rect = [100, 100, 200, 200];
    const proofs = await renderProofs({
      path,
      report: report([finding({ checkId: 'colour.spot', severity: 'info', bbox: square })], [pageSection(1, { cropBox: crop, rotation: 90 })]),
      outDir: dir,
    });
    expect(proofs.failures).toEqual([]);
    const [proof] = proofs.images;
    expect(proof).toMatchObject({ page: 1, mimeType: 'image/jpeg', findings: [1] });
    // Sideways, the 495 × 760 pt crop is 1200 px wide.
    expect([proof!.width, proof!.height]).toEqual([1200, Math.round((495 * 1200) / 760)]);

    const { data, info } = await sharp(proof!.path).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => {
      const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    // Rotated clockwise: user x runs down the image, user y runs left to right.
    const k = 1200 / 760;
    const left = (square[1] - crop[1]) * k;
    const right = (square[3] - crop[1]) * k;
    const top = (square[0] - crop[0]) * k;
    const bottom = (square[2] - crop[0]) * k;
    const midY = (top + bottom) / 2;
    const midX = (left + right) / 2;
    const isBlue = ([r, g, b]: number[]) => b! > 180 && r! < 100 && g! < 150;
    const isRed = ([r, g, b]: number[]) => r! > 180 && g! < 80 && b! < 80;
    expect(isRed(at(midX, midY))).toBe(true);
    for (const [x, y] of [[left - 1.5, midY], [right + 1.5, midY], [midX, top - 1.5], [midX, bottom + 1.5]] as const) {
      expect(isBlue(at(x, y)), `frame at ${Math.round(x)}, ${Math.round(y)}: ${at(x, y).join(',')}`).toBe(true);
    }
    // Inside the frame the square itself is left uncovered.
    expect(isRed(at(left + 4, midY))).toBe(true);
  });

  it('frames a finding of pages 1 and 3 at its own box on each page, and nowhere else', async () => {
    // Low-resolution images at (72, 72): 100 px over 100 pt (72 ppi) on page 1, over 200 pt (36 ppi, the worst) on page 3.
    const bleed = 3 * MM;
    const media: [number, number] = [A4[0] + 2 * bleed, A4[1] + 2 * bleed];
    const printPage: PageSpec = { size: media, trimBox: [bleed, bleed, bleed + A4[0], bleed + A4[1]], bleedBox: [0, 0, ...media], font: 'embedded', colourSpace: 'cmyk' };
    const image = (placedPt: number) => ({ widthPx: 100, heightPx: 100, placedWidthPt: placedPt, placedHeightPt: placedPt });
    const path = join(dir, 'two-pages.pdf');
    await writeFile(path, await buildPdf({ pages: [{ ...printPage, image: image(100) }, printPage, { ...printPage, image: image(200) }] }));
    const onPage1: Rect = [72, 72, 172, 172];
    const onPage3: Rect = [72, 72, 272, 272];

    const { report: real } = await preflight({ path, fileType: 'pdf', profileId: 'default', context: null });
    const lowRes = real.findings.findIndex((f) => f.checkId === 'images.resolution-low');
    expect(real.findings[lowRes]).toMatchObject({ pages: [1, 3], bbox: onPage3, bboxPage: 3, locations: [{ page: 1, bbox: onPage1 }, { page: 3, bbox: onPage3 }] });

    const proofs = await renderProofs({ path, report: real, outDir: join(dir, 'two-pages') });
    expect(proofs.failures).toEqual([]);
    expect(proofs.images.map((p) => p.page)).toEqual([1, 3]);
    for (const proof of proofs.images) expect(proof.findings).toContain(lowRes + 1);

    const pixels = async (page: number) => {
      const { data, info } = await sharp(proofs.images.find((p) => p.page === page)!.path).raw().toBuffer({ resolveWithObject: true });
      const k = info.width / media[0];
      const at = (x: number, y: number) => {
        const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
        return [data[i]!, data[i + 1]!, data[i + 2]!];
      };
      const redness = (c: number[]) => c[0]! - (c[1]! + c[2]!) / 2;
      /**
       * The reddest pixel 1.5–4.5 px outward from a box edge, 2 px either way
       * along it (JPEG blurs a 2–3 px frame; never inside the box, whose image is noise).
       */
      const reddestOutside = (r: Rect, side: 'left' | 'right' | 'top' | 'bottom'): number[] => {
        const [left, right, top, bottom] = [r[0] * k, r[2] * k, (media[1] - r[3]) * k, (media[1] - r[1]) * k];
        const [x, y, ox, oy] = {
          left: [left - 1.5, (top + bottom) / 2, -1, 0],
          right: [right + 1.5, (top + bottom) / 2, 1, 0],
          top: [(left + right) / 2, top - 1.5, 0, -1],
          bottom: [(left + right) / 2, bottom + 1.5, 0, 1],
        }[side];
        let best = at(x!, y!);
        for (let o = 0; o <= 3; o++) for (let t = -2; t <= 2; t++) {
          const c = at(x! + ox! * o + oy! * t, y! + oy! * o + ox! * t);
          if (redness(c) > redness(best)) best = c;
        }
        return best;
      };
      return { reddestOutside };
    };
    const isRed = ([r, g, b]: number[]) => r! > 150 && r! > 2 * g! && r! > 2 * b!;
    const isWhite = (c: number[]) => Math.min(...c) > 240;

    // Page 1: its own (smaller) image is framed; where page 3's box would be framed the page is white.
    // (Right and top of the small box are the fixture's red square, so the left and bottom edges tell.)
    const page1 = await pixels(1);
    for (const side of ['left', 'bottom'] as const) expect(isRed(page1.reddestOutside(onPage1, side)), `page 1, ${side}`).toBe(true);
    for (const side of ['right', 'top'] as const) expect(isWhite(page1.reddestOutside(onPage3, side)), `page 1, page 3's ${side}`).toBe(true);
    // Page 3: the larger image is framed on every side.
    const page3 = await pixels(3);
    for (const side of ['left', 'right', 'top', 'bottom'] as const) expect(isRed(page3.reddestOutside(onPage3, side)), `page 3, ${side}`).toBe(true);
  });
});
