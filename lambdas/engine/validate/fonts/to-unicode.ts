/**
 * ToUnicode CMaps (ISO 32000-1 9.10.3): code → Unicode text from bfchar and
 * bfrange sections, and what other mechanisms (9.10.2) give a code its
 * Unicode value when a font has no ToUnicode entry, or its ToUnicode leaves a
 * code out.
 */
import { PDFName, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { operations, type Operand } from '../../core/content-lexer';
import { getDict, getNumber, getText, name, resolve, streamBytes } from '../../core/pdf-objects';

const CJK = ['Adobe-GB1', 'Adobe-CNS1', 'Adobe-Japan1', 'Adobe-Korea1'];
import { predefinedOrdering } from './clauses';
import { unicodeOfName, type FontFacts } from './font-model';
import { ZAPF_DINGBATS } from './font-tables';

/** Code → UTF-16 text. Bounded: ranges wider than a 16-bit space are clipped. */
export function parseToUnicode(program: Uint8Array): Map<number, string> {
  const out = new Map<number, string>();
  const bytesOf = (o: Operand | undefined): Uint8Array | null => (typeof o === 'object' && o !== null && 'bytes' in o ? o.bytes : null);
  const num = (b: Uint8Array): number => {
    let v = 0;
    for (const x of b) v = v * 256 + x;
    return v;
  };
  const utf16 = (b: Uint8Array): string => {
    let s = '';
    for (let i = 0; i + 1 < b.length; i += 2) s += String.fromCharCode((b[i]! << 8) | b[i + 1]!);
    if (b.length % 2 === 1) s += String.fromCharCode(b[b.length - 1]!);
    return s;
  };
  for (const { op, operands } of operations(program)) {
    if (op === 'endbfchar') {
      for (let i = 0; i + 1 < operands.length; i += 2) {
        const src = bytesOf(operands[i]);
        const dst = bytesOf(operands[i + 1]);
        if (src && dst) out.set(num(src), utf16(dst));
        else if (src && typeof operands[i + 1] === 'object' && operands[i + 1] !== null && 'name' in (operands[i + 1] as object)) {
          const u = unicodeOfName((operands[i + 1] as { name: string }).name);
          if (u !== undefined) out.set(num(src), String.fromCodePoint(u));
        }
      }
    } else if (op === 'endbfrange') {
      for (let i = 0; i + 2 < operands.length; i += 3) {
        const lo = bytesOf(operands[i]);
        const hi = bytesOf(operands[i + 1]);
        if (!lo || !hi) continue;
        const a = num(lo);
        const b = Math.min(num(hi), a + 0xffff);
        const dst = operands[i + 2];
        if (Array.isArray(dst)) {
          for (let c = a; c <= b && c - a < dst.length; c++) {
            const d = bytesOf(dst[c - a]);
            if (d) out.set(c, utf16(d));
          }
        } else {
          const d = bytesOf(dst);
          if (!d || d.length === 0) continue;
          for (let c = a; c <= b; c++) {
            // The last byte of the destination increments through the range.
            const v = d.slice();
            v[v.length - 1] = (v[v.length - 1]! + (c - a)) & 0xff;
            out.set(c, utf16(v));
          }
        }
      }
    }
  }
  return out;
}

export interface UnicodeSource {
  /** Text the ToUnicode CMap gives a code (undefined when absent). */
  toUnicode(code: number): string | undefined;
  /** A Unicode value can be found for the code by some mechanism of ISO 32000-1 9.10.2. */
  mapped(code: number, anySupplement?: boolean): boolean;
}

/** How a font's codes map to Unicode. */
export function unicodeSource(ctx: PDFContext, f: FontFacts): UnicodeSource {
  const tu = resolve(ctx, f.dict.get(name('ToUnicode')));
  let map: Map<number, string> | null = null;
  if (tu instanceof PDFStream) {
    const b = streamBytes(tu);
    map = b ? parseToUnicode(b) : new Map();
  }
  // A ToUnicode naming a predefined Identity mapping (Identity-H) is not a CMap that maps to Unicode.
  const type = f.info.type;
  const enc = resolve(ctx, f.dict.get(name('Encoding')));
  const cidOrdering = f.info.cidOrdering;
  // ISO 32000-1 9.10.2 b: a predefined CMap, or a CIDFont of one of Adobe's CJK collections, maps through that collection's Unicode
  // CMap. With an embedded CMap, its own CIDSystemInfo must name the same collection, at least at the CIDFont's supplement (the
  // case of a Japan1-3 CIDFont whose CMap only covers Japan1-2).
  const collection = cidOrdering !== null && CJK.includes(cidOrdering);
  // PDF/A-1 does not compare supplements (its 6.3.3.1 asks only for the same Registry and Ordering).
  let fromCollection = false;
  let fromCollectionAnySupplement = false;
  if (type === 'Type0') {
    if (enc instanceof PDFName) fromCollection = fromCollectionAnySupplement = predefinedOrdering(enc.decodeText()) !== null || collection;
    else if (enc instanceof PDFStream && collection) {
      const own = getDict(enc.dict, 'CIDSystemInfo');
      const fontInfo = getDict(f.descendant, 'CIDSystemInfo');
      fromCollectionAnySupplement = `${getText(own, 'Registry')}-${getText(own, 'Ordering')}` === cidOrdering;
      fromCollection = fromCollectionAnySupplement && (getNumber(fontInfo, 'Supplement') ?? 0) <= (getNumber(own, 'Supplement') ?? -1);
    }
  }
  const base = f.info.baseFont?.replace(/^[A-Z]{6}\+/, '');
  const dingbats = base === 'ZapfDingbats' && type === 'Type1';
  return {
    toUnicode: (code) => map?.get(code),
    mapped(code, anySupplement = false) {
      if (map?.has(code)) return true;
      if (anySupplement ? fromCollectionAnySupplement : fromCollection) return true;
      if (type === 'Type0') return false;
      // A TrueType font without Encoding picks glyphs through its own cmap: no glyph name, so no standard mapping (9.10.2 a).
      if (type === 'TrueType' && enc === undefined) return false;
      const g = f.glyph(code);
      if (g.name === undefined) return false;
      if (dingbats && ZAPF_DINGBATS.includes(g.name)) return true;
      return unicodeOfName(g.name) !== undefined;
    },
  };
}
