/** web/src/findings/marks.ts: which findings a page shows, numbered as in the report, and where. */
import { describe, expect, it } from 'vitest';
import { marksOnPage, pageToShow } from '../../../../web/src/findings/marks';
import type { ReportFinding } from '../../../../web/src/findings/report';

const finding = (more: Partial<ReportFinding>): ReportFinding => ({
  checkId: 'x',
  severity: 'warn',
  message: 'm',
  page: 1,
  count: 1,
  bbox: null,
  bboxPage: null,
  fix: { available: false, fixId: null },
  ...more,
});

describe('marksOnPage', () => {
  const findings = [
    finding({ severity: 'error', page: 1, pages: [1, 2], bbox: [1, 1, 2, 2], bboxPage: 1, locations: [{ page: 1, bbox: [1, 1, 2, 2] }, { page: 2, bbox: [3, 3, 4, 4] }] }),
    finding({ page: 2, bbox: [5, 5, 6, 6], bboxPage: 2 }),
    finding({ severity: 'info', page: 2 }),
    finding({ page: null }),
  ];

  it('numbers findings by their place in the report and frames each at its boxes on the page', () => {
    expect(marksOnPage(findings, 2)).toEqual([
      { number: 1, severity: 'error', boxes: [[3, 3, 4, 4]] },
      { number: 2, severity: 'warn', boxes: [[5, 5, 6, 6]] },
      { number: 3, severity: 'info', boxes: [] },
    ]);
    expect(marksOnPage(findings, 1)).toEqual([{ number: 1, severity: 'error', boxes: [[1, 1, 2, 2]] }]);
  });

  it('uses the worst hit’s box only on its own page', () => {
    const f = finding({ page: 1, pages: [1, 2], bbox: [5, 5, 6, 6], bboxPage: 2 });
    expect(marksOnPage([f], 1)[0]!.boxes).toEqual([]);
    expect(marksOnPage([f], 2)[0]!.boxes).toEqual([[5, 5, 6, 6]]);
  });
});

describe('pageToShow', () => {
  it('goes to the first page where the finding has a box, else its first page', () => {
    expect(pageToShow(finding({ page: 1, pages: [1, 3], bbox: [0, 0, 1, 1], bboxPage: 3 }))).toBe(3);
    expect(pageToShow(finding({ page: 4 }))).toBe(4);
    expect(pageToShow(finding({ page: null }))).toBeNull();
  });
});
