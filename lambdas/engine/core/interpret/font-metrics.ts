/**
 * What the interpreter needs of a font to place text (ISO 32000-1 9.2.4, 9.7):
 * how codes are read from a string, each code's advance, ascent and descent for
 * a text box, and for Type 3 fonts the glyph procedures. Built once per font
 * dictionary and cached by the document run.
 *
 * Advances are in text space per unit of font size (glyph width / 1000 for
 * ordinary fonts; × FontMatrix for Type 3). Sources, in order: Widths with
 * FirstChar (simple fonts), W and DW of the descendant (Type0), the standard 14
 * AFM metrics for a standard font written without Widths, and half an em
 * otherwise (good enough for a text box).
 */
import { PDFDict, PDFName, PDFNumber, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { readCidWidths } from '../cid-widths';
import { Encodings, Font, type IFontNames } from '@cantoo/pdf-lib/standard-fonts';
import { describeFont } from '../fonts';
import { getArray, getDict, getName, getNumber, name, numbersOf, resolve, streamBytes } from '../pdf-objects';
import { parseEmbeddedCMap, predefinedCodeSpace, TWO_BYTES, type CodeSpace, type EmbeddedCMap } from './code-space';
import type { Matrix } from './types';
import { matrixFrom } from './matrix';

export interface Type3Glyphs {
  /** FontMatrix: glyph space → text space. */
  matrix: Matrix;
  /** Glyph procedure per code (through the Encoding's Differences). */
  procs: (PDFStream | undefined)[];
  /** The CharProcs dictionary: every glyph procedure, whether a code reaches it or not (text-show.ts runEveryGlyph). */
  charProcs: PDFDict | undefined;
  resources: PDFDict | undefined;
}

export interface FontMetrics {
  dict: PDFDict;
  /** The name preflight shows (describeFont: BaseFont without subset prefix). */
  name: string;
  kind: 'simple' | 'cid' | 'type3';
  /** Simple and Type 3 fonts: advance per code (256 entries). */
  widths: Float64Array;
  /** Type0: how codes are read. */
  codeSpace: CodeSpace;
  /** Type0: code → CID when the encoding is not Identity; null for identity. */
  cmap: EmbeddedCMap | null;
  /** Type0 with a predefined non-identity CMap: codes are not CIDs and we cannot map them, so every glyph gets DW. */
  cidsUnknown: boolean;
  cidWidths: Map<number, number>;
  defaultWidth: number;
  vertical: boolean;
  /** Vertical fonts: the vertical advance (w1y, negative: down). */
  verticalAdvance: number;
  ascent: number;
  descent: number;
  /** Type 3 fonts: the em relative to 1000 glyph units (FontMatrix d × 1000), to report a comparable size. */
  sizeFactor: number;
  type3: Type3Glyphs | null;
}

const HALF_EM = 0.5;
const MAX_CID_WIDTHS = 65536;
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

export function fontMetrics(context: PDFContext, dict: PDFDict): FontMetrics {
  const subtype = getName(dict, 'Subtype');
  const base: FontMetrics = {
    dict,
    name: describeFont(context, dict).name,
    kind: 'simple',
    widths: new Float64Array(256),
    codeSpace: TWO_BYTES,
    cmap: null,
    cidsUnknown: false,
    cidWidths: new Map(),
    defaultWidth: 1,
    vertical: false,
    verticalAdvance: -1,
    ascent: DEFAULT_ASCENT,
    descent: DEFAULT_DESCENT,
    sizeFactor: 1,
    type3: null,
  };
  if (subtype === 'Type0') return cidFont(context, dict, base);
  if (subtype === 'Type3') return type3Font(context, dict, base);
  return simpleFont(context, dict, base);
}

function simpleFont(context: PDFContext, dict: PDFDict, m: FontMetrics): FontMetrics {
  const descriptor = getDict(dict, 'FontDescriptor');
  const standard = standardFont(getName(dict, 'BaseFont'));
  const afm = standard ? loadAfm(standard) : null;
  if (afm && !descriptor) {
    // The standard 14 are usually written without a descriptor: their AFM says how tall they are.
    if (typeof afm.Ascender === 'number') m.ascent = afm.Ascender / 1000;
    if (typeof afm.Descender === 'number') m.descent = afm.Descender / 1000;
  }
  readAscentDescent(m, descriptor, 0.001);
  const widths = numbersOf(getArray(dict, 'Widths'));
  if (widths && widths.length > 0) {
    const first = getNumber(dict, 'FirstChar') ?? 0;
    const missing = (getNumber(descriptor, 'MissingWidth') ?? 0) / 1000;
    m.widths.fill(missing);
    for (let i = 0; i < widths.length; i++) {
      const code = first + i;
      if (code >= 0 && code < 256 && Number.isFinite(widths[i])) m.widths[code] = widths[i]! / 1000;
    }
    return m;
  }
  if (!afm || !standard) {
    m.widths.fill(HALF_EM);
    return m;
  }
  const names = glyphNames(context, dict, standard);
  for (let code = 0; code < 256; code++) {
    const glyph = names[code];
    const w = glyph ? afm.getWidthOfGlyph(glyph) : undefined;
    m.widths[code] = typeof w === 'number' ? w / 1000 : HALF_EM;
  }
  return m;
}

function cidFont(context: PDFContext, dict: PDFDict, m: FontMetrics): FontMetrics {
  m.kind = 'cid';
  const encoding = resolve(context, dict.get(name('Encoding')));
  if (encoding instanceof PDFName) {
    const cmapName = encoding.decodeText();
    m.codeSpace = predefinedCodeSpace(cmapName);
    m.vertical = /-V$/.test(cmapName);
    m.cidsUnknown = !/^Identity-[HV]$/.test(cmapName);
  } else if (encoding instanceof PDFStream) {
    const program = streamBytes(encoding);
    if (program) {
      m.cmap = parseEmbeddedCMap(program);
      m.codeSpace = m.cmap.space;
      m.vertical = m.cmap.vertical || getNumber(encoding.dict, 'WMode') === 1;
      if (m.cmap.cids !== null && m.cmap.cids.size === 0 && m.cmap.ranges.length === 0 && m.cmap.uses) m.cidsUnknown = true;
    }
  }
  const descendant = resolve(context, getArray(dict, 'DescendantFonts')?.get(0));
  if (!(descendant instanceof PDFDict)) return m;
  readAscentDescent(m, getDict(descendant, 'FontDescriptor'), 0.001);
  m.defaultWidth = (getNumber(descendant, 'DW') ?? 1000) / 1000;
  const dw2 = numbersOf(getArray(descendant, 'DW2'));
  if (dw2 && dw2.length >= 2 && Number.isFinite(dw2[1])) m.verticalAdvance = dw2[1]! / 1000;
  for (const [cid, width] of readCidWidths(getArray(descendant, 'W'), MAX_CID_WIDTHS)) m.cidWidths.set(cid, width / 1000);
  return m;
}

function type3Font(context: PDFContext, dict: PDFDict, m: FontMetrics): FontMetrics {
  m.kind = 'type3';
  const matrix = matrixFrom(numbersOf(getArray(dict, 'FontMatrix'))) ?? [0.001, 0, 0, 0.001, 0, 0];
  const widths = numbersOf(getArray(dict, 'Widths')) ?? [];
  const first = getNumber(dict, 'FirstChar') ?? 0;
  for (let i = 0; i < widths.length; i++) {
    const code = first + i;
    if (code >= 0 && code < 256 && Number.isFinite(widths[i])) m.widths[code] = widths[i]! * matrix[0];
  }
  m.sizeFactor = Math.abs(matrix[3]) * 1000 || 1;
  const bbox = numbersOf(getArray(dict, 'FontBBox'));
  if (bbox && bbox.length === 4 && bbox.every(Number.isFinite) && bbox[3] !== bbox[1]) {
    const y0 = Math.min(bbox[1]!, bbox[3]!) * matrix[3];
    const y1 = Math.max(bbox[1]!, bbox[3]!) * matrix[3];
    m.descent = Math.min(y0, y1);
    m.ascent = Math.max(y0, y1);
  }
  const charProcs = getDict(dict, 'CharProcs');
  const names = differences(context, dict);
  const procs: (PDFStream | undefined)[] = new Array(256);
  for (let code = 0; code < 256; code++) {
    const glyph = names[code];
    if (!glyph || !charProcs) continue;
    const proc = charProcs.lookup(name(glyph));
    if (proc instanceof PDFStream) procs[code] = proc;
  }
  m.type3 = { matrix, procs, charProcs, resources: getDict(dict, 'Resources') };
  return m;
}

function readAscentDescent(m: FontMetrics, descriptor: PDFDict | undefined, scale: number): void {
  const ascent = getNumber(descriptor, 'Ascent');
  const descent = getNumber(descriptor, 'Descent');
  if (ascent && ascent > 0) m.ascent = ascent * scale;
  if (descent && descent < 0) m.descent = descent * scale;
}

/** Glyph names per code from an Encoding dictionary's Differences (Type 3 and standard fonts; validation's font model). */
export function differences(context: PDFContext, dict: PDFDict): (string | undefined)[] {
  const out: (string | undefined)[] = new Array(256);
  const enc = resolve(context, dict.get(name('Encoding')));
  const diffs = enc instanceof PDFDict ? getArray(enc, 'Differences') : undefined;
  if (!diffs) return out;
  let code = 0;
  for (let i = 0; i < diffs.size(); i++) {
    const v = diffs.lookup(i);
    if (v instanceof PDFNumber) code = v.asNumber();
    else if (v instanceof PDFName) {
      if (code >= 0 && code < 256) out[code] = v.decodeText();
      code++;
    }
  }
  return out;
}

// ---------------------------------------------------------------- standard 14

const STANDARD = new Set<string>([
  'Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique',
  'Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique',
  'Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic', 'Symbol', 'ZapfDingbats',
]);

/** The standard font a BaseFont names, including the usual aliases (Arial → Helvetica, as readers substitute). */
function standardFont(baseFont: string | undefined): string | null {
  if (!baseFont) return null;
  const n = baseFont.replace(/^[A-Z]{6}\+/, '');
  if (STANDARD.has(n)) return n;
  const bold = /bold/i.test(n);
  const italic = /italic|oblique/i.test(n);
  if (/^(Arial|Helvetica)/i.test(n)) return `Helvetica${bold || italic ? `-${bold ? 'Bold' : ''}${italic ? 'Oblique' : ''}` : ''}`;
  if (/^Times/i.test(n)) return bold || italic ? `Times-${bold ? 'Bold' : ''}${italic ? 'Italic' : ''}` : 'Times-Roman';
  if (/^Courier/i.test(n)) return `Courier${bold || italic ? `-${bold ? 'Bold' : ''}${italic ? 'Oblique' : ''}` : ''}`;
  return null;
}

const afmCache = new Map<string, Font>();
function loadAfm(font: string): Font {
  let afm = afmCache.get(font);
  if (!afm) {
    afm = Font.load(font as IFontNames);
    afmCache.set(font, afm);
  }
  return afm;
}

const encodingTables = new Map<string, (string | undefined)[]>();
/** Code → glyph name of pdf-lib's WinAnsi, Symbol and ZapfDingbats encodings. */
function encodingTable(which: 'WinAnsi' | 'Symbol' | 'ZapfDingbats'): (string | undefined)[] {
  let table = encodingTables.get(which);
  if (!table) {
    table = new Array(256);
    const enc = Encodings[which];
    for (const cp of enc.supportedCodePoints) {
      const { code, name: glyph } = enc.encodeUnicodeCodePoint(cp);
      if (code >= 0 && code < 256 && table[code] === undefined) table[code] = glyph;
    }
    encodingTables.set(which, table);
  }
  return table;
}

/**
 * Glyph names per code for a standard font: its built-in encoding (Standard
 * and WinAnsi agree on the printable ASCII that matters for widths), then the
 * Differences.
 */
function glyphNames(context: PDFContext, dict: PDFDict, standard: string): (string | undefined)[] {
  const builtIn = standard === 'Symbol' || standard === 'ZapfDingbats' ? encodingTable(standard) : encodingTable('WinAnsi');
  const diffs = differences(context, dict);
  const out = builtIn.slice();
  for (let code = 0; code < 256; code++) if (diffs[code]) out[code] = diffs[code];
  return out;
}
