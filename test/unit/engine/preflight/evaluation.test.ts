/**
 * The report's `evaluation` (docs/api.md §11 rule 5): our findings, passed and
 * skipped checks and recommended fixes in the shape clients of the original
 * hosted service read, and a comparison of the whole reference report's field
 * paths with ours.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CheckId } from '../../../../lambdas/engine/preflight/check-catalogue';
import { evaluate, MAX_PAGES_PER_FINDING, type EvaluationInput, type JudgedSections } from '../../../../lambdas/engine/preflight/evaluation';
import type { Finding, Severity } from '../../../../lambdas/engine/preflight/findings';
import { preflight } from '../../../../lambdas/engine/preflight/index';
import type { PageSection, PdfDocumentSection } from '../../../../lambdas/engine/preflight/report';
import { A4, buildPdf, type Rect } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('evaluation');

/** A finding as groupFindings makes it: on page 1, without box, values or fix unless given. */
const finding = (f: Partial<Finding<CheckId>> & Pick<Finding<CheckId>, 'checkId'>): Finding<CheckId> => ({
  severity: 'warn', message: f.checkId, page: 1, count: 1, bbox: null, bboxPage: null, measured: null, required: null, fix: { available: false, fixId: null }, ...f,
});

const page = (n: number, p: Partial<PageSection> = {}): PageSection => ({
  page: n, mediaBox: [0, 0, 595, 842], cropBox: null, trimBox: null, bleedBox: null, artBox: null, sizeMm: { width: 210, height: 297 }, mediaSizeMm: { width: 210, height: 297 },
  bleedMm: null, rotation: 0, userUnit: 1, annotations: 0, empty: false, colourSpaces: [], spotColors: [], maxTacPercent: null, transparency: false, ...p,
});

/** A one-page PDF with nothing of the kinds some checks need (no images, text, annotations or transparency). */
const bare = (s: Partial<JudgedSections> = {}): JudgedSections => ({
  document: { kind: 'pdf', annotations: 0 } as PdfDocumentSection, pages: [page(1)], fonts: [], images: [], imageCount: 0, ...s,
});

const run = (findings: Finding<CheckId>[], extra: Partial<EvaluationInput> = {}) =>
  evaluate({ findings, settings: { severity: () => 'warn', checkSequence: [] }, checks: [], sections: bare(), recommendedFixes: [], ...extra });

const BOX_A: Rect = [10, 10, 100, 50];
const BOX_B: Rect = [200, 300, 250, 320];

describe('evaluation findings', () => {
  it('translate our severity: error → reject, warn → warn, info → ignore', () => {
    const severities: Severity[] = ['error', 'warn', 'info'];
    const { findings } = run(severities.map((severity) => finding({ checkId: 'colour.rgb', severity })));
    expect(findings.map((f) => f.severity)).toEqual(['reject', 'warn', 'ignore']);
  });

  it('name the check as ruleId, its area as sectionId and what it judges as target', () => {
    const ids: CheckId[] = ['bleed.insufficient', 'fonts.not-embedded', 'text.small', 'images.resolution-low', 'colour.spot', 'transparency.used', 'pdf.encrypted', 'artwork.size-mismatch', 'lines.thin'];
    const { findings } = run(ids.map((checkId) => finding({ checkId })));
    expect(findings.map((f) => [f.ruleId, f.sectionId, f.target])).toEqual([
      ['bleed.insufficient', 'geometry', 'pages'],
      ['fonts.not-embedded', 'fonts', 'fonts'],
      ['text.small', 'text', 'text'],
      ['images.resolution-low', 'images', 'images'],
      ['colour.spot', 'colour', 'objects'],
      ['transparency.used', 'transparency', 'pages'],
      ['pdf.encrypted', 'document', 'document'],
      ['artwork.size-mismatch', 'order', 'pages'],
      ['lines.thin', 'geometry', 'lines'],
    ]);
  });

  describe('carry measured and required values with their unit in the key', () => {
    const valuesOf = (f: Partial<Finding<CheckId>> & Pick<Finding<CheckId>, 'checkId'>) => {
      const [entry] = run([finding(f)]).findings;
      return Object.fromEntries(Object.entries(entry!).filter(([k]) => /^(measured|required)_/.test(k)));
    };

    it('mm: the least bleed of the four sides (none below 0) against the required bleed', () => {
      expect(valuesOf({ checkId: 'bleed.insufficient', measured: { bleed_mm: { top: 1, right: 2, bottom: 0.5, left: 3 } }, required: { required_mm: 3 } })).toEqual({ measured_mm: 0.5, required_mm: 3 });
      expect(valuesOf({ checkId: 'bleed.insufficient', measured: { bleed_mm: { top: -2, right: 2, bottom: 1, left: 3 } }, required: { required_mm: 3 } })).toEqual({ measured_mm: 0, required_mm: 3 });
    });

    it('mm: box overhangs, live content within the safety margin, image-file crop against the tolerance', () => {
      expect(valuesOf({ checkId: 'boxes.trimbox-outside-mediabox', measured: { overhang_mm: 2.5 }, required: { overhang_mm: 0 } })).toEqual({ measured_mm: 2.5, required_mm: 0 });
      expect(valuesOf({ checkId: 'safety.live-content', measured: { kind: 'text', distance_mm: 1.2, sides: ['left'] }, required: { min_mm: 5 } })).toEqual({ measured_mm: 1.2, required_mm: 5 });
      expect(valuesOf({ checkId: 'artwork.aspect-mismatch', measured: { width_px: 100, height_px: 50, excess_mm: 12 }, required: { width_mm: 100, height_mm: 100, tolerance_mm: 1 } })).toEqual({ measured_mm: 12, required_mm: 1 });
    });

    it('pt: text size and line width', () => {
      expect(valuesOf({ checkId: 'text.small', measured: { size_pt: 5.5, font: 'Helvetica', colorants: 4, white: false, texts: 1 }, required: { min_size_pt: 8 } })).toEqual({ measured_pt: 5.5, required_pt: 8 });
      expect(valuesOf({ checkId: 'lines.thin', measured: { width_pt: 0.1, lines: 3 }, required: { min_width_pt: 0.25 } })).toEqual({ measured_pt: 0.1, required_pt: 0.25 });
    });

    it('dpi: effective resolution against the minimum or the recommended value', () => {
      expect(valuesOf({ checkId: 'images.resolution-low', measured: { effective_ppi: 72, ppi_x: 72, ppi_y: 80 }, required: { min_ppi: 150 } })).toEqual({ measured_dpi: 72, required_dpi: 150 });
      expect(valuesOf({ checkId: 'images.resolution-marginal', measured: { effective_ppi: 200 }, required: { recommended_ppi: 225 } })).toEqual({ measured_dpi: 200, required_dpi: 225 });
    });

    it('percent: total ink against its maximum', () => {
      expect(valuesOf({ checkId: 'colour.tac', measured: { tac_percent: 340, kind: 'vector' }, required: { max_percent: 320 } })).toEqual({ measured_percent: 340, required_percent: 320 });
    });

    it('count: pages against the bound of the ordered range the file missed, and page sizes against one', () => {
      expect(valuesOf({ checkId: 'document.page-count', page: null, measured: { pages: 3 }, required: { min: 4, max: 8 } })).toEqual({ measured_count: 3, required_count: 4 });
      expect(valuesOf({ checkId: 'document.page-count', page: null, measured: { pages: 9 }, required: { min: 4, max: 8 } })).toEqual({ measured_count: 9, required_count: 8 });
      expect(valuesOf({ checkId: 'document.page-count', page: null, measured: { pages: 9 }, required: { min: null, max: 8 } })).toEqual({ measured_count: 9, required_count: 8 });
      const sizes = [{ width_mm: 210, height_mm: 297, pages: [1] }, { width_mm: 148, height_mm: 210, pages: [2] }];
      expect(valuesOf({ checkId: 'pages.mixed-sizes', page: null, measured: sizes, required: 'one page size' })).toEqual({ measured_count: 2, required_count: 1 });
    });

    it('none where the observation has no single number with a unit', () => {
      expect(valuesOf({ checkId: 'colour.rgb', measured: { colourSpace: 'DeviceRGB', kind: 'text', objects: 2 } })).toEqual({});
      expect(valuesOf({ checkId: 'artwork.size-mismatch', measured: { width_mm: 200, height_mm: 290 }, required: { width_mm: 210, height_mm: 297, tolerance_mm: 1 } })).toEqual({});
      expect(valuesOf({ checkId: 'images.16-bit', measured: { bits_per_component: 16, width_px: 10, height_px: 10 }, required: { bits_per_component: 8 } })).toEqual({});
    });
  });

  it('name the font of a font or text finding', () => {
    const { findings } = run([
      finding({ checkId: 'fonts.not-embedded', severity: 'error', measured: { font: 'Helvetica', embedded: false }, required: { embedded: true } }),
      finding({ checkId: 'text.rich-black', measured: { size_pt: 6, font: 'Inter-Regular', colorants: 4, white: false, texts: 1 }, required: { min_size_pt: 12 } }),
      finding({ checkId: 'colour.rgb' }),
    ]);
    expect(findings.map((f) => f.font)).toEqual(['Helvetica', 'Inter-Regular', undefined]);
  });

  describe('per page', () => {
    const spanning = finding({
      checkId: 'lines.thin',
      page: 1,
      pages: [1, 2, 3],
      count: 4,
      bbox: BOX_B,
      bboxPage: 3,
      measured: { width_pt: 0.05, lines: 1 },
      required: { min_width_pt: 0.25 },
      locations: [{ page: 1, bbox: BOX_A }, { page: 3, bbox: BOX_B }, { page: 3, bbox: BOX_A }],
    });

    it('list a finding that spans pages once per page, each with the boxes located on it', () => {
      const { findings } = run([spanning]);
      expect(findings.map((f) => [f.page, f.locate.boxes])).toEqual([
        [1, [{ page: 1, rect: BOX_A }]],
        [2, []],
        [3, [{ page: 3, rect: BOX_B }, { page: 3, rect: BOX_A }]],
      ]);
    });

    it('give the measured value on the page of the worst case only, the required value on every page', () => {
      const { findings } = run([spanning]);
      expect(findings.map((f) => [f.page, f.measured_pt, f.required_pt])).toEqual([
        [1, undefined, 0.25],
        [2, undefined, 0.25],
        [3, 0.05, 0.25],
      ]);
    });

    it('give bleed and total ink measured on each page, from the page section the check judged', () => {
      const sections = bare({
        pages: [page(1, { bleedMm: { top: 0, right: 0, bottom: 0, left: 0 }, maxTacPercent: 330 }), page(2, { bleedMm: { top: 1.5, right: 2, bottom: 2, left: 2 }, maxTacPercent: 360 })],
      });
      const { findings } = run(
        [
          finding({ checkId: 'bleed.insufficient', pages: [1, 2], bbox: BOX_A, bboxPage: 1, measured: { bleed_mm: { top: 0, right: 0, bottom: 0, left: 0 } }, required: { required_mm: 3 } }),
          finding({ checkId: 'colour.tac', pages: [1, 2], bbox: BOX_A, bboxPage: 2, measured: { tac_percent: 360, kind: 'image' }, required: { max_percent: 320 } }),
        ],
        { sections },
      );
      expect(findings.map((f) => [f.ruleId, f.page, f.measured_mm ?? f.measured_percent])).toEqual([
        ['bleed.insufficient', 1, 0],
        ['bleed.insufficient', 2, 1.5],
        ['colour.tac', 1, 330],
        ['colour.tac', 2, 360],
      ]);
    });

    it('list a document-wide finding once, without a page', () => {
      const { findings } = run([finding({ checkId: 'document.output-intent', page: null, measured: { pdfx: null, outputIntents: [] }, required: { outputIntent: 'GTS_PDFX' } })]);
      expect(findings).toEqual([
        { sectionId: 'document', ruleId: 'document.output-intent', severity: 'warn', target: 'document', autofix: { available: false }, locate: { boxes: [] } },
      ]);
    });

    it('point at the worst box on its page when the location list was cut before it', () => {
      const { findings } = run([finding({ checkId: 'colour.rgb', pages: [1, 2], bbox: BOX_B, bboxPage: 2, locations: [{ page: 1, bbox: BOX_A }], locationsTruncated: true })]);
      expect(findings.map((f) => f.locate.boxes)).toEqual([[{ page: 1, rect: BOX_A }], [{ page: 2, rect: BOX_B }]]);
    });

    it(`stop at ${MAX_PAGES_PER_FINDING} pages a finding, and say so`, () => {
      const pages = Array.from({ length: MAX_PAGES_PER_FINDING + 50 }, (_, i) => i + 1);
      const evaluation = run([finding({ checkId: 'boxes.trimbox-missing', pages, count: pages.length }), finding({ checkId: 'colour.rgb', pages: [1, 2] })]);
      expect(evaluation.findings.filter((f) => f.ruleId === 'boxes.trimbox-missing')).toHaveLength(MAX_PAGES_PER_FINDING);
      expect(evaluation.findings.at(MAX_PAGES_PER_FINDING - 1)).toMatchObject({ ruleId: 'boxes.trimbox-missing', page: MAX_PAGES_PER_FINDING });
      expect(evaluation.findings.filter((f) => f.ruleId === 'colour.rgb')).toHaveLength(2);
      expect(evaluation.findingsTruncated).toBe(true);
      expect(run([finding({ checkId: 'colour.rgb', pages: [1, 2] })]).findingsTruncated).toBeUndefined();
    });
  });

  describe('autofix', () => {
    it('is not available where no fix resolves the finding', () => {
      expect(run([finding({ checkId: 'fonts.not-embedded' })]).findings[0]!.autofix).toEqual({ available: false });
    });

    it('names the fix, its step, the fix\'s name as strategy and the parameters POST /jobs/fix would apply', () => {
      const { findings } = run([
        finding({ checkId: 'bleed.insufficient', fix: { available: true, fixId: 'bleed.mirror' } }),
        finding({ checkId: 'boxes.trimbox-missing', fix: { available: true, fixId: 'boxes.normalize' } }),
      ]);
      expect(findings.map((f) => f.autofix)).toEqual([
        { available: true, runner: 'autofix', fixId: 'bleed.mirror', strategy: 'Add mirrored bleed', params: { bleed_mm: 3 } },
        { available: true, runner: 'autofix', fixId: 'boxes.normalize', strategy: expect.any(String) },
      ]);
    });

    it('lists every fix the cases need when they need more than one', () => {
      const [entry] = run([finding({ checkId: 'bleed.insufficient', fix: { available: true, fixId: 'bleed.mirror', fixIds: ['boxes.normalize', 'bleed.mirror'] } })]).findings;
      expect(entry!.autofix).toMatchObject({ fixId: 'bleed.mirror', fixIds: ['boxes.normalize', 'bleed.mirror'] });
    });
  });
});

describe('passed and skipped checks', () => {
  const checkSequence: CheckId[] = ['document.javascript', 'document.page-count', 'annotations.in-trim', 'pages.mixed-sizes', 'bleed.insufficient', 'fonts.not-embedded', 'text.small', 'colour.rgb', 'transparency.group-colour-space', 'images.resolution-low', 'images.16-bit', 'image.rgb'];
  const pdfChecks = checkSequence.filter((id) => id !== 'image.rgb');
  const judge = (findings: Finding<CheckId>[], sections: JudgedSections, off: CheckId[] = []) =>
    run(findings, { settings: { severity: (id) => (off.includes(id) ? 'off' : 'warn'), checkSequence }, checks: pdfChecks, sections });

  it('passes a check that ran without a finding; a check with a finding is in neither list', () => {
    const { passed, skipped } = judge([finding({ checkId: 'colour.rgb' })], bare());
    expect(passed).toEqual(['document.javascript', 'document.page-count']);
    expect(passed).not.toContain('colour.rgb');
    expect(skipped).not.toContain('colour.rgb');
  });

  it('skips a check that is off, and one with nothing of its kind in the file', () => {
    const { skipped } = judge([], bare(), ['document.page-count']);
    expect(skipped).toEqual(['document.page-count', 'annotations.in-trim', 'pages.mixed-sizes', 'bleed.insufficient', 'fonts.not-embedded', 'text.small', 'transparency.group-colour-space', 'images.resolution-low', 'images.16-bit']);
  });

  it('passes those checks when the file has what they judge', () => {
    const rich = bare({
      document: { kind: 'pdf', annotations: 2 } as PdfDocumentSection,
      pages: [page(1, { bleedMm: { top: 3, right: 3, bottom: 3, left: 3 }, transparency: true }), page(2)],
      fonts: [{ name: 'Inter', type: 'TrueType', embedded: true, subset: true, objectNumber: 5, pages: [1], usedOnPages: [1], minSizePt: 9, maxSizePt: 9 }],
      images: [{ page: 1, width: 10, height: 10, ppiX: 300, ppiY: 300, colorSpace: 'DeviceCMYK', bitsPerComponent: 8, bbox: null, objectNumber: 6, inline: false, imageMask: false, filter: null, softMask: false, placedMm: null }],
      imageCount: 1,
    });
    const { passed, skipped } = judge([], rich);
    expect(skipped).toEqual([]);
    expect(passed).toEqual(pdfChecks);
  });

  it('leaves out the checks this kind of file does not get', () => {
    const { passed, skipped } = judge([], bare());
    expect([...passed, ...skipped]).not.toContain('image.rgb');
  });

  it('skips the resolution checks for an image without a known resolution', () => {
    const unknown = bare({ images: [{ page: 1, width: 10, height: 10, ppiX: null, ppiY: null, colorSpace: 'srgb', bitsPerComponent: 8, bbox: null, objectNumber: null, inline: false, imageMask: false, filter: 'png', softMask: false, placedMm: null }], imageCount: 1 });
    const { passed, skipped } = judge([], unknown);
    expect(skipped).toContain('images.resolution-low');
    expect(passed).toContain('images.16-bit');
  });
});

describe('the evaluation summary', () => {
  it('counts listed findings by translated severity, passed and skipped checks, and the autofixable ones', () => {
    const evaluation = run(
      [
        finding({ checkId: 'bleed.insufficient', severity: 'error', pages: [1, 2], fix: { available: true, fixId: 'bleed.mirror' } }),
        finding({ checkId: 'fonts.not-embedded', severity: 'error' }),
        finding({ checkId: 'document.javascript', severity: 'warn', page: null, fix: { available: true, fixId: 'actions.remove' } }),
        finding({ checkId: 'colour.rgb', severity: 'info' }),
      ],
      { settings: { severity: (id) => (id === 'colour.tac' ? 'off' : 'warn'), checkSequence: ['pdf.encrypted', 'colour.tac'] }, checks: ['pdf.encrypted', 'colour.tac'] },
    );
    expect(evaluation.summary).toEqual({ fail: 3, warn: 1, ignored: 1, pass: 1, skipped: 1, autofixable: 3, autofixableFails: 2 });
  });
});

describe('the recommended autofix', () => {
  it('is null when POST /jobs/fix would apply nothing', () => {
    expect(run([]).recommendedAutofix).toBeNull();
  });

  it('is the report\'s recommended fixes, run by autofix, with the parameters of those that have any', () => {
    expect(run([], { recommendedFixes: ['boxes.normalize', 'bleed.mirror', 'actions.remove'] }).recommendedAutofix).toEqual({
      runner: 'autofix',
      fixes: ['boxes.normalize', 'bleed.mirror', 'actions.remove'],
      params: { 'bleed.mirror': { bleed_mm: 3 }, 'actions.remove': { uri: false } },
    });
  });
});

describe('the evaluation of a preflighted PDF', () => {
  /** Page 1: no bleed, a 50 ppi image; page 2: transparency; Helvetica (not embedded) on both. */
  const card = () =>
    buildPdf({
      pages: [
        { trimBox: [0, 0, A4[0], A4[1]], image: { widthPx: 100, heightPx: 100, placedWidthPt: 144, placedHeightPt: 144 } },
        { trimBox: [0, 0, A4[0], A4[1]], transparency: true },
      ],
    });
  const preflightCard = async () => (await preflight({ path: files.write(await card(), 'pdf'), name: 'card.pdf', fileType: 'pdf', profileId: 'default', context: null })).report;

  it('lists every finding of the report, page by page', async () => {
    const report = await preflightCard();
    const perPage = report.findings.flatMap((f) => (f.pages ?? [f.page]).map((p) => [f.checkId, p]));
    expect(report.evaluation.findings.map((f) => [f.ruleId, f.page])).toEqual(perPage);
    expect(report.evaluation.findings.find((f) => f.ruleId === 'images.resolution-low')).toMatchObject({
      sectionId: 'images', severity: 'reject', target: 'images', page: 1, measured_dpi: 50, required_dpi: 150, autofix: { available: false }, locate: { boxes: [{ page: 1, rect: [72, 72, 216, 216] }] },
    });
    expect(report.evaluation.findings.filter((f) => f.ruleId === 'bleed.insufficient')).toEqual([
      expect.objectContaining({ page: 1, measured_mm: 0, required_mm: 3, autofix: expect.objectContaining({ fixId: 'bleed.mirror', params: { bleed_mm: 3 } }) }),
      expect.objectContaining({ page: 2, measured_mm: 0, required_mm: 3 }),
    ]);
  });

  it('recommends exactly the report\'s recommended fixes', async () => {
    const report = await preflightCard();
    expect(report.recommendedFixes).toEqual(['bleed.mirror']);
    expect(report.evaluation.recommendedAutofix).toEqual({ runner: 'autofix', fixes: report.recommendedFixes, params: { 'bleed.mirror': { bleed_mm: 3 } } });
  });

  it('stays JSON', async () => {
    const report = await preflightCard();
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  const REFERENCE = fileURLToPath(new URL('../../../../../shared/spec/reference-responses/job.preflight.json', import.meta.url));

  /**
   * Every field path of the reference report, with its JSON type, is in ours
   * (docs/api.md §11 rule 1), with our value of the same type or null. Array
   * elements share one path (`findings[]`), so an optional field counts when
   * some element has it. `params` are opaque: the reference's are its optimize
   * options, ours the autofix parameters by fix id.
   */
  it('has every field path of the reference report, with the same JSON type', async (ctx) => {
    ctx.skip(!existsSync(REFERENCE), `the reference response ${REFERENCE} is missing; its field paths cannot be compared`);
    const reference = JSON.parse(readFileSync(REFERENCE, 'utf8')).job.results.preflight[0].report;
    const ours = fieldTypes(await preflightCard());
    const missing: string[] = [];
    for (const [path, types] of fieldTypes(reference)) {
      const found = ours.get(path);
      const expected = [...types].filter((t) => t !== 'null');
      if (!found || !expected.every((t) => found.has(t)) || [...found].some((t) => t !== 'null' && !types.has(t))) missing.push(`${path}: ${[...types]} (ours: ${found ? [...found] : 'absent'})`);
    }
    expect(missing).toEqual([]);
  });
});

const OPAQUE = new Set(['.evaluation.findings[].autofix.params', '.evaluation.recommendedAutofix.params']);

/** Each field path of a JSON value with the JSON types found there. */
function fieldTypes(value: unknown, path = '', out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (path) (out.get(path) ?? out.set(path, new Set()).get(path)!).add(type);
  if (OPAQUE.has(path)) return out;
  if (Array.isArray(value)) for (const v of value) fieldTypes(v, `${path}[]`, out);
  else if (type === 'object') for (const [k, v] of Object.entries(value as object)) fieldTypes(v, `${path}.${k}`, out);
  return out;
}
