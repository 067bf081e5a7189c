/**
 * The bounded font program readers the font rules rely on: TrueType (the
 * Liberation Sans shipped by pdfjs-dist), CFF and Type 1 (built here, byte by
 * byte, so the widths they carry are known).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCff } from '../../../../../lambdas/engine/validate/fonts/cff';
import { readTrueType } from '../../../../../lambdas/engine/validate/fonts/truetype';
import { readType1 } from '../../../../../lambdas/engine/validate/fonts/type1';
import { parseToUnicode } from '../../../../../lambdas/engine/validate/fonts/to-unicode';
import { EMBEDDABLE_TTF_PATH } from '../../../../support/pdf-fixtures';

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

/** Type 1 encryption (Adobe Type 1 Font Format 7.2): the inverse of what readers undo. */
function encrypt(plain: Uint8Array, key: number, lead: number): Uint8Array {
  let r = key;
  const data = concat(new Uint8Array(lead), plain);
  const out = new Uint8Array(data.length);
  data.forEach((p, i) => {
    const c = p ^ (r >> 8);
    r = ((c + r) * 52845 + 22719) & 0xffff;
    out[i] = c;
  });
  return out;
}

/** A Type 1 charstring number (values -107..107 fit in one byte). */
const t1num = (n: number) => (n >= -107 && n <= 107 ? [n + 139] : n >= 108 && n <= 1131 ? [Math.floor((n - 108) / 256) + 247, (n - 108) % 256] : [255, (n >> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255]);

describe('TrueType reader', () => {
  const tt = readTrueType(readFileSync(EMBEDDABLE_TTF_PATH))!;
  it('reads units per em, glyph count, cmap subtables and advances', () => {
    expect(tt.unitsPerEm).toBe(2048);
    expect(tt.glyphCount).toBeGreaterThan(200);
    const unicode = tt.cmaps.find((c) => c.platform === 3 && c.encoding === 1)!;
    const h = unicode.lookup(0x48)!;
    expect(h).toBeGreaterThan(0);
    // Helvetica's H is 722 units of 1000; Liberation Sans matches it.
    expect(Math.round((tt.advance(h)! * 1000) / tt.unitsPerEm)).toBe(722);
    expect(unicode.lookup(0xe8ff)).toBeUndefined();
  });
  it('reads nothing from bytes that are not a font, without throwing', () => {
    expect(readTrueType(latin1('not a font at all'))).toBeNull();
  });
});

describe('Type 1 reader', () => {
  it('decrypts the eexec part and reads each glyph width from hsbw', () => {
    const cs = (width: number) => encrypt(Uint8Array.from([...t1num(0), ...t1num(width), 13, 14]), 4330, 4);
    const a = cs(556);
    const b = cs(278);
    const priv = concat(latin1(`dup /Private 8 dict dup begin /lenIV 4 def end\n/CharStrings 2 dict dup begin\n/a ${a.length} RD `), a, latin1(` ND\n/b ${b.length} RD `), b, latin1(' ND\nend\n'));
    const clear = latin1('%!PS-AdobeFont-1.0: Test\n/FontMatrix [0.001 0 0 0.001 0 0] readonly def\n/Encoding 256 array\ndup 97 /a put\ndup 98 /b put\nreadonly def\ncurrentfile eexec\n');
    const font = readType1(concat(clear, encrypt(priv, 55665, 4)), clear.length)!;
    expect(font.widths.get('a')).toBeCloseTo(556);
    expect(font.widths.get('b')).toBeCloseTo(278);
    expect(font.encoding[97]).toBe('a');
  });
});

describe('CFF reader', () => {
  /** A name-keyed CFF with .notdef and two glyphs: `A` (width given in its charstring) and `space` (default width). */
  function cff(): Uint8Array {
    const index = (items: Uint8Array[]) => {
      if (items.length === 0) return Uint8Array.from([0, 0]);
      const offsets = [1];
      for (const it of items) offsets.push(offsets[offsets.length - 1]! + it.length);
      return concat(Uint8Array.from([0, items.length, 2]), Uint8Array.from(offsets.flatMap((o) => [o >> 8, o & 255])), ...items);
    };
    const int16 = (n: number) => [28, (n >> 8) & 255, n & 255];
    // charstrings: .notdef = endchar; A = (700 - nominal 500) 0 0 rmoveto endchar; space = 0 0 rmoveto endchar (default 250)
    const charStrings = index([Uint8Array.from([14]), Uint8Array.from([...int16(200), 139, 139, 21, 14]), Uint8Array.from([139, 139, 21, 14])]);
    const privateDict = Uint8Array.from([...int16(250), 20, ...int16(500), 21]);
    const header = Uint8Array.from([1, 0, 4, 2]);
    const names = index([latin1('Test')]);
    const strings = index([]);
    const gsubrs = index([]);
    // Top DICT with fixed-size operands so its length is known before the offsets are.
    const topLength = (offsets: number[]) => Uint8Array.from([...int16(offsets[0]!), 15, ...int16(offsets[1]!), 17, ...int16(privateDict.length), ...int16(offsets[2]!), 18]);
    const topSize = index([topLength([0, 0, 0])]).length;
    const charsetAt = header.length + names.length + topSize + strings.length + gsubrs.length;
    const charset = Uint8Array.from([0, 0, 34, 0, 1]); // format 0: A (SID 34), space (SID 1)
    const charStringsAt = charsetAt + charset.length;
    const privateAt = charStringsAt + charStrings.length;
    const top = index([topLength([charsetAt, charStringsAt, privateAt])]);
    return concat(header, names, top, strings, gsubrs, charset, charStrings, privateDict);
  }
  it('reads glyph names from the charset and widths from the charstrings', () => {
    const font = readCff(cff())!;
    expect([...font.names.keys()]).toEqual(['.notdef', 'A', 'space']);
    expect(font.width(font.names.get('A')!)).toBeCloseTo(700);
    expect(font.width(font.names.get('space')!)).toBeCloseTo(250);
  });
  it('reads nothing from bytes that are not CFF, without throwing', () => {
    expect(readCff(latin1('garbage'))).toBeNull();
  });
});

describe('ToUnicode parsing', () => {
  it('reads bfchar and bfrange entries, including ranges with arrays of destinations', () => {
    const map = parseToUnicode(latin1('2 beginbfchar <01> <0041> <02> <D835DC00> endbfchar 2 beginbfrange <10> <12> <0061> <20> <21> [<0078> <0079>] endbfrange'));
    expect(map.get(1)).toBe('A');
    expect(map.get(2)).toBe('\u{1D400}');
    expect([map.get(0x10), map.get(0x11), map.get(0x12)]).toEqual(['a', 'b', 'c']);
    expect([map.get(0x20), map.get(0x21)]).toEqual(['x', 'y']);
  });
});
