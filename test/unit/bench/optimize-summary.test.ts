import { describe, expect, it } from 'vitest';
import { qpdfWorse, summariseSide } from '../../bench/support/optimize-summary';

describe('bench:optimize summary', () => {
  it('counts a qpdf check as worse only for a higher rank or more problems of the same rank', () => {
    expect(qpdfWorse({ status: 0, issues: 0 }, { status: 3, issues: 1 })).toBe(true);
    expect(qpdfWorse({ status: 3, issues: 2 }, { status: 0, issues: 0 })).toBe(false);
    expect(qpdfWorse({ status: 2, issues: 6 }, { status: 2, issues: 2 })).toBe(false);
    expect(qpdfWorse({ status: 2, issues: 1 }, { status: 2, issues: 3 })).toBe(true);
    expect(qpdfWorse({ status: null, issues: 0 }, { status: 2, issues: 3 })).toBe(false);
  });

  it('gives the median reduction, the files made smaller and those rendered differently', () => {
    const s = summariseSide([
      { file: 'a', sizeBefore: 100, sizeAfter: 50, rmse: 0 },
      { file: 'b', sizeBefore: 100, sizeAfter: 100, rmse: null },
      { file: 'c', sizeBefore: 100, sizeAfter: 80, rmse: 0.02, qpdfWorse: true },
      { file: 'd', sizeBefore: 100, sizeAfter: null, rmse: null, failure: 'timeout' },
      { file: 'e', sizeBefore: 100, sizeAfter: 90, rmse: null, renderLost: true },
      { file: 'f', sizeBefore: 100, sizeAfter: 90, rmse: 0, judgedBy: 'mutool' },
      { file: 'g', sizeBefore: 100, sizeAfter: 90, rmse: 0.05, unstable: true },
    ]);
    expect(s).toMatchObject({ files: 7, failed: 1, smaller: 5, qpdfWorse: ['c'], judgedByMutool: ['f'], unstable: ['g'] });
    expect(s.medianReduction).toBeCloseTo(0.1);
    expect(s.renderedDifferently.map((d) => d.file)).toEqual(['c', 'e', 'g']);
  });
});
