/**
 * Embedding: the program of every font that renders text travels with the
 * file, defines every glyph the text uses, and a subset says truthfully which
 * glyphs it kept (CharSet for Type 1, CIDSet for CIDFonts).
 */
import { PDFStream } from '@cantoo/pdf-lib';
import { getStream, getText, name, resolve, streamBytes } from '../../core/pdf-objects';
import type { ValidationModel } from '../model';
import type { Example, Rule } from '../rule';
import { CLAUSES, isPdfA1 } from './clauses';
import { eachOf, fontExample, fontFacts, type FontFacts } from './font-model';
import { VISIBLE } from './glyph-use';

const SUBSET = /^[A-Z]{6}\+/;

/** The program's glyph names (Type 1 and CFF name-keyed fonts), without .notdef; null when unknown. */
function programNames(f: FontFacts): Set<string> | null {
  const p = f.program();
  if (!p) return null;
  const names = p.kind === 'type1' ? [...p.t1.widths.keys()] : p.kind === 'cff' && !p.cff.cidKeyed ? [...p.cff.names.keys()] : null;
  if (!names) return null;
  return new Set(names.filter((n) => n !== '.notdef'));
}

/**
 * CIDs the program defines (CID 0 excluded), and among them those whose glyph
 * is empty: a TrueType subset keeps glyph slots it emptied, so such a CID may
 * fairly be listed in a CIDSet or left out of it. null when unknown.
 */
function programCids(m: ValidationModel, f: FontFacts): { cids: Set<number>; empty: Set<number> } | null {
  const p = f.program();
  if (!p) return null;
  const cff = p.kind === 'cff' ? p.cff : p.kind === 'truetype' ? p.cff : null;
  const cids = new Set<number>();
  const empty = new Set<number>();
  if (cff) {
    if (cff.cidKeyed) for (const c of cff.cids.keys()) cids.add(c);
    else for (let g = 0; g < cff.glyphCount; g++) cids.add(g);
  } else if (p.kind === 'truetype') {
    const tt = p.tt;
    const note = (cid: number, gid: number): void => {
      cids.add(cid);
      if (tt.hasOutline(gid) === false) empty.add(cid);
    };
    const map = resolve(m.context, f.descendant?.get(name('CIDToGIDMap')));
    if (map instanceof PDFStream) {
      const b = streamBytes(map);
      if (!b) return null;
      for (let cid = 0; cid * 2 + 1 < b.length; cid++) {
        const gid = (b[cid * 2]! << 8) | b[cid * 2 + 1]!;
        if (gid !== 0 && gid < tt.glyphCount) note(cid, gid);
      }
    } else for (let g = 0; g < tt.glyphCount; g++) note(g, g);
  } else return null;
  cids.delete(0);
  return { cids, empty };
}

/**
 * PDF/A-1 asks only that the glyphs the text uses be listed (its CharSet and
 * CIDSet are required, and a reader needs them for exactly those); the later
 * parts ask, where the entry is present, that it list the program's glyphs
 * exactly (.notdef and CID 0 aside).
 */
function cidSetProblem(m: ValidationModel, f: FontFacts, pdfa1: boolean): string | null {
  const stream = getStream(f.descriptor, 'CIDSet');
  if (!stream) return pdfa1 ? 'the subset has no CIDSet' : null;
  const bits = streamBytes(stream);
  const program = programCids(m, f);
  if (!bits || !program) return null;
  const { cids, empty } = program;
  const has = (cid: number): boolean => (cid >> 3) < bits.length && (bits[cid >> 3]! & (0x80 >> (cid & 7))) !== 0;
  for (let cid = 1; cid < bits.length * 8; cid++) if (has(cid) && !cids.has(cid)) return `CIDSet lists CID ${cid}, which the program does not define`;
  if (pdfa1) {
    for (const code of f.use.codes.keys()) {
      const cid = f.glyph(code).cid;
      if (cid !== undefined && cid !== 0 && cids.has(cid) && !has(cid)) return `CIDSet omits CID ${cid}, which the text uses`;
    }
    return null;
  }
  for (const cid of cids) if (!has(cid) && !empty.has(cid)) return `CIDSet omits CID ${cid}, which the program defines`;
  return null;
}

function charSetProblem(f: FontFacts, pdfa1: boolean): string | null {
  const charSet = getText(f.descriptor, 'CharSet');
  if (charSet === undefined) return pdfa1 ? 'the subset has no CharSet' : null;
  const names = programNames(f);
  if (!names) return null;
  const listed = new Set(charSet.split('/').map((s) => s.trim()).filter((s) => s.length > 0 && s !== '.notdef'));
  if (pdfa1) {
    for (const code of f.use.codes.keys()) {
      const n = f.glyph(code).name;
      if (n !== undefined && names.has(n) && !listed.has(n)) return `CharSet omits glyph ${n}, which the text uses`;
    }
    return null;
  }
  for (const n of names) if (!listed.has(n)) return `CharSet omits glyph ${n}`;
  for (const n of listed) if (!names.has(n)) return `CharSet lists glyph ${n}, which the program does not define`;
  return null;
}

const EMBEDDED = 'The font program of every font used for rendering shall be embedded (text shown only in rendering mode 3, invisible, is exempt).';
const embeddedOutcome = (m: ValidationModel) => eachOf(fontFacts(m).filter((f) => f.visible && f.info.type !== 'Type3'), (f) => f.programStream !== undefined, (f) => ({ ...fontExample(f), context: `font ${f.info.name} (${f.info.type}) is not embedded` }));

export const EMBEDDING_RULES: readonly Rule[] = [
  {
    id: 'pdfa.fonts.embedded',
    clauses: CLAUSES.embedded,
    description: EMBEDDED,
    test: (m) => embeddedOutcome(m),
  },
  {
    id: 'pdfua.fonts.embedded',
    clauses: CLAUSES.embeddedUa,
    description: EMBEDDED,
    test: (m) => embeddedOutcome(m),
  },
  {
    id: 'fonts.glyphs-present',
    clauses: CLAUSES.glyphsPresent,
    description: 'An embedded font program shall define every glyph that text uses for rendering.',
    test: (m) => {
      const failures: Example[] = [];
      // A Type 3 font's glyph procedures are its program: a code whose name has no procedure draws nothing.
      const fonts = fontFacts(m).filter((f) => f.visible && (f.programStream !== undefined || f.info.type === 'Type3'));
      for (const f of fonts) {
        try {
          for (const [code, bits] of f.use.codes) {
            if (!(bits & VISIBLE)) continue;
            const g = f.glyph(code);
            if (g.present === false) {
              failures.push(fontExample(f, `code ${code}${g.name ? ` (${g.name})` : g.cid !== undefined ? ` (CID ${g.cid})` : ''} has no glyph in the program`, f.use.firstPage.get(code)));
              break;
            }
          }
        } catch {
          // Unreadable program: nothing this rule can tell.
        }
      }
      return { checked: fonts.length, failures };
    },
  },
  {
    id: 'fonts.subset-glyph-lists',
    clauses: CLAUSES.subsets,
    description: (p) =>
      isPdfA1(p)
        ? 'A Type 1 font subset shall have a CharSet, and a CIDFont subset a CIDSet, listing every glyph its program contains.'
        : 'Where an embedded subset has a CharSet (Type 1) or a CIDSet (CIDFont), it shall list every glyph the program contains.',
    test: (m, p) => {
      const pdfa1 = isPdfA1(p);
      const failures: Example[] = [];
      const fonts = fontFacts(m).filter((f) => f.programStream !== undefined && SUBSET.test(f.info.baseFont ?? '') && (f.info.type === 'Type1' || f.info.type === 'MMType1' || f.info.type === 'Type0'));
      for (const f of fonts) {
        let problem: string | null;
        try {
          problem = f.info.type === 'Type0' ? cidSetProblem(m, f, pdfa1) : charSetProblem(f, pdfa1);
        } catch {
          problem = null;
        }
        if (problem) failures.push(fontExample(f, problem));
      }
      return { checked: fonts.length, failures };
    },
  },
];
