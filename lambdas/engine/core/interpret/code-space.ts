/**
 * How the bytes of a string shown with a Type0 font split into character codes
 * (ISO 32000-1 9.7.6.2): by the codespace ranges of its CMap. Identity-H/V and
 * the UCS2 CMaps use two bytes; the predefined CJK CMaps mix one- and two-byte
 * codes by lead byte (ranges below are those of Adobe's CMap resources); an
 * embedded CMap states its own ranges, which `parseEmbeddedCMap` reads together
 * with its code → CID mapping.
 */
import { isName, operations } from '../content-lexer';

/** Ranges per code length 1–4, each a flat list [low, high, low, high…], as pdf.js keeps them. */
export type CodeSpace = [number[], number[], number[], number[]];

export const TWO_BYTES: CodeSpace = [[], [0, 0xffff], [], []];
const UTF16: CodeSpace = [[], [0, 0xd7ff, 0xe000, 0xffff], [], [0xd8000000, 0xdbffffff]];
const UTF8: CodeSpace = [[0, 0x7f], [0xc280, 0xdfbf], [0xe08080, 0xefbfbf], [0xf0808080, 0xf48fbfbf]];
const UTF32: CodeSpace = [[], [], [], [0, 0x10ffff]];
const SHIFT_JIS: CodeSpace = [[0, 0x80, 0xa0, 0xdf, 0xfd, 0xff], [0x8140, 0x9ffc, 0xe040, 0xfcfc], [], []];
const EUC: CodeSpace = [[0, 0x80], [0x8ea0, 0x8edf, 0xa1a1, 0xfefe], [], []];
const ONE_OR_TWO_8140: CodeSpace = [[0, 0x80], [0x8140, 0xfefe], [], []];
const GBK2K: CodeSpace = [[0, 0x80], [0x8140, 0xfefe], [], [0x81308130, 0xfe39fe39]];
const JIS: CodeSpace = [[], [0x2121, 0x7e7e], [], []];

/** Codespace of a predefined CMap by its name. */
export function predefinedCodeSpace(cmapName: string): CodeSpace {
  if (/UTF16/.test(cmapName)) return UTF16;
  if (/UTF8/.test(cmapName)) return UTF8;
  if (/UTF32/.test(cmapName)) return UTF32;
  if (/RKSJ/.test(cmapName)) return SHIFT_JIS;
  if (/GBK2K/.test(cmapName)) return GBK2K;
  if (/^(GBK|GBpc|GBT|B5|ETen|HKscs|HKdla|HKdlb|HKgccs|HKm|KSCms|KSCpc|UniKS)/.test(cmapName) && !/UCS2/.test(cmapName)) return ONE_OR_TWO_8140;
  if (/EUC/.test(cmapName)) return EUC;
  if (cmapName === 'H' || cmapName === 'V') return JIS;
  return TWO_BYTES;
}

/** Reads the next code at `offset`: writes its value and length into `out` (no allocation). */
export function readCode(bytes: Uint8Array, offset: number, space: CodeSpace, out: { code: number; length: number }): void {
  let c = 0;
  for (let n = 0; n < 4 && offset + n < bytes.length; n++) {
    c = ((c << 8) | bytes[offset + n]!) >>> 0;
    const ranges = space[n];
    for (let k = 0; k < ranges.length; k += 2) {
      if (c >= ranges[k]! && c <= ranges[k + 1]!) {
        out.code = c;
        out.length = n + 1;
        return;
      }
    }
  }
  // No range matches: readers take one byte and move on.
  out.code = bytes[offset]!;
  out.length = 1;
}

export interface EmbeddedCMap {
  space: CodeSpace;
  /** Code → CID for codes the CMap maps; null when it maps by identity (usecmap Identity-H/V). */
  cids: Map<number, number> | null;
  /** cidrange entries too large to spell out: [low, high, firstCid] triples. */
  ranges: number[];
  vertical: boolean;
  /** The predefined CMap named by usecmap, when any. */
  uses: string | null;
  /**
   * The largest CID any cidrange or cidchar entry names, including entries a later one overrides for some codes
   * (the CMap still states that CID; PDF/A's CID limit and veraPDF judge every mapping). Not notdef mappings.
   */
  maxCid: number;
}

/** Largest cidrange expanded into the map; larger ranges are kept as ranges. */
const EXPAND_LIMIT = 256;

/** Codespace and CID mapping of an embedded CMap stream's program. */
export function parseEmbeddedCMap(program: Uint8Array): EmbeddedCMap {
  const space: CodeSpace = [[], [], [], []];
  const cids = new Map<number, number>();
  const ranges: number[] = [];
  let uses: string | null = null;
  let vertical = false;
  let maxCid = 0;
  const codeOf = (o: unknown): { value: number; length: number } | null => {
    if (typeof o !== 'object' || o === null || !('bytes' in o)) return null;
    const b = (o as { bytes: Uint8Array }).bytes;
    if (b.length < 1 || b.length > 4) return null;
    let v = 0;
    for (const x of b) v = ((v << 8) | x) >>> 0;
    return { value: v, length: b.length };
  };
  for (const { op, operands } of operations(program)) {
    switch (op) {
      case 'endcodespacerange':
        for (let i = 0; i + 1 < operands.length; i += 2) {
          const lo = codeOf(operands[i]);
          const hi = codeOf(operands[i + 1]);
          if (lo && hi && lo.length === hi.length) space[lo.length - 1]!.push(lo.value, hi.value);
        }
        break;
      case 'endcidrange':
        for (let i = 0; i + 2 < operands.length; i += 3) {
          const lo = codeOf(operands[i]);
          const hi = codeOf(operands[i + 1]);
          const cid = operands[i + 2];
          if (!lo || !hi || typeof cid !== 'number') continue;
          maxCid = Math.max(maxCid, cid + hi.value - lo.value);
          if (hi.value - lo.value <= EXPAND_LIMIT) for (let c = lo.value; c <= hi.value; c++) cids.set(c, cid + c - lo.value);
          else ranges.push(lo.value, hi.value, cid);
        }
        break;
      case 'endcidchar':
        for (let i = 0; i + 1 < operands.length; i += 2) {
          const code = codeOf(operands[i]);
          const cid = operands[i + 1];
          if (code && typeof cid === 'number') {
            cids.set(code.value, cid);
            maxCid = Math.max(maxCid, cid);
          }
        }
        break;
      case 'usecmap': {
        const n = operands[operands.length - 1];
        if (isName(n)) uses = n.name;
        break;
      }
      case 'def': {
        // `/WMode 1 def`
        const key = operands[0];
        if (isName(key) && key.name === 'WMode' && operands[1] === 1) vertical = true;
        break;
      }
    }
  }
  const stated = space.some((r) => r.length > 0);
  const usedSpace = uses ? predefinedCodeSpace(uses) : TWO_BYTES;
  const identity = uses !== null && /^Identity-[HV]$/.test(uses) && cids.size === 0 && ranges.length === 0;
  if (uses && /-V$/.test(uses)) vertical = true;
  return { space: stated ? space : usedSpace, cids: identity ? null : cids, ranges, vertical, uses, maxCid };
}

/** The CID an embedded CMap gives a code (0, the .notdef glyph, when it gives none). */
export function cidOf(cmap: EmbeddedCMap, code: number): number {
  if (cmap.cids === null) return code;
  const cid = cmap.cids.get(code);
  if (cid !== undefined) return cid;
  const r = cmap.ranges;
  for (let i = 0; i < r.length; i += 3) if (code >= r[i]! && code <= r[i + 1]!) return r[i + 2]! + code - r[i]!;
  return 0;
}
