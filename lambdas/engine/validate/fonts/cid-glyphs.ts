/**
 * Glyphs of composite (Type 0) fonts: a code becomes a CID through the CMap
 * (Identity, or an embedded CMap's mapping; a predefined non-identity CMap
 * leaves the CID unknown here), the CID a glyph through the CIDFont's program
 * (the CFF charset, or CIDToGIDMap for TrueType), and the width comes from W
 * and DW.
 */
import { PDFDict, PDFName, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { cidOf, parseEmbeddedCMap, type EmbeddedCMap } from '../../core/interpret/code-space';
import { readCidWidths } from '../../core/cid-widths';
import { getArray, getName, getNumber, name, resolve, streamBytes } from '../../core/pdf-objects';
import type { Glyph, Program } from './glyph';

/** More W entries than there can be 16-bit CIDs are junk. */
const MAX_CID_WIDTHS = 65536;

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
  const widths = readCidWidths(getArray(descendant, 'W'), MAX_CID_WIDTHS);
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
