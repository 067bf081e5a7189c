/**
 * Font metrics (the widths the dictionary gives agree with the program's
 * advances) and TrueType character encodings (which Encoding and which cmap
 * subtables let every reader find the same glyph for a code).
 */
import { PDFArray, PDFDict, PDFName } from '@cantoo/pdf-lib';
import { getArray, getName, name, resolve } from '../../core/pdf-objects';
import type { StandardProfile } from '../profiles';
import type { Example, Rule } from '../rule';
import type { ValidationModel } from '../model';
import { CLAUSES, isPdf2, isPdfA1 } from './clauses';
import { fontExample, fontFacts, unicodeOfName, type FontFacts } from './font-model';
import { VISIBLE } from './glyph-use';

/** Widths may differ from the program's advances by rounding: one unit of 1/1000 em either way. */
const WIDTH_TOLERANCE = 1;

function widthMismatch(f: FontFacts): Example | null {
  for (const [code, bits] of f.use.codes) {
    if (!(bits & VISIBLE)) continue;
    const g = f.glyph(code);
    if (g.dictWidth === undefined || g.programWidth === undefined) continue;
    if (Math.abs(g.dictWidth - g.programWidth) > WIDTH_TOLERANCE) {
      const which = g.name ? ` (${g.name})` : g.cid !== undefined ? ` (CID ${g.cid})` : '';
      return fontExample(f, `code ${code}${which} is ${fmt(g.dictWidth)} wide in the dictionary but ${fmt(g.programWidth)} in the program`, f.use.firstPage.get(code));
    }
  }
  return null;
}

const fmt = (n: number): string => String(Math.round(n * 100) / 100);

/** The encoding name of a TrueType font (Encoding, or its dictionary's BaseEncoding) and whether it has Differences. */
function trueTypeEncoding(m: ValidationModel, f: FontFacts): { present: boolean; base: string | undefined; differences: PDFArray | undefined } {
  const enc = resolve(m.context, f.dict.get(name('Encoding')));
  if (enc instanceof PDFName) return { present: true, base: enc.decodeText(), differences: undefined };
  if (enc instanceof PDFDict) return { present: true, base: getName(enc, 'BaseEncoding'), differences: getArray(enc, 'Differences') };
  return { present: enc !== undefined, base: undefined, differences: undefined };
}

/** Every glyph name in Differences has a Unicode value readers can look up in a (3,1) cmap. */
function differencesUnicode(diffs: PDFArray): boolean {
  for (let i = 0; i < diffs.size(); i++) {
    const v = diffs.lookup(i);
    if (v instanceof PDFName && unicodeOfName(v.decodeText()) === undefined && v.decodeText() !== '.notdef') return false;
  }
  return true;
}

function encodingProblem(m: ValidationModel, f: FontFacts, p: StandardProfile): string | null {
  const enc = trueTypeEncoding(m, f);
  if (f.symbolic) {
    if (enc.present) return 'a symbolic TrueType font has an Encoding entry';
  } else {
    if (enc.base !== 'MacRomanEncoding' && enc.base !== 'WinAnsiEncoding') return `a non-symbolic TrueType font's encoding is ${enc.base ?? 'not given'}, not MacRomanEncoding or WinAnsiEncoding`;
    if (enc.differences && (isPdfA1(p) || !differencesUnicode(enc.differences))) return isPdfA1(p) ? 'a non-symbolic TrueType font has Differences' : 'Differences name glyphs without a Unicode value';
  }
  const prog = f.program();
  if (!prog || prog.kind !== 'truetype') return null;
  const cmaps = prog.tt.cmaps;
  const has = (pl: number, e: number): boolean => cmaps.some((c) => c.platform === pl && c.encoding === e);
  if (isPdf2(p)) {
    if (f.symbolic) return has(3, 0) || has(1, 0) ? null : 'the symbolic font program has neither a (3,0) nor a (1,0) cmap subtable';
    return has(3, 1) || has(1, 0) ? null : 'the font program has neither a (3,1) nor a (1,0) cmap subtable';
  }
  if (isPdfA1(p)) return !f.symbolic || cmaps.length === 1 ? null : `the symbolic font program has ${cmaps.length} cmap subtables, not exactly one`;
  if (f.symbolic) return cmaps.length === 1 || has(3, 0) ? null : `the symbolic font program has ${cmaps.length} cmap subtables and none is (3,0)`;
  return (has(3, 0) ? cmaps.length > 1 : cmaps.length > 0) ? null : 'the font program has no non-symbolic cmap subtable';
}

export const METRICS_ENCODING_RULES: readonly Rule[] = [
  {
    id: 'fonts.widths-match-program',
    clauses: CLAUSES.metrics,
    description: 'For every embedded font used for rendering, the glyph widths in the font dictionary shall agree with the advance widths in the font program (to within 1 unit in 1000).',
    test: (m) => {
      const fonts = fontFacts(m).filter((f) => f.visible && (f.programStream !== undefined || f.info.type === 'Type3'));
      const failures: Example[] = [];
      for (const f of fonts) {
        try {
          const bad = widthMismatch(f);
          if (bad) failures.push(bad);
        } catch {
          // An unreadable program has no widths to compare.
        }
      }
      return { checked: fonts.length, failures };
    },
  },
  {
    id: 'fonts.truetype-encoding',
    clauses: CLAUSES.encodings,
    description: (p) =>
      isPdf2(p)
        ? 'A non-symbolic TrueType font shall use MacRomanEncoding or WinAnsiEncoding (Differences only with Unicode glyph names) and its program a (3,1) or (1,0) cmap; a symbolic one shall have no Encoding and its program a (3,0) or (1,0) cmap.'
        : isPdfA1(p)
          ? 'A non-symbolic TrueType font shall use MacRomanEncoding or WinAnsiEncoding without Differences; a symbolic one shall have no Encoding and exactly one cmap subtable in its program.'
          : 'A non-symbolic TrueType font shall use MacRomanEncoding or WinAnsiEncoding (Differences only with Unicode glyph names) and its program a non-symbolic cmap; a symbolic one shall have no Encoding and its program exactly one cmap subtable or a (3,0) one.',
    test: (m, p) => {
      const fonts = fontFacts(m).filter((f) => f.info.type === 'TrueType');
      const failures: Example[] = [];
      for (const f of fonts) {
        let problem: string | null;
        try {
          problem = encodingProblem(m, f, p);
        } catch {
          problem = null;
        }
        if (problem) failures.push(fontExample(f, problem));
      }
      return { checked: fonts.length, failures };
    },
  },
];
