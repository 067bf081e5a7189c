/**
 * Text that can be extracted: every code shown maps to Unicode, the values
 * are real characters, Private Use Area characters come with ActualText
 * (PDF/A-2/3 level A), ActualText itself holds no Private Use Area values
 * (PDF/A-4), and no text shows the .notdef glyph.
 */
import { PDFArray, PDFDict, PDFHexString, PDFString } from '@cantoo/pdf-lib';
import { getDict, name } from '../../core/pdf-objects';
import { collected } from '../content-pass';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import type { Example, Rule } from '../rule';
import type { StandardProfile } from '../profiles';
import { CLAUSES, isPdfA1 } from './clauses';
import { fontExample, fontFacts, type FontFacts } from './font-model';
import { glyphUse, NO_ACTUAL_TEXT } from './glyph-use';
import { unicodeSource, type UnicodeSource } from './to-unicode';

const unicodeSources = fact('font-unicode-sources', (m) => {
  const out = new Map<FontFacts, UnicodeSource>();
  for (const f of fontFacts(m)) {
    try {
      out.set(f, unicodeSource(m.context, f));
    } catch {
      // A ToUnicode too damaged to read maps nothing.
      out.set(f, { toUnicode: () => undefined, mapped: () => false });
    }
  }
  return out;
});

/** Checks each font's shown codes; one failure per font at its first offending code. */
function perCode(m: ValidationModel, fonts: FontFacts[], bad: (f: FontFacts, u: UnicodeSource, code: number, bits: number) => string | null): { checked: number; failures: Example[] } {
  const sources = unicodeSources(m);
  const failures: Example[] = [];
  for (const f of fonts) {
    const u = sources.get(f);
    if (!u) continue;
    for (const [code, bits] of f.use.codes) {
      let problem: string | null;
      try {
        problem = bad(f, u, code, bits);
      } catch {
        problem = null;
      }
      if (problem) {
        failures.push(fontExample(f, problem, f.use.firstPage.get(code)));
        break;
      }
    }
  }
  return { checked: fonts.length, failures };
}

const hex = (n: number): string => `U+${n.toString(16).toUpperCase().padStart(4, '0')}`;
const isPua = (cp: number): boolean => (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);
const hasPua = (s: string): boolean => {
  for (const ch of s) if (isPua(ch.codePointAt(0)!)) return true;
  return false;
};

/** ActualText strings of structure elements (bounded walk of the structure tree). */
const structureActualTexts = fact('structure-actual-texts', (m): string[] => {
  const out: string[] = [];
  const root = getDict(m.catalog, 'StructTreeRoot');
  if (!root) return out;
  const seen = new Set<PDFDict>();
  const stack: unknown[] = [root.lookup(name('K'))];
  while (stack.length > 0 && seen.size < 200000) {
    const v = stack.pop();
    if (v instanceof PDFArray) {
      for (let i = 0; i < v.size(); i++) stack.push(v.lookup(i));
    } else if (v instanceof PDFDict && !seen.has(v)) {
      seen.add(v);
      const at = v.lookup(name('ActualText'));
      if (at instanceof PDFString || at instanceof PDFHexString) out.push(at.decodeText());
      stack.push(v.lookup(name('K')));
    }
  }
  return out;
});

const MAPPED = "Every character code shown shall map to Unicode, through the font's ToUnicode CMap or another mechanism of ISO 32000 9.10.2 (standard glyph names, predefined character collections).";
const mappedOutcome = (m: ValidationModel, p: StandardProfile) =>
  perCode(m, fontFacts(m), (f, u, code) => (u.mapped(code, isPdfA1(p)) ? null : `code ${code}${f.glyph(code).name ? ` (${f.glyph(code).name})` : ''} has no Unicode mapping`));

export const UNICODE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.fonts.unicode',
    clauses: CLAUSES.unicodeMapped,
    levels: ['a', 'u'],
    description: MAPPED,
    test: (m, p) => mappedOutcome(m, p),
  },
  {
    id: 'pdfua.fonts.unicode',
    clauses: CLAUSES.unicodeMappedUa,
    description: MAPPED,
    test: (m, p) => mappedOutcome(m, p),
  },
  {
    id: 'fonts.unicode-values',
    clauses: CLAUSES.unicodeValues,
    levels: ['a', 'u', '', 'e', 'f'],
    description: 'The Unicode values a ToUnicode CMap gives the codes shown shall not be U+0000, U+FEFF or U+FFFE.',
    test: (m) =>
      perCode(m, fontFacts(m), (_f, u, code) => {
        const t = u.toUnicode(code);
        if (t === undefined) return null;
        for (const ch of t) {
          const cp = ch.codePointAt(0)!;
          if (cp === 0 || cp === 0xfeff || cp === 0xfffe) return `code ${code} maps to ${hex(cp)}`;
        }
        return null;
      }),
  },
  {
    id: 'pdfa.fonts.private-use-actual-text',
    clauses: CLAUSES.privateUse,
    levels: ['a'],
    description: 'A character mapped to the Unicode Private Use Area shall be inside a span with ActualText giving its meaning.',
    test: (m) =>
      perCode(m, fontFacts(m), (_f, u, code, bits) => {
        if (!(bits & NO_ACTUAL_TEXT)) return null;
        const t = u.toUnicode(code);
        return t !== undefined && hasPua(t) ? `code ${code} maps to the Private Use Area without ActualText` : null;
      }),
  },
  {
    id: 'pdfa.fonts.actual-text-private-use',
    clauses: CLAUSES.actualTextPua,
    description: 'ActualText shall not contain Unicode Private Use Area values.',
    test: (m) => {
      const marked = collected(m, glyphUse)?.actualTexts ?? [];
      const structural = structureActualTexts(m);
      const failures: Example[] = [];
      for (const a of marked) if (hasPua(a.text)) failures.push({ page: a.page, context: `marked-content ActualText "${a.text.slice(0, 40)}" contains Private Use Area characters` });
      for (const t of structural) if (hasPua(t)) failures.push({ context: `structure element ActualText "${t.slice(0, 40)}" contains Private Use Area characters` });
      return { checked: marked.length + structural.length, failures };
    },
  },
  {
    id: 'fonts.no-notdef',
    clauses: CLAUSES.notdef,
    description: 'Text showing operators shall not reference the .notdef glyph, in any rendering mode.',
    test: (m) => perCode(m, fontFacts(m), (f, _u, code) => (isNotdef(f, code) ? `code ${code} shows .notdef` : null)),
  },
];

function isNotdef(f: FontFacts, code: number): boolean {
  const g = f.glyph(code);
  if (f.info.type === 'Type0') return g.cid === 0 || g.present === false;
  if (f.info.type === 'Type3') return g.name === '.notdef';
  if (g.name === '.notdef') return true;
  // A code the encoding leaves without a name selects .notdef in a Type 1 font.
  if (f.info.type !== 'TrueType' && g.name === undefined) return true;
  return g.present === false;
}
