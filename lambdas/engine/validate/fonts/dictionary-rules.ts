/**
 * The general font clause of each PDF/A part (PDF/A-1 6.3.2, PDF/A-2/3
 * 6.2.11.2, PDF/A-4 6.2.10.2): every font used conforms to the font
 * dictionaries of ISO 32000 (PDF 1.4 Reference 5.5 for PDF/A-1). From PDF/A-2
 * on this holds "regardless of rendering mode usage", so every font that
 * shows text is judged, invisible text included (PDF/A-1 is read the same way:
 * its fonts used for rendering are a subset, and the dictionary requirements
 * of PDF 1.4 do not depend on the rendering mode).
 *
 * What is checked, per font dictionary and per CIDFont of a Type 0 font:
 *   - Type is Font; Subtype is one of the font types the standard defines;
 *     BaseFont is a name (Type 3 fonts have none);
 *   - simple fonts other than the standard 14 (shown without an embedded
 *     program) have FirstChar, LastChar and a Widths array of
 *     LastChar − FirstChar + 1 entries;
 *   - a Type 0 font's DescendantFonts is an array of one CIDFont dictionary;
 *   - a Type 3 font has FontBBox, FontMatrix, CharProcs and Encoding;
 *   - an embedded FontFile3 program names a format the part knows (Type1C,
 *     CIDFontType0C; OpenType from PDF 1.6 on, so not in PDF/A-1).
 */
import { PDFArray, PDFDict, PDFName } from '@cantoo/pdf-lib';
import { getName, getNumber, getStream, name, resolve } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import type { Example, Rule } from '../rule';
import { isPdfA1 } from './clauses';
import { fontExample, fontFacts, type FontFacts } from './font-model';

export const FONT_DICTIONARY_CLAUSES = { 1: '6.3.2', 2: '6.2.11.2', 3: '6.2.11.2', 4: '6.2.10.2' } as const;

const FONT_SUBTYPES = new Set(['Type1', 'MMType1', 'TrueType', 'Type3', 'Type0', 'CIDFontType0', 'CIDFontType2']);
const SIMPLE = new Set(['Type1', 'MMType1', 'TrueType', 'Type3']);
const STANDARD_14 = new Set([
  'Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic',
  'Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique',
  'Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique',
  'Symbol', 'ZapfDingbats',
]);

/** A font dictionary to judge: a font that shows text, or the CIDFont of a Type 0 font that does. */
interface Judged {
  font: FontFacts;
  dict: PDFDict;
  /** `CIDFont` when this is the descendant of `font`. */
  role: 'font' | 'CIDFont';
}

const judged = fact('font-dictionaries-judged', (m): Judged[] => {
  const out: Judged[] = [];
  for (const f of fontFacts(m)) {
    out.push({ font: f, dict: f.dict, role: 'font' });
    if (f.descendant) out.push({ font: f, dict: f.descendant, role: 'CIDFont' });
  }
  return out;
});

function example(j: Judged, problem: string): Example {
  return fontExample(j.font, j.role === 'CIDFont' ? `its CIDFont: ${problem}` : problem);
}

/** Collects one example per dictionary with its first problem. */
function judge(m: ValidationModel, problem: (j: Judged) => string | null, only: (j: Judged) => boolean = () => true): { checked: number; failures: Example[] } {
  const items = judged(m).filter((j) => {
    try {
      return only(j);
    } catch {
      return false;
    }
  });
  const failures: Example[] = [];
  for (const j of items) {
    let p: string | null;
    try {
      p = problem(j);
    } catch {
      p = 'the font dictionary cannot be read';
    }
    if (p) failures.push(example(j, p));
  }
  return { checked: items.length, failures };
}

function identityProblem(m: ValidationModel, j: Judged): string | null {
  const type = getName(j.dict, 'Type');
  if (type !== 'Font') return type === undefined ? 'no Type entry (Font)' : `Type is ${type}, not Font`;
  const subtype = getName(j.dict, 'Subtype');
  if (subtype === undefined || !FONT_SUBTYPES.has(subtype)) return subtype === undefined ? 'no Subtype entry' : `Subtype ${subtype} is not a font type`;
  if (j.role === 'CIDFont' && subtype !== 'CIDFontType0' && subtype !== 'CIDFontType2') return `a descendant font of Subtype ${subtype}, not a CIDFont`;
  if (subtype !== 'Type3' && !(resolve(m.context, j.dict.get(name('BaseFont'))) instanceof PDFName)) return 'no BaseFont name';
  return null;
}

/** A standard 14 font without a program of its own: readers supply its widths, so the dictionary need not give them. */
function standardWithoutProgram(j: Judged): boolean {
  const base = getName(j.dict, 'BaseFont');
  return base !== undefined && STANDARD_14.has(base) && getName(j.dict, 'Subtype') !== 'Type3' && j.font.programStream === undefined;
}

function widthsProblem(m: ValidationModel, j: Judged): string | null {
  const first = getNumber(j.dict, 'FirstChar');
  const last = getNumber(j.dict, 'LastChar');
  if (first === undefined || !Number.isInteger(first)) return 'no FirstChar integer';
  if (last === undefined || !Number.isInteger(last)) return 'no LastChar integer';
  const widths = resolve(m.context, j.dict.get(name('Widths')));
  if (!(widths instanceof PDFArray)) return 'no Widths array';
  const expected = last - first + 1;
  return widths.size() === expected ? null : `Widths has ${widths.size()} entries, LastChar − FirstChar + 1 is ${expected}`;
}

function compositeProblem(m: ValidationModel, j: Judged): string | null {
  const d = resolve(m.context, j.dict.get(name('DescendantFonts')));
  if (!(d instanceof PDFArray)) return 'no DescendantFonts array';
  if (d.size() !== 1) return `DescendantFonts has ${d.size()} entries, not one`;
  const cid = resolve(m.context, d.get(0));
  if (!(cid instanceof PDFDict)) return 'DescendantFonts does not hold a CIDFont dictionary';
  if (!(resolve(m.context, j.dict.get(name('Encoding'))) !== undefined)) return 'no Encoding (CMap)';
  return null;
}

function type3Problem(m: ValidationModel, j: Judged): string | null {
  const arrayOf = (key: string, n: number): boolean => {
    const v = resolve(m.context, j.dict.get(name(key)));
    return v instanceof PDFArray && v.size() === n;
  };
  if (!arrayOf('FontBBox', 4)) return 'no FontBBox rectangle';
  if (!arrayOf('FontMatrix', 6)) return 'no FontMatrix of six numbers';
  if (!(resolve(m.context, j.dict.get(name('CharProcs'))) instanceof PDFDict)) return 'no CharProcs dictionary';
  const enc = resolve(m.context, j.dict.get(name('Encoding')));
  if (!(enc instanceof PDFDict || enc instanceof PDFName)) return 'no Encoding';
  return null;
}

function fontFileProblem(j: Judged, pdfa1: boolean): string | null {
  const ff3 = getStream(j.font.descriptor, 'FontFile3');
  // A Type 0 font's program belongs to its CIDFont, judged as such.
  if (!ff3 || (j.role === 'font' && j.font.descendant)) return null;
  const sub = getName(ff3.dict, 'Subtype');
  if (sub === undefined) return null;
  const known = pdfa1 ? ['Type1C', 'CIDFontType0C'] : ['Type1C', 'CIDFontType0C', 'OpenType'];
  return known.includes(sub) ? null : `FontFile3 Subtype ${sub} is not a font format of ${pdfa1 ? 'PDF 1.4' : 'ISO 32000'}`;
}

const isSimple = (j: Judged): boolean => j.role === 'font' && SIMPLE.has(getName(j.dict, 'Subtype') ?? '');

export const FONT_DICTIONARY_RULES: readonly Rule[] = [
  {
    id: 'pdfa.fonts.dictionary-type',
    clauses: FONT_DICTIONARY_CLAUSES,
    description: 'Every font dictionary used shall have Type Font, a Subtype naming a font type of ISO 32000 (a CIDFont type for the descendant of a Type 0 font), and a BaseFont name unless it is a Type 3 font.',
    test: (m) => judge(m, (j) => identityProblem(m, j)),
  },
  {
    id: 'pdfa.fonts.simple-font-widths',
    clauses: FONT_DICTIONARY_CLAUSES,
    description:
      'Every simple font used, other than a standard 14 font without an embedded program, shall have FirstChar, LastChar and a Widths array of LastChar − FirstChar + 1 entries.',
    test: (m) => judge(m, (j) => widthsProblem(m, j), (j) => isSimple(j) && !standardWithoutProgram(j)),
  },
  {
    id: 'pdfa.fonts.composite-font-dictionary',
    clauses: FONT_DICTIONARY_CLAUSES,
    description: 'Every Type 0 font used shall have an Encoding and a DescendantFonts array holding exactly one CIDFont dictionary.',
    test: (m) => judge(m, (j) => compositeProblem(m, j), (j) => j.role === 'font' && getName(j.dict, 'Subtype') === 'Type0'),
  },
  {
    id: 'pdfa.fonts.type3-dictionary',
    clauses: FONT_DICTIONARY_CLAUSES,
    description: 'Every Type 3 font used shall have a FontBBox, a FontMatrix, a CharProcs dictionary and an Encoding.',
    test: (m) => judge(m, (j) => type3Problem(m, j), (j) => j.role === 'font' && getName(j.dict, 'Subtype') === 'Type3'),
  },
  {
    id: 'pdfa.fonts.font-file-subtype',
    clauses: FONT_DICTIONARY_CLAUSES,
    description: (p) =>
      isPdfA1(p)
        ? 'An embedded FontFile3 font program shall have the Subtype Type1C or CIDFontType0C.'
        : 'An embedded FontFile3 font program shall have the Subtype Type1C, CIDFontType0C or OpenType.',
    test: (m, p) => judge(m, (j) => fontFileProblem(j, isPdfA1(p))),
  },
];
