/**
 * A small, bounded TrueType / OpenType reader (Apple TrueType Reference,
 * OpenType spec): the tables the font rules need — head (unitsPerEm), maxp
 * (glyph count), hhea + hmtx (advance widths), cmap (which subtables exist and
 * code → glyph lookups), post (glyph names) — and, for OpenType with CFF
 * outlines, the CFF table. Every read is bounds-checked; a damaged table reads
 * as absent, never as an exception.
 */
import { MAC_GLYPH_NAMES } from './font-tables';

export interface CmapSubtable {
  platform: number;
  encoding: number;
  /** Glyph index for a code (undefined when the subtable does not map it or its format is not read). */
  lookup(code: number): number | undefined;
}

export interface TrueTypeFont {
  unitsPerEm: number;
  glyphCount: number;
  cmaps: CmapSubtable[];
  /** Advance width of a glyph in font units, or undefined without hmtx. */
  advance(gid: number): number | undefined;
  /** Glyph index by post-table name (format 2 and 1), undefined when unknown. */
  gidOfName(name: string): number | undefined;
  /** The 'CFF ' table of an OpenType font with CFF outlines. */
  cff: Uint8Array | null;
  /** The glyf table has an outline (non-empty) for this glyph; undefined when unknown. */
  hasOutline(gid: number): boolean | undefined;
}

const u16 = (b: Uint8Array, o: number): number => (o + 1 < b.length ? (b[o]! << 8) | b[o + 1]! : 0);
const i16 = (b: Uint8Array, o: number): number => {
  const v = u16(b, o);
  return v & 0x8000 ? v - 0x10000 : v;
};
const u32 = (b: Uint8Array, o: number): number => (o + 3 < b.length ? ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0 : 0);

export function isSfnt(b: Uint8Array): boolean {
  const tag = u32(b, 0);
  return tag === 0x00010000 || tag === 0x74727565 /* true */ || tag === 0x4f54544f /* OTTO */ || tag === 0x74746366 /* ttcf */;
}

export function readTrueType(bytes: Uint8Array): TrueTypeFont | null {
  let base = 0;
  if (u32(bytes, 0) === 0x74746366) base = u32(bytes, 12); // a collection: its first font
  const numTables = u16(bytes, base + 4);
  if (numTables === 0 || numTables > 512) return null;
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < numTables; i++) {
    const rec = base + 12 + i * 16;
    if (rec + 16 > bytes.length) break;
    const tag = String.fromCharCode(bytes[rec]!, bytes[rec + 1]!, bytes[rec + 2]!, bytes[rec + 3]!);
    const off = u32(bytes, rec + 8);
    const len = u32(bytes, rec + 12);
    if (off >= bytes.length) continue;
    tables.set(tag, bytes.subarray(off, Math.min(bytes.length, off + len)));
  }
  const head = tables.get('head');
  const maxp = tables.get('maxp');
  const unitsPerEm = head && head.length >= 20 ? u16(head, 18) || 1000 : 1000;
  const glyphCount = maxp && maxp.length >= 6 ? u16(maxp, 4) : 0;
  const hhea = tables.get('hhea');
  const hmtx = tables.get('hmtx');
  const metricCount = hhea && hhea.length >= 36 ? u16(hhea, 34) : 0;
  const advance = (gid: number): number | undefined => {
    if (!hmtx || metricCount === 0) return undefined;
    const i = Math.min(gid, metricCount - 1);
    if (i * 4 + 2 > hmtx.length) return undefined;
    return u16(hmtx, i * 4);
  };
  let names: Map<string, number> | null = null;
  const gidOfName = (n: string): number | undefined => {
    names ??= postNames(tables.get('post'), glyphCount);
    return names.get(n);
  };
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  const longLoca = head && head.length >= 52 ? i16(head, 50) === 1 : false;
  const hasOutline = (gid: number): boolean | undefined => {
    if (!loca || !glyf) return undefined;
    if (gid >= glyphCount) return false;
    const a = longLoca ? u32(loca, gid * 4) : u16(loca, gid * 2) * 2;
    const b = longLoca ? u32(loca, gid * 4 + 4) : u16(loca, gid * 2 + 2) * 2;
    return b > a;
  };
  return { unitsPerEm, glyphCount, cmaps: readCmap(tables.get('cmap')), advance, gidOfName, cff: tables.get('CFF ') ?? null, hasOutline };
}

function readCmap(t: Uint8Array | undefined): CmapSubtable[] {
  if (!t || t.length < 4) return [];
  const n = Math.min(u16(t, 2), 64);
  const out: CmapSubtable[] = [];
  for (let i = 0; i < n; i++) {
    const rec = 4 + i * 8;
    if (rec + 8 > t.length) break;
    const platform = u16(t, rec);
    const encoding = u16(t, rec + 2);
    const off = u32(t, rec + 4);
    out.push({ platform, encoding, lookup: subtableLookup(t, off) });
  }
  return out;
}

function subtableLookup(t: Uint8Array, off: number): (code: number) => number | undefined {
  const format = u16(t, off);
  const none = (): undefined => undefined;
  const nz = (g: number): number | undefined => (g === 0 ? undefined : g);
  switch (format) {
    case 0:
      return (c) => (c >= 0 && c < 256 && off + 6 + c < t.length ? nz(t[off + 6 + c]!) : undefined);
    case 4: {
      const segX2 = u16(t, off + 6);
      const ends = off + 14;
      const starts = ends + segX2 + 2;
      const deltas = starts + segX2;
      const ranges = deltas + segX2;
      return (c) => {
        for (let s = 0; s < segX2; s += 2) {
          const end = u16(t, ends + s);
          if (c > end) continue;
          const start = u16(t, starts + s);
          if (c < start) return undefined;
          const delta = u16(t, deltas + s);
          const ro = u16(t, ranges + s);
          if (ro === 0) return nz((c + delta) & 0xffff);
          const g = u16(t, ranges + s + ro + (c - start) * 2);
          return g === 0 ? undefined : nz((g + delta) & 0xffff);
        }
        return undefined;
      };
    }
    case 6: {
      const first = u16(t, off + 6);
      const count = u16(t, off + 8);
      return (c) => (c >= first && c < first + count ? nz(u16(t, off + 10 + (c - first) * 2)) : undefined);
    }
    case 12: {
      const groups = Math.min(u32(t, off + 12), 100000);
      return (c) => {
        for (let g = 0; g < groups; g++) {
          const rec = off + 16 + g * 12;
          const s = u32(t, rec);
          const e = u32(t, rec + 4);
          if (c >= s && c <= e) return nz(u32(t, rec + 8) + c - s);
        }
        return undefined;
      };
    }
    default:
      return none;
  }
}

function postNames(post: Uint8Array | undefined, glyphCount: number): Map<string, number> {
  const out = new Map<string, number>();
  if (!post || post.length < 32) return out;
  const version = u32(post, 0);
  if (version === 0x00010000) {
    MAC_GLYPH_NAMES.forEach((n, i) => out.set(n, i));
    return out;
  }
  if (version !== 0x00020000) return out;
  const n = Math.min(u16(post, 32), glyphCount || 65535);
  const indices: number[] = [];
  for (let i = 0; i < n; i++) indices.push(u16(post, 34 + i * 2));
  const custom: string[] = [];
  let p = 34 + n * 2;
  while (p < post.length) {
    const len = post[p]!;
    custom.push(String.fromCharCode(...post.subarray(p + 1, p + 1 + len)));
    p += 1 + len;
  }
  indices.forEach((idx, gid) => {
    const nm = idx < 258 ? MAC_GLYPH_NAMES[idx] : custom[idx - 258];
    if (nm !== undefined && !out.has(nm)) out.set(nm, gid);
  });
  return out;
}
