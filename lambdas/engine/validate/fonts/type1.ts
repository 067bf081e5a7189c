/**
 * A small, bounded Type 1 font program reader (Adobe Type 1 Font Format):
 * the clear-text part gives the FontMatrix and built-in Encoding; the eexec
 * part (decrypted with key 55665, binary or hex) holds the CharStrings, each
 * encrypted again (key 4330, lenIV leading bytes) and starting with hsbw or
 * sbw, whose operands carry the advance width.
 */
import { STANDARD } from './font-tables';

export interface Type1Font {
  /** Glyph name → advance width in 1000-unit text space (undefined when its charstring does not say). */
  widths: Map<string, number | undefined>;
  encoding: (string | undefined)[];
}

const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
};

function decrypt(data: Uint8Array, key: number, skip: number): Uint8Array {
  let r = key;
  const out = new Uint8Array(Math.max(0, data.length - skip));
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    const p = c ^ (r >> 8);
    r = ((c + r) * 52845 + 22719) & 0xffff;
    if (i >= skip) out[i - skip] = p;
  }
  return out;
}

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

export function readType1(bytes: Uint8Array, length1: number | undefined): Type1Font | null {
  // PFB segment headers (0x80 0x01) are sometimes left in.
  let b = bytes;
  if (b[0] === 0x80 && b[1] === 0x01) b = stripPfb(b);
  const text = latin1(b.subarray(0, Math.min(b.length, 1 << 20)));
  let clearEnd = length1 !== undefined && length1 > 0 && length1 <= b.length ? length1 : -1;
  const eexec = text.indexOf('eexec');
  if (eexec < 0) return null;
  if (clearEnd < 0 || Math.abs(clearEnd - eexec) > 64) clearEnd = eexec + 5;
  while (clearEnd < b.length && (b[clearEnd] === 0x0d || b[clearEnd] === 0x0a || b[clearEnd] === 0x20 || b[clearEnd] === 0x09)) clearEnd++;
  const clear = text.slice(0, clearEnd);
  let enc = b.subarray(clearEnd);
  if (enc.length >= 4 && isHex(enc[0]!) && isHex(enc[1]!) && isHex(enc[2]!) && isHex(enc[3]!)) enc = fromHex(enc);
  const priv = decrypt(enc, 55665, 4);
  const ptext = latin1(priv);
  const scale = matrixScale(clear);
  const lenIVm = /\/lenIV\s+(-?\d+)/.exec(ptext);
  const lenIV = lenIVm ? Number(lenIVm[1]) : 4;
  const widths = new Map<string, number | undefined>();
  const cs = ptext.indexOf('/CharStrings');
  if (cs >= 0) {
    // `/name len RD <len bytes> ND`; RD and ND have other spellings (-| |-).
    const re = /\/([^\s/[\]{}()<>%]+)\s+(\d+)\s+(RD|-\|)\s/g;
    re.lastIndex = cs + 12;
    let m: RegExpExecArray | null;
    while ((m = re.exec(ptext))) {
      const len = Number(m[2]);
      const start = m.index + m[0].length;
      const data = priv.subarray(start, start + len);
      const plain = lenIV >= 0 ? decrypt(data, 4330, lenIV) : data;
      const w = type1Width(plain);
      widths.set(m[1]!, w === undefined ? undefined : w * scale * 1000);
      re.lastIndex = start + len;
      if (widths.size > 65536) break;
    }
  }
  return { widths, encoding: builtInEncoding(clear) };
}

function stripPfb(b: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let p = 0;
  while (p + 6 <= b.length && b[p] === 0x80 && (b[p + 1] === 1 || b[p + 1] === 2)) {
    const len = b[p + 2]! | (b[p + 3]! << 8) | (b[p + 4]! << 16) | (b[p + 5]! << 24);
    parts.push(b.subarray(p + 6, p + 6 + len));
    p += 6 + len;
  }
  const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of parts) {
    out.set(x, o);
    o += x.length;
  }
  return out;
}

function fromHex(b: Uint8Array): Uint8Array {
  const out: number[] = [];
  let hi = -1;
  for (const c of b) {
    if (!isHex(c)) continue;
    const v = c <= 57 ? c - 48 : (c | 0x20) - 87;
    if (hi < 0) hi = v;
    else {
      out.push((hi << 4) | v);
      hi = -1;
    }
  }
  return Uint8Array.from(out);
}

function matrixScale(clear: string): number {
  const m = /\/FontMatrix\s*[[{]\s*([-\d.eE]+)/.exec(clear);
  const v = m ? Number(m[1]) : NaN;
  return Number.isFinite(v) && v !== 0 ? Math.abs(v) : 0.001;
}

function builtInEncoding(clear: string): (string | undefined)[] {
  const out: (string | undefined)[] = new Array(256);
  if (/\/Encoding\s+StandardEncoding\s+def/.test(clear)) {
    STANDARD.forEach((n, c) => (out[c] = n || undefined));
    return out;
  }
  const re = /dup\s+(\d+)\s*\/([^\s/[\]{}()<>%]+)\s+put/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(clear))) {
    const c = Number(m[1]);
    if (c < 256) out[c] = m[2];
  }
  return out;
}

/** wx of the charstring's hsbw (sbx wx) or sbw (sbx sby wx wy), the first operator of a Type 1 glyph. */
function type1Width(cs: Uint8Array): number | undefined {
  const stack: number[] = [];
  for (let i = 0; i < cs.length && i < 64; ) {
    const v = cs[i]!;
    if (v >= 32 && v <= 246) {
      stack.push(v - 139);
      i++;
    } else if (v >= 247 && v <= 250) {
      stack.push((v - 247) * 256 + (cs[i + 1] ?? 0) + 108);
      i += 2;
    } else if (v >= 251 && v <= 254) {
      stack.push(-(v - 251) * 256 - (cs[i + 1] ?? 0) - 108);
      i += 2;
    } else if (v === 255) {
      stack.push(((cs[i + 1]! << 24) | (cs[i + 2]! << 16) | (cs[i + 3]! << 8) | cs[i + 4]!) | 0);
      i += 5;
    } else if (v === 13) return stack.length >= 2 ? stack[1] : undefined;
    else if (v === 12 && cs[i + 1] === 7) return stack.length >= 3 ? stack[2] : undefined;
    else if (v === 12 && cs[i + 1] === 12) {
      // div: widths written as a fraction
      const d = stack.pop();
      const n = stack.pop();
      if (n === undefined || d === undefined || d === 0) return undefined;
      stack.push(n / d);
      i += 2;
    } else return undefined;
  }
  return undefined;
}
