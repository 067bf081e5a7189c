import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../../../lambdas/engine/preflight/findings';
import type { PageSection, PreflightReport } from '../../../../lambdas/engine/preflight/report';
import { MAX_PROOF_PAGES, planProofs, renderProofs } from '../../../../lambdas/engine/previews/proof';
import { proofOverlaySvg, SEVERITY_COLOURS } from '../../../../lambdas/engine/previews/proof-overlay';
import { A4, buildPdf } from '../../../support/pdf-fixtures';

type Rect = [number, number, number, number];

const finding = (f: Partial<Finding> & Pick<Finding, 'checkId'>): Finding => ({
  severity: 'error', message: f.checkId, page: 1, count: 1, bbox: null, measured: null, required: null, fix: { available: false, fixId: null }, ...f,
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
      { page: 2, marks: [{ number: 2, severity: 'error', bbox: [72, 72, 272, 272] }, { number: 3, severity: 'warn', bbox: [10, 10, 20, 20] }] },
    ]);
  });

  it('frames a finding of several pages only where its box is something on that page; elsewhere it gets a badge alone', () => {
    // The worst hit's box is the image on page 3; page 1 has an image elsewhere.
    const imageBox: Rect = [72, 72, 272, 172];
    const plan = planProofs(report(
      [
        finding({ checkId: 'images.resolution-low', page: 1, pages: [1, 3], bbox: imageBox }),
        finding({ checkId: 'boxes.trimbox-missing', page: 1, pages: [1, 3], bbox: [0, 0, A4[0], A4[1]] }),
      ],
      [pageSection(1), pageSection(2), pageSection(3)],
      { images: [{ page: 1, bbox: [72, 72, 272, 272] }, { page: 3, bbox: imageBox }] as PreflightReport['images'] },
    ));
    expect(plan.map((p) => [p.page, p.marks.map((m) => m.bbox)])).toEqual([
      [1, [null, [0, 0, A4[0], A4[1]]]],
      [3, [imageBox, [0, 0, A4[0], A4[1]]]],
    ]);
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
});
