/**
 * The header of JPEG 2000 image data (ISO/IEC 15444-1 Annex I, the JP2 file
 * format) as PDF/A judges it (ISO 19005-2 6.2.8.3, ISO 19005-4 6.2.7.3):
 * number of components and bit depth from the image header box, whether a
 * per-component bit depth box is present, and the colour specification boxes
 * (method, approximation, enumerated colour space). Only the boxes before the
 * codestream are read; the stream's raw bytes are JPXDecode data as stored.
 * A bare codestream (no JP2 boxes) is read from its SIZ marker.
 */

export interface ColourSpec {
  method: number;
  approx: number;
  enumCS: number | null;
}

export interface Jpeg2000Header {
  channels: number | null;
  /** 1-based bit depth, null when components differ (BPC 0xFF). */
  bitDepth: number | null;
  bpccBox: boolean;
  colourSpecs: ColourSpec[];
}

const JP2H = 0x6a703268; // 'jp2h'
const IHDR = 0x69686472; // 'ihdr'
const BPCC = 0x62706363; // 'bpcc'
const COLR = 0x636f6c72; // 'colr'
const PCLR = 0x70636c72; // 'pclr'
const JP2C = 0x6a703263; // 'jp2c'

export function readJpeg2000Header(b: Uint8Array): Jpeg2000Header | null {
  if (b.length < 12) return null;
  if (b[0] === 0xff && b[1] === 0x4f) return fromCodestream(b, 0);
  const out: Jpeg2000Header = { channels: null, bitDepth: null, bpccBox: false, colourSpecs: [] };
  let palette: number | null = null;
  const walk = (start: number, end: number, depth: number): boolean => {
    let p = start;
    while (p + 8 <= end) {
      let len = u32(b, p);
      const type = u32(b, p + 4);
      let header = 8;
      if (len === 1) {
        if (p + 16 > end) return false;
        len = u32(b, p + 8) * 2 ** 32 + u32(b, p + 12);
        header = 16;
      } else if (len === 0) len = end - p;
      if (len < header) return false;
      const boxEnd = Math.min(end, p + len);
      const d = p + header;
      if (type === JP2H && depth === 0) walk(d, boxEnd, 1);
      else if (type === IHDR && d + 14 <= boxEnd) {
        out.channels = (b[d + 8]! << 8) | b[d + 9]!;
        const bpc = b[d + 10]!;
        out.bitDepth = bpc === 0xff ? null : (bpc & 0x7f) + 1;
      } else if (type === BPCC) out.bpccBox = true;
      else if (type === COLR && d + 3 <= boxEnd) {
        const method = b[d]!;
        out.colourSpecs.push({ method, approx: b[d + 2]!, enumCS: method === 1 && d + 7 <= boxEnd ? u32(b, d + 3) : null });
      } else if (type === PCLR && d + 3 <= boxEnd) palette = b[d + 2]!;
      else if (type === JP2C) {
        if (out.channels === null) {
          const c = fromCodestream(b, d);
          if (c) {
            out.channels = c.channels;
            out.bitDepth = c.bitDepth;
          }
        }
        return true;
      }
      p = boxEnd;
    }
    return true;
  };
  walk(0, b.length, 0);
  // A palette maps each index to this many colour channels (I.5.3.4).
  if (palette !== null) out.channels = palette;
  return out;
}

function fromCodestream(b: Uint8Array, at: number): Jpeg2000Header | null {
  // SOC (FF4F) then SIZ (FF51): Lsiz, Rsiz, Xsiz, Ysiz, XOsiz, YOsiz, XTsiz, YTsiz, XTOsiz, YTOsiz, Csiz, then Ssiz per component.
  if (b[at] !== 0xff || b[at + 1] !== 0x4f || b[at + 2] !== 0xff || b[at + 3] !== 0x51) return null;
  const siz = at + 4;
  if (siz + 38 > b.length) return null;
  const channels = (b[siz + 36]! << 8) | b[siz + 37]!;
  let depth: number | null = null;
  let same = true;
  for (let i = 0; i < channels && siz + 38 + i * 3 < b.length; i++) {
    const d = (b[siz + 38 + i * 3]! & 0x7f) + 1;
    if (depth === null) depth = d;
    else if (depth !== d) same = false;
  }
  return { channels, bitDepth: same ? depth : null, bpccBox: !same, colourSpecs: [] };
}

const u32 = (b: Uint8Array, p: number): number => ((b[p]! << 24) >>> 0) + (b[p + 1]! << 16) + (b[p + 2]! << 8) + b[p + 3]!;
