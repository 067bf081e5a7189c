/**
 * Font agreement with `pdffonts`: for each font poppler lists, do we list the
 * same font object, and do we say the same about whether its program is
 * embedded? The share is taken over poppler's rows, so a font poppler lists and
 * we do not counts against us.
 *
 * Matching: by object number. A font written as a direct dictionary has none
 * (poppler prints `[none]`); those are paired with our direct fonts of the same
 * name (the BaseFont without its subset prefix), or with a direct Type 3 font
 * when poppler shows no name either, each of ours used once.
 */
import type { PopplerFontRow } from './pdffonts-output';

/** What the bench needs to know about one font of our report. */
export interface OurFont {
  objectNumber: number | null;
  /** BaseFont without the subset prefix (`Frutiger-Roman`), as the report names it. */
  name: string;
  type: string;
  embedded: boolean;
}

export type FontVerdict = 'agrees' | 'differs' | 'missing';

export interface FontComparison {
  poppler: PopplerFontRow;
  ours: OurFont | null;
  verdict: FontVerdict;
}

const SUBSET_PREFIX = /^[A-Z]{6}\+/;

export function compareFonts(popplerRows: readonly PopplerFontRow[], ours: readonly OurFont[]): FontComparison[] {
  const byObject = new Map<number, OurFont>();
  for (const f of ours) if (f.objectNumber !== null && !byObject.has(f.objectNumber)) byObject.set(f.objectNumber, f);
  const direct = ours.filter((f) => f.objectNumber === null);
  const usedDirect = new Set<OurFont>();

  return popplerRows.map((row) => {
    let match: OurFont | undefined;
    if (row.objectNumber !== null) match = byObject.get(row.objectNumber);
    else {
      match = direct.find((f) => !usedDirect.has(f) && sameDirectFont(row, f));
      if (match) usedDirect.add(match);
    }
    if (!match) return { poppler: row, ours: null, verdict: 'missing' };
    return { poppler: row, ours: match, verdict: match.embedded === row.embedded ? 'agrees' : 'differs' };
  });
}

function sameDirectFont(row: PopplerFontRow, ours: OurFont): boolean {
  if (row.name === null) return row.type === 'Type 3' && ours.type === 'Type3';
  return row.name.replace(SUBSET_PREFIX, '') === ours.name;
}

export interface FontAgreement {
  rows: number;
  agreeing: number;
  differing: number;
  missing: number;
}

export function tallyFonts(comparisons: readonly FontComparison[]): FontAgreement {
  const count = (v: FontVerdict) => comparisons.filter((c) => c.verdict === v).length;
  return { rows: comparisons.length, agreeing: count('agrees'), differing: count('differs'), missing: count('missing') };
}
