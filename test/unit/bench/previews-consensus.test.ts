import { describe, expect, it } from 'vitest';
import { summarizeRenderer, withFallback, type ConsensusFileResult } from '../../bench/support/previews-consensus';

const file = (name: string, spread: number | null, refs: number, pdfium: ConsensusFileResult['renderers']['pdfium'], pdfjs?: ConsensusFileResult['renderers']['pdfjs']): ConsensusFileResult => ({
  file: name,
  referencesRendered: (['poppler', 'MuPDF', 'Ghostscript'] as const).slice(0, refs),
  referenceSpread: spread,
  renderers: { pdfium, ...(pdfjs ? { pdfjs } : {}) },
});

describe('the previews agreement against several references', () => {
  it('counts only pages two references render, takes the closest reference, and flags pages beyond max(0.03, the references’ spread)', () => {
    const s = summarizeRenderer(
      [
        file('close.pdf', 0.02, 3, { status: 'rendered', ms: 10, rmse: { poppler: 0.05, MuPDF: 0.01 } }),
        file('wide-spread.pdf', 0.2, 2, { status: 'rendered', ms: 30, rmse: { poppler: 0.15, MuPDF: 0.19 } }),
        file('outlier.pdf', 0.01, 3, { status: 'rendered', ms: 20, rmse: { poppler: 0.04, MuPDF: 0.05, Ghostscript: 0.06 } }),
        file('failed.pdf', 0.01, 2, { status: 'page-failed', reason: 'Page 1 could not be read; damaged', ms: 5 }),
        file('one-reference.pdf', null, 1, { status: 'refused', reason: 'x', ms: 5 }),
      ],
      'pdfium',
    );
    expect([s.eligible, s.rendered, s.compared]).toEqual([4, 3, 3]);
    expect(s.meanClosestRmse).toBeCloseTo((0.01 + 0.15 + 0.04) / 3, 10);
    expect(s.outliers).toEqual([{ file: 'outlier.pdf', closest: 0.04, bound: 0.03 }]);
    expect(s.outlierShare).toBeCloseTo(1 / 3, 10);
    expect(s.failureReasons).toEqual([{ key: 'page-failed: Page 1 could not be read', count: 1, files: ['failed.pdf'] }]);
  });

  it('derives production from a run of both: a file PDFium refused takes pdf.js’ outcome', () => {
    const refused = { status: 'refused' as const, reason: 'PDFium could not open the document (error 3)', ms: 1 };
    const [r] = withFallback([file('a.pdf', 0.01, 2, refused, { status: 'rendered', ms: 9, rmse: { poppler: 0.01 } })]);
    expect(r!.renderers.pdfium).toEqual({ status: 'rendered', ms: 10, rmse: { poppler: 0.01 } });
  });
});
