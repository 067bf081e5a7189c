/**
 * Glyphs of composite (Type 0) fonts: a code becomes a CID through the CMap
 * (Identity, or an embedded CMap's mapping; a predefined non-identity CMap
 * leaves the CID unknown here), the CID a glyph through the CIDFont's program
 * (the CFF charset, or CIDToGIDMap for TrueType), and the width comes from W
 * and DW.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { cidOf, parseEmbeddedCMap, type EmbeddedCMap } from '../../core/interpret/code-space';
import { getArray, getName, getNumber, name, resolve, streamBytes } from '../../core/pdf-objects';
import type { Glyph, Program } from './font-model';

export function cidResolver(ctx: PDFContext, dict: PDFDict, descendant: PDFDict | undefined, program: () => Program | null): (code: number) => Glyph {
  const enc = resolve(ctx, dict.get(name('Encoding')));
  let cmap: EmbeddedCMap | null = null;
  let identity = false;
  if (enc instanceof PDFName) identity = /^Identity-[HV]$/.test(enc.decodeText());
  else if (enc instanceof PDFStream) {
    const b = streamBytes(enc);
    if (b) {
      cmap = parseEmbeddedCMap(b);
      if (cmap.cids === null) identity = true;
    }
  }
  const cidOfCode = (code: number): number | undefined => (identity ? code : cmap ? cidOf(cmap, code) : undefined);
  const widths = new Map<number, number>();
  readW(ctx, getArray(descendant, 'W'), widths);
  const dw = getNumber(descendant, 'DW') ?? 1000;
  const cidType = getName(descendant, 'Subtype');
  let cidToGid: Uint8Array | null | 'identity' | undefined;
  const gidOfCid = (cid: number): number | undefined => {
    if (cidToGid === undefined) {
      const v = resolve(ctx, descendant?.get(name('CIDToGIDMap')));
      cidToGid = v instanceof PDFStream ? streamBytes(v) : 'identity';
    }
    if (cidToGid === 'identity') return cid;
    if (cidToGid === null) return undefined;
    return cid * 2 + 1 < cidToGid.length ? (cidToGid[cid * 2]! << 8) | cidToGid[cid * 2 + 1]! : 0;
  };
  return (code) => {
    const cid = cidOfCode(code);
    const g: Glyph = { code, name: undefined, cid, present: undefined, dictWidth: cid === undefined ? undefined : widths.get(cid) ?? dw, programWidth: undefined };
    const p = program();
    if (cid === undefined || !p) return g;
    const cff = p.kind === 'cff' ? p.cff : p.kind === 'truetype' && cidType === 'CIDFontType0' ? p.cff : null;
    if (cff) {
      const gid = cff.cidKeyed ? cff.cids.get(cid) : cid < cff.glyphCount ? cid : undefined;
      g.present = gid !== undefined;
      if (gid !== undefined) g.programWidth = cff.width(gid);
    } else if (p.kind === 'truetype') {
      const gid = gidOfCid(cid);
      g.present = gid !== undefined ? gid < p.tt.glyphCount : undefined;
      if (gid !== undefined && gid < p.tt.glyphCount) {
        const adv = p.tt.advance(gid);
        if (adv !== undefined) g.programWidth = (adv * 1000) / p.tt.unitsPerEm;
      }
    }
    return g;
  };
}

/** W array of a CIDFont: `c [w…]` and `cfirst clast w` runs (bounded: CIDs are 16-bit). */
function readW(ctx: PDFContext, w: PDFArray | undefined, out: Map<number, number>): void {
  if (!w) return;
  const n = w.size();
  const num = (i: number): number | undefined => {
    const v = w.lookup(i);
    return v instanceof PDFNumber ? v.asNumber() : undefined;
  };
  for (let i = 0; i < n && out.size <= 65536; ) {
    const first = num(i);
    const next = resolve(ctx, w.get(i + 1));
    if (first === undefined) break;
    if (next instanceof PDFArray) {
      for (let j = 0; j < next.size(); j++) {
        const v = next.lookup(j);
        if (v instanceof PDFNumber) out.set(first + j, v.asNumber());
      }
      i += 2;
    } else {
      const last = num(i + 1);
      const width = num(i + 2);
      if (last === undefined || width === undefined || last - first > 65535) break;
      for (let c = first; c <= last; c++) out.set(c, width);
      i += 3;
    }
  }
}
