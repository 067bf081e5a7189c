/**
 * From per-file runs to the figures: which files take part in the agreement,
 * how refusals and capped lists count, and the robustness tallies.
 */
import { describe, expect, it } from 'vitest';
import { summariseAgreement } from '../../bench/support/agreement-summary';
import type { FileRun, OurRun, PopplerRun } from '../../bench/support/corpus-file-run';
import type { PopplerFontRow } from '../../bench/support/pdffonts-output';
import type { PopplerImageRow } from '../../bench/support/pdfimages-output';
import { reportFacts } from '../../bench/support/report-facts';
import { summariseRobustness } from '../../bench/support/robustness-summary';

const font: PopplerFontRow = { name: 'Arial', type: 'TrueType', encoding: 'WinAnsi', embedded: true, subset: false, toUnicode: false, objectNumber: 5, generation: 0 };
const image: PopplerImageRow = {
  page: 1, num: 0, type: 'image', width: 100, height: 100, color: 'rgb', components: 3, bitsPerComponent: 8,
  encoding: 'jpeg', interpolate: false, inline: false, objectNumber: 9, generation: 0, xPpi: 200, yPpi: 200,
};
const popplerOk: PopplerRun = { status: 'ok', fonts: [font], images: [image], ms: 10 };

const report = (over: Record<string, unknown> = {}) => ({
  pages: [{ page: 1, userUnit: 1 }],
  fonts: [{ objectNumber: 5, name: 'Arial', type: 'TrueType', embedded: true }],
  images: [{ page: 1, objectNumber: 9, inline: false, width: 100, height: 100, ppiX: 200, ppiY: 200 }],
  ...over,
});
const reported = (r: unknown, ms = 50): OurRun => ({ status: 'report', ms, facts: reportFacts(r) });
const run = (file: string, ours: OurRun, poppler: PopplerRun = popplerOk): FileRun => ({ file, ours, poppler });

describe('summariseAgreement', () => {
  it('compares the fonts and images of every file poppler read', () => {
    const s = summariseAgreement([run('a.pdf', reported(report())), run('b.pdf', reported(report({ fonts: [] })))]);
    expect(s.compared).toBe(2);
    expect(s.fonts).toEqual({ rows: 2, agreeing: 1, differing: 0, missing: 1 });
    expect(s.images).toMatchObject({ rows: 2, within: 2 });
    expect(s.fontRows.find((r) => r.verdict === 'missing')?.file).toBe('b.pdf');
  });

  it('excludes files poppler failed on or timed out on, and lists them', () => {
    const s = summariseAgreement([
      run('bad.pdf', reported(report()), { status: 'failed', tool: 'pdffonts', detail: 'Syntax Error' }),
      run('slow.pdf', reported(report()), { status: 'timeout', tool: 'pdfimages -list', detail: '' }),
    ]);
    expect(s.compared).toBe(0);
    expect(s.fonts.rows).toBe(0);
    expect(s.popplerFailed.map((r) => r.file)).toEqual(['bad.pdf', 'slow.pdf']);
  });

  it('counts every row of a file poppler read and we refused as not listed by us', () => {
    const s = summariseAgreement([run('locked.pdf', { status: 'error', ms: 5, reason: 'The PDF is protected by a password.' })]);
    expect(s.fonts).toEqual({ rows: 1, agreeing: 0, differing: 0, missing: 1 });
    expect(s.images).toMatchObject({ rows: 1, missing: 1 });
    expect(s.refusedByUs.map((r) => r.file)).toEqual(['locked.pdf']);
  });

  it('leaves a file whose report caps its image list out of the image figure only', () => {
    const s = summariseAgreement([run('many.pdf', reported(report({ images: [], imagesTruncated: true })))]);
    expect(s.images.rows).toBe(0);
    expect(s.fonts.rows).toBe(1);
    expect(s.truncatedImageLists).toEqual(['many.pdf']);
  });

  it('names the report field matching needs when the report lacks it, instead of counting disagreements', () => {
    const s = summariseAgreement([run('a.pdf', reported(report({ fonts: [{ name: 'Arial', type: 'TrueType', embedded: true }] })))]);
    expect(s.missingField).toBe('fonts[].objectNumber');
  });

  it('takes the page’s UserUnit back out of our resolution, as poppler ignores it', () => {
    const r = report({ pages: [{ page: 1, userUnit: 2 }], images: [{ page: 1, objectNumber: 9, inline: false, width: 100, height: 100, ppiX: 100, ppiY: 100 }] });
    const s = summariseAgreement([run('big.pdf', reported(r))]);
    expect(s.images.within).toBe(1);
  });

  it('compares nothing and excludes nothing when poppler was not run', () => {
    const s = summariseAgreement([run('a.pdf', reported(report()), { status: 'skipped' })]);
    expect([s.compared, s.popplerFailed.length, s.fonts.rows]).toEqual([0, 0, 0]);
  });
});

describe('summariseRobustness', () => {
  const runs = [
    run('ok.pdf', reported(report(), 120)),
    run('locked.pdf', { status: 'error', ms: 10, reason: 'The PDF is protected by a password.' }),
    run('locked2.pdf', { status: 'error', ms: 12, reason: 'The PDF is protected by a password.' }),
    run('hang.pdf', { status: 'error', ms: 60_000, reason: 'Preflight stopped after 60 s: the file is too complex.' }),
    run('bug.pdf', { status: 'crash', ms: 30, error: 'TypeError: x is undefined' }),
  ];
  const s = summariseRobustness(runs, 60_000, 3);

  it('counts reports, errors with a reason, crashes and runs at or over the budget', () => {
    expect([s.files, s.reports, s.errors, s.crashes, s.overBudget]).toEqual([5, 1, 3, 1, 1]);
  });

  it('lists the reasons most frequent first, the crashes, and the slowest files', () => {
    expect(s.topReasons[0]).toEqual({ reason: 'The PDF is protected by a password.', count: 2 });
    expect(s.crashed).toEqual([{ file: 'bug.pdf', error: 'TypeError: x is undefined' }]);
    expect(s.slowest.map((x) => x.file)).toEqual(['hang.pdf', 'ok.pdf', 'bug.pdf']);
  });
});
