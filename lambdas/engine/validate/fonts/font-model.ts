/**
 * What the font rules know about each font that shows text: its dictionaries,
 * its embedded program (parsed only when a rule asks, once per model), and
 * for every code it shows the glyph a reader would pick (ISO 32000-1 9.6.6
 * for simple fonts, 9.7.4–9.7.5 for composite fonts), whether the program
 * has that glyph, and the widths the dictionary and the program give it.
 */
import { PDFDict, PDFName, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { describeFont, type FontInfo } from '../../core/fonts';
import { operations } from '../../core/content-lexer';
import { differences } from '../../core/interpret/font-metrics';
import { getArray, getDict, getName, getNumber, getStream, name, numbersOf, resolve, streamBytes } from '../../core/pdf-objects';
import { collected } from '../content-pass';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import type { Example, RuleOutcome } from '../rule';
import { readCff } from './cff';
import { aglUnicode, MAC_EXPERT, MAC_ROMAN, STANDARD, SYMBOL, WIN_ANSI, ZAPF_DINGBATS } from './font-tables';
import { cidResolver } from './cid-glyphs';
import type { Glyph, Program } from './glyph';
import { glyphUse, type FontGlyphUse } from './glyph-use';
import { isSfnt, readTrueType, type TrueTypeFont } from './truetype';
import { readType1 } from './type1';

export interface FontFacts {
  dict: PDFDict;
  info: FontInfo;
  /** The CIDFont of a Type0 font. */
  descendant: PDFDict | undefined;
  descriptor: PDFDict | undefined;
  use: FontGlyphUse;
  objectNumber: number | undefined;
  /** First page showing text in the font. */
  page: number | undefined;
  /** Flags bit 3 (Symbolic) of the font descriptor. */
  symbolic: boolean;
  /** Shows at least one code in a rendering mode other than 3. */
  visible: boolean;
  /** Embedded program stream, if any. */
  programStream: PDFStream | undefined;
  program(): Program | null;
  glyph(code: number): Glyph;
}

export const fontFacts = fact('font-facts', (m): FontFacts[] => {
  const out: FontFacts[] = [];
  const fonts = collected(m, glyphUse)?.fonts;
  if (!fonts) return out;
  for (const [dict, use] of fonts) {
    try {
      out.push(buildFacts(m, dict, use));
    } catch {
      // A font too broken to describe is the subject of the file-structure rules (6.2.11.2), not a crash here.
    }
  }
  return out;
});

/** A short label for examples: `font ABCDEF+Helvetica (TrueType)`. */
export function fontLabel(f: FontFacts): string {
  return `font ${f.info.baseFont ?? f.info.name} (${f.info.cidType ?? f.info.type})`;
}

export function fontExample(f: FontFacts, detail?: string, page?: number): { page?: number; objectNumber?: number; context: string } {
  const p = page ?? f.page;
  return { ...(p !== undefined ? { page: p } : {}), ...(f.objectNumber !== undefined ? { objectNumber: f.objectNumber } : {}), context: detail ? `${fontLabel(f)}: ${detail}` : fontLabel(f) };
}

function buildFacts(m: ValidationModel, dict: PDFDict, use: FontGlyphUse): FontFacts {
  const ctx = m.context;
  const info = describeFont(ctx, dict);
  const type = info.type;
  const descendantObj = type === 'Type0' ? resolve(ctx, getArray(dict, 'DescendantFonts')?.get(0)) : undefined;
  const descendant = descendantObj instanceof PDFDict ? descendantObj : undefined;
  const descriptor = getDict(descendant ?? dict, 'FontDescriptor');
  const programStream = getStream(descriptor, 'FontFile') ?? getStream(descriptor, 'FontFile2') ?? getStream(descriptor, 'FontFile3');
  const flags = getNumber(descriptor, 'Flags') ?? 0;
  let firstPage: number | undefined;
  let visible = false;
  for (const [code, bits] of use.codes) {
    const p = use.firstPage.get(code);
    if (p !== undefined && (firstPage === undefined || p < firstPage)) firstPage = p;
    if (bits & 2) visible = true;
  }
  let program: Program | null | undefined;
  const readProgram = (): Program | null => {
    if (program !== undefined) return program;
    program = programStream ? parseProgram(descriptor!, programStream) : null;
    return program;
  };
  const glyphs = new Map<number, Glyph>();
  const resolver = glyphResolver(ctx, dict, descendant, descriptor, (flags & 4) !== 0, readProgram);
  const objectNumber = m.objectNumbers.of(dict) ?? (use.objectNumber ?? undefined);
  return {
    dict,
    info,
    descendant,
    descriptor,
    use,
    objectNumber,
    page: firstPage,
    symbolic: (flags & 4) !== 0,
    visible,
    programStream,
    program: readProgram,
    glyph(code) {
      let g = glyphs.get(code);
      if (!g) {
        try {
          g = resolver(code);
        } catch {
          g = { code, name: undefined, cid: undefined, present: undefined, dictWidth: undefined, programWidth: undefined };
        }
        glyphs.set(code, g);
      }
      return g;
    },
  };
}

function parseProgram(descriptor: PDFDict, stream: PDFStream): Program {
  const bytes = streamBytes(stream);
  if (!bytes || bytes.length < 4) return { kind: 'unreadable' };
  try {
    if (getStream(descriptor, 'FontFile2') === stream || isSfnt(bytes)) {
      const tt = readTrueType(bytes);
      if (!tt) return { kind: 'unreadable' };
      return { kind: 'truetype', tt, cff: tt.cff ? readCff(tt.cff) : null };
    }
    if (getStream(descriptor, 'FontFile3') === stream) {
      const cff = readCff(bytes);
      return cff ? { kind: 'cff', cff } : { kind: 'unreadable' };
    }
    const t1 = readType1(bytes, getNumber(stream.dict, 'Length1'));
    return t1 ? { kind: 'type1', t1 } : { kind: 'unreadable' };
  } catch {
    // The readers are bounded and lenient; anything they still trip over is an unreadable program.
    return { kind: 'unreadable' };
  }
}

const ENCODINGS: Record<string, readonly string[]> = { WinAnsiEncoding: WIN_ANSI, MacRomanEncoding: MAC_ROMAN, StandardEncoding: STANDARD, MacExpertEncoding: MAC_EXPERT };

/** Code → glyph name by the font's Encoding (base encoding, then Differences); `builtIn` stands in where no base is named. */
export function encodingNames(ctx: PDFContext, dict: PDFDict, builtIn: readonly (string | undefined)[] | undefined): (string | undefined)[] {
  const out: (string | undefined)[] = new Array(256);
  const enc = resolve(ctx, dict.get(name('Encoding')));
  const baseName = enc instanceof PDFName ? enc.decodeText() : enc instanceof PDFDict ? getName(enc, 'BaseEncoding') : undefined;
  const base = baseName ? ENCODINGS[baseName] : builtIn;
  if (base) for (let c = 0; c < 256; c++) out[c] = base[c] || undefined;
  const diffs = differences(ctx, dict);
  for (let c = 0; c < 256; c++) if (diffs[c] !== undefined) out[c] = diffs[c];
  return out;
}

/** Unicode of a glyph name: the Adobe Glyph List, then uniXXXX / uXXXX[XX] names. */
export function unicodeOfName(n: string): number | undefined {
  const agl = aglUnicode(n);
  if (agl !== undefined) return agl;
  const uni = /^uni([0-9A-F]{4})$/.exec(n) ?? /^u([0-9A-F]{4,6})$/.exec(n);
  return uni ? parseInt(uni[1]!, 16) : undefined;
}

function glyphResolver(ctx: PDFContext, dict: PDFDict, descendant: PDFDict | undefined, descriptor: PDFDict | undefined, symbolic: boolean, program: () => Program | null): (code: number) => Glyph {
  const type = getName(dict, 'Subtype');
  if (type === 'Type0') return cidResolver(ctx, dict, descendant, program);
  if (type === 'Type3') return type3Resolver(ctx, dict);
  // Simple fonts.
  const widths = numbersOf(getArray(dict, 'Widths'));
  const first = getNumber(dict, 'FirstChar') ?? 0;
  const missing = getNumber(descriptor, 'MissingWidth') ?? 0;
  const dictWidth = (code: number): number | undefined => {
    if (!widths) return undefined;
    const i = code - first;
    return i >= 0 && i < widths.length && Number.isFinite(widths[i]) ? widths[i] : missing;
  };
  let names: (string | undefined)[] | undefined;
  const namesOf = (p: Program | null): (string | undefined)[] => {
    if (names) return names;
    const builtIn = p?.kind === 'type1' ? p.t1.encoding : p?.kind === 'cff' ? p.cff.encoding : symbolicBuiltIn(getName(dict, 'BaseFont'));
    // Without a named base encoding: a symbolic Type 1 font uses its program's built-in encoding, a non-symbolic one
    // StandardEncoding (ISO 32000-1 9.6.6.2); a symbolic TrueType font has no glyph names at all, its codes select glyphs
    // through the program's cmap (9.6.6.4).
    const fallback = type === 'TrueType' ? (symbolic ? undefined : STANDARD) : symbolic ? builtIn ?? STANDARD : STANDARD;
    names = encodingNames(ctx, dict, fallback);
    return names;
  };
  return (code) => {
    const p = program();
    const n = namesOf(p)[code];
    const g: Glyph = { code, name: n, cid: undefined, present: undefined, dictWidth: dictWidth(code), programWidth: undefined };
    if (!p) return g;
    if (p.kind === 'type1') {
      const nm = n ?? '.notdef';
      g.present = p.t1.widths.has(nm);
      g.programWidth = p.t1.widths.get(nm);
    } else if (p.kind === 'cff' || (p.kind === 'truetype' && p.cff && type !== 'TrueType')) {
      const cff = p.kind === 'cff' ? p.cff : p.cff!;
      const gid = cff.cidKeyed ? cff.cids.get(code) : cff.names.get(n ?? '.notdef');
      g.present = gid !== undefined;
      if (gid !== undefined) g.programWidth = cff.width(gid);
    } else if (p.kind === 'truetype') {
      const gid = trueTypeGid(p.tt, code, n, symbolic, dict, ctx);
      g.present = gid !== undefined && gid > 0 && gid < p.tt.glyphCount && !droppedOutline(p.tt, gid, n);
      if (g.present) {
        const adv = p.tt.advance(gid!);
        if (adv !== undefined) g.programWidth = (adv * 1000) / p.tt.unitsPerEm;
      }
    }
    return g;
  };
}

/**
 * Type 3 glyphs: the "program" is the glyph procedure, whose first operator
 * (d0 or d1) states the advance in glyph space, as Widths does.
 */
function type3Resolver(ctx: PDFContext, dict: PDFDict): (code: number) => Glyph {
  const names = encodingNames(ctx, dict, undefined);
  const widths = numbersOf(getArray(dict, 'Widths'));
  const first = getNumber(dict, 'FirstChar') ?? 0;
  const procs = getDict(dict, 'CharProcs');
  return (code) => {
    const n = names[code];
    const i = code - first;
    const dictWidth = widths && i >= 0 && i < widths.length && Number.isFinite(widths[i]) ? widths[i] : undefined;
    const proc = n && procs ? procs.lookup(name(n)) : undefined;
    let programWidth: number | undefined;
    if (proc instanceof PDFStream) {
      const b = streamBytes(proc);
      if (b) {
        for (const op of operations(b)) {
          if ((op.op === 'd0' || op.op === 'd1') && typeof op.operands[0] === 'number') programWidth = op.operands[0];
          break;
        }
      }
    }
    return { code, name: n, cid: undefined, present: n !== undefined && proc instanceof PDFStream, dictWidth, programWidth };
  };
}

/**
 * Subsetters drop a glyph by emptying its outline while keeping cmap and hmtx
 * entries; a named glyph that is not white space yet has no outline was
 * dropped (the case of a subset whose "i" was removed but still shown).
 */
function droppedOutline(tt: TrueTypeFont, gid: number, glyphName: string | undefined): boolean {
  if (!glyphName || tt.hasOutline(gid) !== false) return false;
  const u = unicodeOfName(glyphName);
  if (u === undefined) return false;
  return !/[\s\p{Cc}\p{Cf}\p{Zs}\u200b-\u200f\u2028-\u202f\u2060-\u206f\ufeff]/u.test(String.fromCodePoint(u));
}

function symbolicBuiltIn(baseFont: string | undefined): readonly string[] | undefined {
  const n = baseFont?.replace(/^[A-Z]{6}\+/, '');
  if (n === 'Symbol') return SYMBOL;
  if (n === 'ZapfDingbats') return ZAPF_DINGBATS;
  return undefined;
}

/** Glyph index a TrueType simple font gives a code (ISO 32000-1 9.6.6.4). */
function trueTypeGid(tt: TrueTypeFont, code: number, glyphName: string | undefined, symbolic: boolean, dict: PDFDict, ctx: PDFContext): number | undefined {
  const sub = (p: number, e: number) => tt.cmaps.find((c) => c.platform === p && c.encoding === e);
  const hasEncoding = resolve(ctx, dict.get(name('Encoding'))) !== undefined;
  const c31 = sub(3, 1);
  const c30 = sub(3, 0);
  const c10 = sub(1, 0);
  if ((!symbolic || hasEncoding) && glyphName) {
    if (c31) {
      const u = unicodeOfName(glyphName);
      const g = u !== undefined ? c31.lookup(u) : undefined;
      if (g !== undefined) return g;
    }
    if (c10) {
      const mac = MAC_ROMAN.indexOf(glyphName);
      const g = mac >= 0 ? c10.lookup(mac) : undefined;
      if (g !== undefined) return g;
    }
    const g = tt.gidOfName(glyphName);
    if (g !== undefined) return g;
  }
  // A non-symbolic font is read through names only (a code its encoding leaves unnamed selects .notdef), unless it lacks the
  // subtables that names are looked up in.
  if (!symbolic && (c31 || c10)) return undefined;
  if (c30) {
    for (const c of [code, 0xf000 + code, 0xf100 + code, 0xf200 + code]) {
      const g = c30.lookup(c);
      if (g !== undefined) return g;
    }
  }
  if (c10) {
    const g = c10.lookup(code);
    if (g !== undefined) return g;
  }
  if (c31) {
    // A symbolic font read through (3,1) by code, as readers fall back to.
    const g = c31.lookup(code) ?? c31.lookup(0xf000 + code);
    if (g !== undefined) return g;
  }
  if (tt.cmaps.length === 0 && code < tt.glyphCount) return code;
  return undefined;
}

/** Like rule.ts eachOf, but a predicate that throws on a damaged object counts it as failing instead of failing the whole rule. */
export function eachOf<T>(items: readonly T[], ok: (item: T) => boolean, example: (item: T) => Example): RuleOutcome {
  const failures: Example[] = [];
  for (const item of items) {
    let pass: boolean;
    try {
      pass = ok(item);
    } catch {
      pass = false;
    }
    if (!pass) failures.push(example(item));
  }
  return { checked: items.length, failures };
}
