/**
 * Resources for content fixtures: colour spaces (Separation, DeviceN, ICCBased,
 * Indexed, Lab, Cal*, Pattern), fonts (standard 14, TrueType, Type0, Type 3),
 * shadings, tiling and shading patterns, and soft masks. Each helper returns a
 * spec that content-fixtures.ts turns into PDF objects.
 */
import { readFileSync } from 'node:fs';
import { getDefaultSRGBProfile, PDFName } from '@cantoo/pdf-lib';
import { Encodings, Font } from '@cantoo/pdf-lib/standard-fonts';
import { colourSpace, stream, tagged, type ColourSpaceSpec, type FontSpec, type FormSpec, type PatternSpec, type ResourcesSpec, type ShadingSpec, type SoftMaskSpec, type Value } from './content-fixture-builder';
import { EMBEDDABLE_TTF_PATH, type Rect } from './pdf-fixtures';

// ------------------------------------------------------------------ colour spaces

/** A Separation space; the tint transform maps tint t to `alternateAtFull` × t (a Type 2 function). */
export function separation(colorant: string, alternate: 'DeviceCMYK' | 'DeviceRGB' | 'DeviceGray' = 'DeviceCMYK', alternateAtFull?: number[]): ColourSpaceSpec {
  const full = alternateAtFull ?? (alternate === 'DeviceCMYK' ? [0, 0.6, 1, 0] : alternate === 'DeviceRGB' ? [1, 0.4, 0] : [0]);
  return colourSpace(1, (b) => b.value(['/Separation', `/${colorant}`, `/${alternate}`, { FunctionType: 2, Domain: [0, 1], C0: full.map(() => 0), C1: full, N: 1 }]));
}

/** A DeviceN space over the named colorants, with a placeholder PostScript tint transform. */
export function deviceN(colorants: string[], alternate: 'DeviceCMYK' | 'DeviceRGB' | 'DeviceGray' = 'DeviceCMYK', attributes?: Record<string, Value>): ColourSpaceSpec {
  const outputs = alternate === 'DeviceCMYK' ? 4 : alternate === 'DeviceRGB' ? 3 : 1;
  return colourSpace(colorants.length, (b) => {
    const fn = stream({
      dict: { FunctionType: 4, Domain: colorants.flatMap(() => [0, 1]), Range: new Array(outputs).fill([0, 1]).flat() },
      data: `{ ${'pop '.repeat(colorants.length)}${'0 '.repeat(outputs)}}`,
      compress: false,
    });
    const arr: Value[] = ['/DeviceN', colorants.map((c) => `/${c}`), `/${alternate}`, fn];
    if (attributes) arr.push(attributes);
    return b.value(arr);
  });
}

/**
 * An ICCBased space with N components. N = 3 embeds pdf-lib's sRGB profile; other N
 * write a 128-byte profile header naming the data colour space (GRAY or CMYK):
 * enough for readers of the header, not a usable profile.
 */
export function iccBased(n: 1 | 3 | 4, alternate?: string): ColourSpaceSpec {
  return colourSpace(n, (b) => {
    const data = n === 3 ? getDefaultSRGBProfile() : iccHeader(n === 1 ? 'GRAY' : 'CMYK');
    const dict: Record<string, Value> = { N: n };
    if (alternate) dict['Alternate'] = `/${alternate}`;
    return b.value(['/ICCBased', stream({ dict, data })]);
  });
}

function iccHeader(space: 'GRAY' | 'CMYK'): Uint8Array {
  const h = new Uint8Array(128);
  const put = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) h[at + i] = text.charCodeAt(i);
  };
  new DataView(h.buffer).setUint32(0, 128);
  put(12, 'prtr');
  put(16, space === 'GRAY' ? 'GRAY' : 'CMYK');
  put(20, 'Lab ');
  put(36, 'acsp');
  return h;
}

/** An Indexed space over a base with a lookup table (hival + 1 entries of the base's components, 0–255). */
export function indexed(base: ColourSpaceSpec | string, lookup: number[][]): ColourSpaceSpec {
  return colourSpace(1, (b) => b.value(['/Indexed', typeof base === 'string' ? `/${base}` : base, lookup.length - 1, new Uint8Array(lookup.flat())]));
}

export const lab = (): ColourSpaceSpec => colourSpace(3, (b) => b.value(['/Lab', { WhitePoint: [0.9505, 1, 1.089], Range: [-100, 100, -100, 100] }]));
export const calRGB = (): ColourSpaceSpec => colourSpace(3, (b) => b.value(['/CalRGB', { WhitePoint: [0.9505, 1, 1.089] }]));
export const calGray = (): ColourSpaceSpec => colourSpace(1, (b) => b.value(['/CalGray', { WhitePoint: [0.9505, 1, 1.089] }]));
/** A Pattern space; with an underlying space for uncoloured tiling patterns. */
export const patternSpace = (underlying?: ColourSpaceSpec | string): ColourSpaceSpec =>
  colourSpace(0, (b) => (underlying ? b.value(['/Pattern', typeof underlying === 'string' ? `/${underlying}` : underlying]) : PDFName.of('Pattern')));

// ------------------------------------------------------------------ fonts

/** One of the standard 14 fonts, not embedded, WinAnsi; with Widths unless `withoutWidths`. */
export function standardFont(baseFont: string, options: { withoutWidths?: boolean } = {}): FontSpec {
  return tagged('font', (b) => {
    const dict: Record<string, Value> = { Type: '/Font', Subtype: '/Type1', BaseFont: `/${baseFont}`, Encoding: '/WinAnsiEncoding' };
    if (!options.withoutWidths && baseFont !== 'Symbol' && baseFont !== 'ZapfDingbats') {
      dict['FirstChar'] = 32;
      dict['LastChar'] = 255;
      dict['Widths'] = winAnsiWidths(baseFont, 32, 255);
    }
    return b.value(dict);
  });
}

/** A simple TrueType font named like Liberation Sans (Helvetica's widths); `embedded` adds the program (FontFile2). */
export function trueTypeFont(options: { embedded?: boolean; baseFont?: string; widths?: number[]; firstChar?: number } = {}): FontSpec {
  return tagged('font', (b) => {
    const name = options.baseFont ?? (options.embedded ? 'ABCDEF+LiberationSans' : 'LiberationSans');
    const first = options.firstChar ?? 32;
    const widths = options.widths ?? winAnsiWidths('Helvetica', first, 255);
    return b.value({
      Type: '/Font',
      Subtype: '/TrueType',
      BaseFont: `/${name}`,
      FirstChar: first,
      LastChar: first + widths.length - 1,
      Widths: widths,
      Encoding: '/WinAnsiEncoding',
      FontDescriptor: b.ref(b.value(fontDescriptor(name, options.embedded ? { FontFile2: stream({ dict: {}, data: readFileSync(EMBEDDABLE_TTF_PATH) }) } : {}))),
    });
  });
}

/**
 * A Type0 font with a CIDFontType2 descendant. `encoding` is a CMap name
 * (default Identity-H) or an embedded CMap program; `w` the descendant's W
 * array and `dw` its DW.
 */
export function type0Font(options: { encoding?: string | { cmap: string }; w?: Value[]; dw?: number; embedded?: boolean; baseFont?: string } = {}): FontSpec {
  return tagged('font', (b) => {
    const name = options.baseFont ?? (options.embedded ? 'GHIJKL+LiberationSans' : 'LiberationSans');
    const descendant: Record<string, Value> = {
      Type: '/Font',
      Subtype: '/CIDFontType2',
      BaseFont: `/${name}`,
      CIDSystemInfo: { Registry: 'Adobe', Ordering: 'Identity', Supplement: 0 },
      FontDescriptor: b.ref(b.value(fontDescriptor(name, options.embedded ? { FontFile2: stream({ dict: {}, data: readFileSync(EMBEDDABLE_TTF_PATH) }) } : {}))),
      CIDToGIDMap: '/Identity',
    };
    if (options.dw !== undefined) descendant['DW'] = options.dw;
    if (options.w) descendant['W'] = options.w;
    const enc = options.encoding ?? 'Identity-H';
    return b.value({
      Type: '/Font',
      Subtype: '/Type0',
      BaseFont: `/${name}`,
      Encoding: typeof enc === 'string' ? `/${enc}` : stream({ dict: { Type: '/CMap' }, data: enc.cmap }),
      DescendantFonts: [b.ref(b.value(descendant))],
    });
  });
}

/**
 * A Type 3 font: each glyph is a code, a width (glyph units) and a content
 * stream (starting with `w 0 d0` or `w 0 … d1`). FontMatrix defaults to
 * [0.001 0 0 0.001 0 0].
 */
export function type3Font(options: {
  glyphs: Record<string, { code: number; width: number; content: string }>;
  fontMatrix?: [number, number, number, number, number, number];
  fontBBox?: Rect;
  resources?: ResourcesSpec;
}): FontSpec {
  return tagged('font', (b) => {
    const glyphs = Object.entries(options.glyphs);
    const codes = glyphs.map(([, g]) => g.code);
    const first = Math.min(...codes);
    const last = Math.max(...codes);
    const widths = new Array<number>(last - first + 1).fill(0);
    const differences: Value[] = [];
    const procs: Record<string, Value> = {};
    for (const [name, g] of glyphs) {
      widths[g.code - first] = g.width;
      differences.push(g.code, `/${name}`);
      procs[name] = stream({ dict: {}, data: g.content });
    }
    const dict: Record<string, Value> = {
      Type: '/Font',
      Subtype: '/Type3',
      FontBBox: options.fontBBox ?? [0, 0, 1000, 1000],
      FontMatrix: options.fontMatrix ?? [0.001, 0, 0, 0.001, 0, 0],
      CharProcs: procs,
      Encoding: { Type: '/Encoding', Differences: differences },
      FirstChar: first,
      LastChar: last,
      Widths: widths,
    };
    if (options.resources) dict['Resources'] = b.resources(options.resources);
    return b.value(dict);
  });
}

function fontDescriptor(name: string, extra: Record<string, Value>): Record<string, Value> {
  return {
    Type: '/FontDescriptor',
    FontName: `/${name}`,
    Flags: 32,
    FontBBox: [-203, -303, 1050, 910],
    ItalicAngle: 0,
    Ascent: 905,
    Descent: -212,
    CapHeight: 729,
    StemV: 80,
    ...extra,
  };
}

/** Widths of a standard font for WinAnsi codes first–last (its AFM metrics, as pdf-lib ships them). */
export function winAnsiWidths(baseFont: string, first: number, last: number): number[] {
  const afm = Font.load(baseFont as never);
  const names = new Map<number, string>();
  for (const cp of Encodings.WinAnsi.supportedCodePoints) {
    const { code, name } = Encodings.WinAnsi.encodeUnicodeCodePoint(cp);
    if (!names.has(code)) names.set(code, name);
  }
  const out: number[] = [];
  for (let c = first; c <= last; c++) {
    const glyph = names.get(c);
    const w = glyph ? afm.getWidthOfGlyph(glyph) : undefined;
    out.push(typeof w === 'number' ? w : 0);
  }
  return out;
}

// ------------------------------------------------------------------ patterns, shadings, soft masks

/** An axial shading between two colours of a space (a Type 2 function). */
export function axialShading(options: { colourSpace: ColourSpaceSpec | string; c0: number[]; c1: number[]; coords?: [number, number, number, number]; bbox?: Rect }): ShadingSpec {
  return tagged('shading', (b) => {
    const dict: Record<string, Value> = {
      ShadingType: 2,
      ColorSpace: typeof options.colourSpace === 'string' ? `/${options.colourSpace}` : options.colourSpace,
      Coords: options.coords ?? [0, 0, 100, 0],
      Function: { FunctionType: 2, Domain: [0, 1], C0: options.c0, C1: options.c1, N: 1 },
      Extend: [true, true],
    };
    if (options.bbox) dict['BBox'] = options.bbox;
    return b.value(dict);
  });
}

/** A tiling pattern whose cell is a content stream (PaintType 1 coloured, 2 uncoloured). */
export function tilingPattern(options: {
  content: string;
  resources?: ResourcesSpec;
  bbox?: Rect;
  step?: [number, number];
  matrix?: [number, number, number, number, number, number];
  paintType?: 1 | 2;
}): PatternSpec {
  return tagged('pattern', (b) => {
    const bbox = options.bbox ?? [0, 0, 10, 10];
    const dict: Record<string, Value> = {
      Type: '/Pattern',
      PatternType: 1,
      PaintType: options.paintType ?? 1,
      TilingType: 1,
      BBox: bbox,
      XStep: options.step?.[0] ?? bbox[2] - bbox[0],
      YStep: options.step?.[1] ?? bbox[3] - bbox[1],
      Resources: b.resources(options.resources ?? {}),
    };
    if (options.matrix) dict['Matrix'] = options.matrix;
    return b.stream(dict, options.content);
  });
}

export function shadingPattern(shading: ShadingSpec, matrix?: [number, number, number, number, number, number]): PatternSpec {
  return tagged('pattern', (b) => {
    const dict: Record<string, Value> = { Type: '/Pattern', PatternType: 2, Shading: shading };
    if (matrix) dict['Matrix'] = matrix;
    return b.value(dict);
  });
}

/** A soft mask dictionary for an ExtGState's /SMask: its group form is painted as the mask. */
export function softMask(group: FormSpec, subtype: 'Luminosity' | 'Alpha' = 'Luminosity'): SoftMaskSpec {
  return tagged('soft-mask', (b) => b.value({ Type: '/Mask', S: `/${subtype}`, G: { ...group, group: group.group ?? { CS: '/DeviceGray' } } as FormSpec }));
}
