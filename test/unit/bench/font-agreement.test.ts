/**
 * Font agreement with pdffonts: which of our fonts answers for which poppler
 * row, and what counts as agreeing.
 */
import { describe, expect, it } from 'vitest';
import { compareFonts, tallyFonts, type OurFont } from '../../bench/support/font-agreement';
import type { PopplerFontRow } from '../../bench/support/pdffonts-output';

const row = (over: Partial<PopplerFontRow>): PopplerFontRow => ({
  name: 'ABCDEF+Frutiger-Roman',
  type: 'Type 1C',
  encoding: 'Custom',
  embedded: true,
  subset: true,
  toUnicode: true,
  objectNumber: 10,
  generation: 0,
  ...over,
});
const ours = (over: Partial<OurFont>): OurFont => ({ objectNumber: 10, name: 'Frutiger-Roman', type: 'Type1', embedded: true, ...over });

describe('compareFonts', () => {
  it('agrees when the same font object has the same embedded answer', () => {
    const [c] = compareFonts([row({})], [ours({})]);
    expect(c!.verdict).toBe('agrees');
  });

  it('disagrees when we call an embedded font not embedded, or the other way round', () => {
    expect(compareFonts([row({ embedded: true })], [ours({ embedded: false })])[0]!.verdict).toBe('differs');
    expect(compareFonts([row({ embedded: false })], [ours({ embedded: true })])[0]!.verdict).toBe('differs');
  });

  it('matches by object number, not by name or list order', () => {
    const cs = compareFonts(
      [row({ objectNumber: 7, embedded: false }), row({ objectNumber: 8, embedded: true })],
      [ours({ objectNumber: 8, embedded: true }), ours({ objectNumber: 7, embedded: false })],
    );
    expect(cs.map((c) => [c.ours?.objectNumber, c.verdict])).toEqual([
      [7, 'agrees'],
      [8, 'agrees'],
    ]);
  });

  it('counts a font poppler lists and we do not as missing', () => {
    const [c] = compareFonts([row({ objectNumber: 11 })], [ours({ objectNumber: 10 })]);
    expect(c).toMatchObject({ verdict: 'missing', ours: null });
  });

  it('pairs a direct font ([none]) with our direct font of the same name without its subset prefix, each once', () => {
    const cs = compareFonts(
      [row({ objectNumber: null, name: 'Helvetica', embedded: false }), row({ objectNumber: null, name: 'Helvetica', embedded: false })],
      [ours({ objectNumber: null, name: 'Helvetica', embedded: false })],
    );
    expect(cs.map((c) => c.verdict)).toEqual(['agrees', 'missing']);
  });

  it('does not pair a direct font with an indirect font of the same name', () => {
    const [c] = compareFonts([row({ objectNumber: null, name: 'Helvetica' })], [ours({ objectNumber: 12, name: 'Helvetica' })]);
    expect(c!.verdict).toBe('missing');
  });

  it('pairs a nameless direct Type 3 font with our direct Type 3 font', () => {
    const [c] = compareFonts([row({ objectNumber: null, name: null, type: 'Type 3' })], [ours({ objectNumber: null, name: 'Type3 font', type: 'Type3' })]);
    expect(c!.verdict).toBe('agrees');
  });

  it('ignores fonts we list that poppler does not (the share is over poppler’s rows)', () => {
    const cs = compareFonts([row({})], [ours({}), ours({ objectNumber: 99 })]);
    expect(tallyFonts(cs)).toEqual({ rows: 1, agreeing: 1, differing: 0, missing: 0 });
  });
});

describe('tallyFonts', () => {
  it('counts rows, agreeing, differing and missing', () => {
    const cs = compareFonts(
      [row({ objectNumber: 1 }), row({ objectNumber: 2 }), row({ objectNumber: 3 })],
      [ours({ objectNumber: 1 }), ours({ objectNumber: 2, embedded: false })],
    );
    expect(tallyFonts(cs)).toEqual({ rows: 3, agreeing: 1, differing: 1, missing: 1 });
  });
});
