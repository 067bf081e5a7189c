/**
 * The figures for scale of bench:previews --references: means over the files
 * that we and every reference renderer rendered, so the numbers compare the
 * same pages.
 */
import { describe, expect, it } from 'vitest';
import type { AgreementFileResult } from '../../bench/support/previews-agreement-summary';
import { referenceSummary } from '../../bench/support/previews-reference-renderers';

const file = (name: string, ours: number | null, references: AgreementFileResult['references']): AgreementFileResult => ({
  file: name,
  ours: 'rendered',
  oursMs: 1,
  poppler: 'ok',
  ...(ours === null ? {} : { comparison: { rmse: ours, sizes: 'same', ours: { width: 1, height: 1 }, poppler: { width: 1, height: 1 } } }),
  ...(references ? { references } : {}),
});

describe('reference renderers for scale', () => {
  it('average over the files every renderer and we rendered', () => {
    const s = referenceSummary(
      [
        file('a.pdf', 0.02, { MuPDF: 0.04, Ghostscript: 0.06 }),
        file('b.pdf', 0.04, { MuPDF: 0.08, Ghostscript: 0.1 }),
        file('c.pdf', 0.5, { MuPDF: 0.9 }), // Ghostscript failed: left out for all
        file('d.pdf', null, { MuPDF: 0.1, Ghostscript: 0.1 }), // we failed: left out for all
      ],
      ['MuPDF', 'Ghostscript'],
    );
    expect(s!.files).toBe(2);
    expect(s!.ours).toBeCloseTo(0.03, 10);
    expect(s!.references['MuPDF']).toBeCloseTo(0.06, 10);
    expect(s!.references['Ghostscript']).toBeCloseTo(0.08, 10);
  });

  it('give nothing when no file was rendered by all', () => {
    expect(referenceSummary([file('a.pdf', 0.02, { MuPDF: 0.04 })], ['MuPDF', 'Ghostscript'])).toBeNull();
  });
});
