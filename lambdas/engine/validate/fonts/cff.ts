/**
 * A small, bounded CFF reader (Adobe TN 5176, Type 2 charstrings TN 5177):
 * glyph names (charset, name-keyed fonts) or CIDs (CID-keyed fonts), the
 * built-in encoding, and each glyph's advance width, which a Type 2 charstring
 * carries as an optional first operand (relative to the Private DICT's
 * nominalWidthX; defaultWidthX when absent). Unreadable parts read as absent.
 */
import { CFF_STANDARD_STRINGS, STANDARD } from './font-tables';

export interface CffFont {
  cidKeyed: boolean;
  glyphCount: number;
  /** Name-keyed fonts: glyph name → glyph index. */
  names: Map<string, number>;
  /** CID-keyed fonts: CID → glyph index. */
  cids: Map<number, number>;
  /** Built-in encoding: code → glyph name (name-keyed fonts). */
  encoding: (string | undefined)[];
  /** Advance width in 1000-unit text space (FontMatrix applied), undefined when it cannot be read. */
  width(gid: number): number | undefined;
}

interface Index {
  items: Uint8Array[];
  end: number;
}

function readIndex(b: Uint8Array, pos: number): Index {
  if (pos + 2 > b.length) return { items: [], end: b.length };
  const count = (b[pos]! << 8) | b[pos + 1]!;
  if (count === 0) return { items: [], end: pos + 2 };
  const offSize = b[pos + 2]!;
  if (offSize < 1 || offSize > 4) return { items: [], end: b.length };
  const offAt = (i: number): number => {
    let v = 0;
    const p = pos + 3 + i * offSize;
    for (let k = 0; k < offSize; k++) v = v * 256 + (b[p + k] ?? 0);
    return v;
  };
  const dataStart = pos + 3 + (count + 1) * offSize - 1;
  const items: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const s = dataStart + offAt(i);
    const e = dataStart + offAt(i + 1);
    items.push(b.subarray(Math.min(s, b.length), Math.min(Math.max(s, e), b.length)));
  }
  return { items, end: Math.min(b.length, dataStart + offAt(count)) };
}

/** DICT data → operator (12 x as 1200 + x) → operands. */
function readDict(d: Uint8Array): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let operands: number[] = [];
  for (let i = 0; i < d.length; ) {
    const b0 = d[i]!;
    if (b0 <= 21) {
      let op = b0;
      i++;
      if (b0 === 12) op = 1200 + (d[i++] ?? 0);
      out.set(op, operands);
      operands = [];
    } else if (b0 === 28) {
      operands.push((((d[i + 1] ?? 0) << 24) | ((d[i + 2] ?? 0) << 16)) >> 16);
      i += 3;
    } else if (b0 === 29) {
      operands.push(((d[i + 1] ?? 0) << 24) | ((d[i + 2] ?? 0) << 16) | ((d[i + 3] ?? 0) << 8) | (d[i + 4] ?? 0));
      i += 5;
    } else if (b0 === 30) {
      let s = '';
      i++;
      outer: while (i < d.length) {
        const byte = d[i++]!;
        for (const nib of [byte >> 4, byte & 15]) {
          if (nib === 15) break outer;
          s += nib <= 9 ? String(nib) : nib === 10 ? '.' : nib === 11 ? 'E' : nib === 12 ? 'E-' : nib === 14 ? '-' : '';
        }
      }
      operands.push(Number(s) || 0);
    } else if (b0 >= 32 && b0 <= 246) {
      operands.push(b0 - 139);
      i++;
    } else if (b0 >= 247 && b0 <= 250) {
      operands.push((b0 - 247) * 256 + (d[i + 1] ?? 0) + 108);
      i += 2;
    } else if (b0 >= 251 && b0 <= 254) {
      operands.push(-(b0 - 251) * 256 - (d[i + 1] ?? 0) - 108);
      i += 2;
    } else i++;
  }
  return out;
}

export function readCff(b: Uint8Array): CffFont | null {
  if (b.length < 4 || b[0] !== 1) return null;
  const hdrSize = b[2]!;
  const nameIdx = readIndex(b, hdrSize);
  const topIdx = readIndex(b, nameIdx.end);
  const stringIdx = readIndex(b, topIdx.end);
  const top = topIdx.items[0];
  if (!top) return null;
  const dict = readDict(top);
  const sid = (s: number): string | undefined => (s < CFF_STANDARD_STRINGS.length ? CFF_STANDARD_STRINGS[s] : stringIdx.items[s - CFF_STANDARD_STRINGS.length] ? String.fromCharCode(...stringIdx.items[s - CFF_STANDARD_STRINGS.length]!) : undefined);
  const csOff = dict.get(17)?.[0];
  if (csOff === undefined || csOff <= 0 || csOff >= b.length) return null;
  const charStrings = readIndex(b, csOff).items;
  const glyphCount = charStrings.length;
  const cidKeyed = dict.has(1230);
  // charset: glyph index → SID (name-keyed) or CID (CID-keyed); glyph 0 is .notdef / CID 0.
  const charset: number[] = [0];
  const csetOff = dict.get(15)?.[0] ?? 0;
  if (csetOff === 0 && !cidKeyed) for (let g = 1; g < glyphCount && g <= 228; g++) charset.push(g);
  else if (csetOff > 2 && csetOff < b.length) {
    const format = b[csetOff]!;
    let p = csetOff + 1;
    if (format === 0) {
      while (charset.length < glyphCount && p + 1 < b.length) {
        charset.push((b[p]! << 8) | b[p + 1]!);
        p += 2;
      }
    } else if (format === 1 || format === 2) {
      while (charset.length < glyphCount && p + 2 < b.length) {
        const first = (b[p]! << 8) | b[p + 1]!;
        const left = format === 1 ? b[p + 2]! : ((b[p + 2]! << 8) | (b[p + 3] ?? 0));
        p += format === 1 ? 3 : 4;
        for (let k = 0; k <= left && charset.length < glyphCount; k++) charset.push(first + k);
      }
    }
  } else if (cidKeyed) for (let g = 1; g < glyphCount; g++) charset.push(g);
  const names = new Map<string, number>();
  const cids = new Map<number, number>();
  charset.forEach((v, g) => {
    if (cidKeyed) cids.set(v, g);
    else {
      const n = sid(v);
      if (n !== undefined && !names.has(n)) names.set(n, g);
    }
  });

  // Built-in encoding (name-keyed): 0 = Standard, 1 = Expert (not tabulated), else custom.
  const encoding: (string | undefined)[] = new Array(256);
  const encOff = dict.get(16)?.[0] ?? 0;
  if (!cidKeyed) {
    if (encOff === 0) STANDARD.forEach((n, c) => (encoding[c] = n || undefined));
    else if (encOff > 1 && encOff < b.length) {
      const format = b[encOff]! & 0x7f;
      let p = encOff + 1;
      if (format === 0) {
        const n = b[p++] ?? 0;
        for (let g = 1; g <= n; g++) {
          const code = b[p++];
          if (code !== undefined && g < charset.length) encoding[code] = sid(charset[g]!);
        }
      } else if (format === 1) {
        const ranges = b[p++] ?? 0;
        let g = 1;
        for (let r = 0; r < ranges; r++) {
          const first = b[p++] ?? 0;
          const left = b[p++] ?? 0;
          for (let k = 0; k <= left; k++, g++) if (first + k < 256 && g < charset.length) encoding[first + k] = sid(charset[g]!);
        }
      }
    }
  }

  // Private DICTs: one for a name-keyed font; one per Font DICT (FDArray, chosen by FDSelect) for a CID-keyed one.
  const scale = fontMatrixScale(dict.get(1207));
  const privates: { nominal: number; dflt: number; scale: number }[] = [];
  const readPrivate = (d: Map<number, number[]>, fdScale: number): { nominal: number; dflt: number; scale: number } => {
    const pr = d.get(18);
    if (!pr || pr.length < 2) return { nominal: 0, dflt: 0, scale: fdScale };
    const [size, off] = pr as [number, number];
    const pd = readDict(b.subarray(Math.min(off, b.length), Math.min(off + size, b.length)));
    return { nominal: pd.get(21)?.[0] ?? 0, dflt: pd.get(20)?.[0] ?? 0, scale: fdScale };
  };
  let fdOf: (gid: number) => number = () => 0;
  if (cidKeyed) {
    const fdArrayOff = dict.get(1236)?.[0];
    const fds = fdArrayOff ? readIndex(b, fdArrayOff).items : [];
    for (const fd of fds) {
      const fdd = readDict(fd);
      const fdMatrix = fdd.get(1207);
      // The Font DICT's matrix concatenates with the top DICT's, which such fonts usually set to identity.
      privates.push(readPrivate(fdd, fdMatrix ? fontMatrixScale(fdMatrix) * (dict.has(1207) ? scale : 1) : scale));
    }
    const sel = dict.get(1237)?.[0];
    if (sel && sel < b.length) fdOf = fdSelect(b, sel);
  } else privates.push(readPrivate(dict, scale));
  const width = (gid: number): number | undefined => {
    const cs = charStrings[gid];
    const pr = privates[fdOf(gid)] ?? privates[0];
    if (!cs || !pr) return undefined;
    const w = charstringWidth(cs);
    if (w === undefined) return undefined;
    return (w === null ? pr.dflt : pr.nominal + w) * pr.scale * 1000;
  };
  return { cidKeyed, glyphCount, names, cids, encoding, width };
}

/** FontMatrix a (glyph space → text space x scale), 0.001 when absent. */
function fontMatrixScale(m: number[] | undefined): number {
  return m && m.length >= 1 && Number.isFinite(m[0]) && m[0] !== 0 ? Math.abs(m[0]!) : 0.001;
}

function fdSelect(b: Uint8Array, off: number): (gid: number) => number {
  const format = b[off];
  if (format === 0) return (g) => b[off + 1 + g] ?? 0;
  if (format === 3) {
    const n = (b[off + 1]! << 8) | (b[off + 2] ?? 0);
    const ranges: [number, number][] = [];
    for (let i = 0; i < n; i++) {
      const p = off + 3 + i * 3;
      ranges.push([((b[p] ?? 0) << 8) | (b[p + 1] ?? 0), b[p + 2] ?? 0]);
    }
    return (g) => {
      let fd = 0;
      for (const [first, f] of ranges) {
        if (first > g) break;
        fd = f;
      }
      return fd;
    };
  }
  return () => 0;
}

/**
 * The width operand of a Type 2 charstring: the operand count before the
 * first stack-clearing operator is one more than the operator takes when a
 * width is given. null: no width (defaultWidthX); undefined: not determinable
 * (the charstring starts with a subroutine call).
 */
function charstringWidth(cs: Uint8Array): number | null | undefined {
  const stack: number[] = [];
  for (let i = 0; i < cs.length; ) {
    const b0 = cs[i]!;
    if (b0 === 28) {
      stack.push((((cs[i + 1] ?? 0) << 24) | ((cs[i + 2] ?? 0) << 16)) >> 16);
      i += 3;
    } else if (b0 >= 32 && b0 <= 246) {
      stack.push(b0 - 139);
      i++;
    } else if (b0 >= 247 && b0 <= 250) {
      stack.push((b0 - 247) * 256 + (cs[i + 1] ?? 0) + 108);
      i += 2;
    } else if (b0 >= 251 && b0 <= 254) {
      stack.push(-(b0 - 251) * 256 - (cs[i + 1] ?? 0) - 108);
      i += 2;
    } else if (b0 === 255) {
      stack.push((((cs[i + 1] ?? 0) << 24) | ((cs[i + 2] ?? 0) << 16) | ((cs[i + 3] ?? 0) << 8) | (cs[i + 4] ?? 0)) / 65536);
      i += 5;
    } else {
      // An operator.
      switch (b0) {
        case 1: case 3: case 18: case 23: // hstem vstem hstemhm vstemhm: pairs
        case 19: case 20: // hintmask cntrmask (implicit vstem pairs before them)
          return stack.length % 2 === 1 ? stack[0]! : null;
        case 21: // rmoveto
          return stack.length > 2 ? stack[0]! : null;
        case 22: case 4: // hmoveto vmoveto
          return stack.length > 1 ? stack[0]! : null;
        case 14: // endchar (0 or 4 operands)
          return stack.length === 1 || stack.length === 5 ? stack[0]! : null;
        default:
          return undefined;
      }
    }
  }
  return undefined;
}
