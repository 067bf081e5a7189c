/**
 * From per-file results of the previews agreement bench to its figures: the
 * shares rendered without error (over all files and over those poppler
 * rendered), RMSE over the pages both sides rendered, worst files, reasons.
 */
import { describe, expect, it } from 'vitest';
import { summarizeAgreement, verdict, type AgreementFileResult } from '../../bench/support/previews-agreement-summary';

const compared = (file: string, rmse: number, sizes: 'same' | 'rounding' | 'different' = 'same'): AgreementFileResult => ({
  file,
  ours: 'rendered',
  oursMs: 10,
  poppler: 'ok',
  comparison: { rmse, sizes, ours: { width: 10, height: 10 }, poppler: { width: 10, height: 10 } },
});

describe('summarizeAgreement', () => {
  it('gives mean and median RMSE over the compared pages and lists the worst first', () => {
    const s = summarizeAgreement([compared('a.pdf', 0.01), compared('b.pdf', 0.02), compared('c.pdf', 0.09, 'different')], 2);
    expect(s.compared).toBe(3);
    expect(s.meanRmse).toBeCloseTo(0.04, 10);
    expect(s.medianRmse).toBeCloseTo(0.02, 10);
    expect(s.worst.map((r) => r.file)).toEqual(['c.pdf', 'b.pdf']);
    expect(s.sizeDifferent).toBe(1);
  });

  it('counts a file we refuse against us over all files, but not over the files poppler could not render', () => {
    const s = summarizeAgreement([
      compared('a.pdf', 0),
      { file: 'broken.pdf', ours: 'refused', reason: 'The PDF could not be read: damaged', oursMs: 5, poppler: 'failed' },
    ]);
    expect(s.rendered).toBe(1);
    expect(s.renderedShare).toBe(0.5);
    expect(s.popplerFailed).toBe(1);
    expect(s.renderedWherePopplerDid).toBe(1);
    expect(s.renderedShareWherePopplerDid).toBe(1);
    expect(s.compared).toBe(1);
  });

  it('leaves a file that needs a password out of the share only when pdftoppm cannot open it either', () => {
    const refused = (file: string, poppler: AgreementFileResult['poppler']): AgreementFileResult => ({
      file,
      ours: 'refused',
      reason: 'The PDF is protected by a password that is needed to open it; remove the password and send the file again.',
      oursMs: 5,
      poppler,
    });
    const s = summarizeAgreement([compared('a.pdf', 0), compared('b.pdf', 0), refused('locked.pdf', 'failed'), refused('owner-only.pdf', 'ok')]);
    expect(s.needPassword).toEqual(['locked.pdf']);
    expect(s.passwordOnlyForUs).toEqual(['owner-only.pdf']);
    expect(s.renderedShare).toBe(0.5);
    expect(s.renderedShareWithoutPasswords).toBeCloseTo(2 / 3, 10);
  });

  it('leaves a page we rendered but poppler did not out of the RMSE', () => {
    const s = summarizeAgreement([compared('a.pdf', 0.02), { file: 'b.pdf', ours: 'rendered', oursMs: 5, poppler: 'timeout' }]);
    expect(s.rendered).toBe(2);
    expect(s.compared).toBe(1);
    expect(s.meanRmse).toBeCloseTo(0.02, 10);
  });

  it('groups our failures by status and the first words of the reason, most frequent first', () => {
    const failed = (file: string, ours: AgreementFileResult['ours'], reason: string): AgreementFileResult => ({ file, ours, reason, oursMs: 1, poppler: 'ok' });
    const s = summarizeAgreement([
      failed('a.pdf', 'page-failed', 'The page could not be rendered: its content is damaged'),
      failed('b.pdf', 'timeout', 'no answer within 60 s'),
      failed('c.pdf', 'page-failed', 'The page could not be rendered: other words'),
    ]);
    expect(s.failureReasons).toEqual([
      { key: 'page-failed: The page could not be rendered', count: 2, files: ['a.pdf', 'c.pdf'] },
      { key: 'timeout: no answer within 60 s', count: 1, files: ['b.pdf'] },
    ]);
  });

  it('has no figures, rather than zeros, for an empty run', () => {
    const s = summarizeAgreement([]);
    expect(s.renderedShare).toBeNaN();
    expect(s.meanRmse).toBeNaN();
  });
});

describe('verdict', () => {
  it('says met or NOT MET', () => {
    expect(verdict(true)).toBe('met');
    expect(verdict(false)).toBe('NOT MET');
  });
});
