/**
 * Image XObjects and inline images (ISO 32000-1 8.9): what their dictionary
 * says (pixels, bits, colour space, filters, masks), read once per XObject, and
 * an estimate of the highest ink coverage in a CMYK (or spot) image, sampled
 * from its pixels when they are Flate-compressed or uncompressed 8-bit data.
 * DCT and JPX images are not decoded: their TAC is left to the vector paints.
 */
import { PDFArray, PDFStream, type PDFDict } from '@cantoo/pdf-lib';
import { isName, type Operand, type PdfDictToken } from '../content-lexer';
import { getBool, getNumber, name, numbersOf, streamBytes, streamFilters } from '../pdf-objects';
import type { ColourSpaces } from './colour-space-info';
import type { ColourSpaceInfo, Inks } from './types';
import { inksOf } from './paint';

export interface ImageFacts {
  widthPx: number;
  heightPx: number;
  bitsPerComponent: number | null;
  imageMask: boolean;
  colourSpace: ColourSpaceInfo | null;
  filters: string[];
  softMask: boolean;
  mask: boolean;
  decode: number[] | null;
}

const JPX: ColourSpaceInfo = { family: 'Unknown', components: 0, label: 'JPXDecode (colour space in the image data)' };
const NO_SPACE: ColourSpaceInfo = { family: 'Unknown', components: 0, label: 'Unknown (no colour space)' };

export function xobjectImageFacts(colourSpaces: ColourSpaces, stream: PDFStream, resources: PDFDict | undefined): ImageFacts {
  const d = stream.dict;
  const imageMask = getBool(d, 'ImageMask') === true;
  const filters = streamFilters(stream);
  const csObj = d.get(name('ColorSpace'));
  let colourSpace: ColourSpaceInfo | null = null;
  if (!imageMask) colourSpace = csObj !== undefined ? colourSpaces.ofObject(csObj, resources) : filters.includes('JPXDecode') ? JPX : NO_SPACE;
  const smaskInData = getNumber(d, 'SMaskInData');
  return {
    widthPx: getNumber(d, 'Width') ?? 0,
    heightPx: getNumber(d, 'Height') ?? 0,
    bitsPerComponent: imageMask ? 1 : (getNumber(d, 'BitsPerComponent') ?? null),
    imageMask,
    colourSpace,
    filters,
    softMask: d.lookup(name('SMask')) instanceof PDFStream || (smaskInData !== undefined && smaskInData > 0),
    mask: d.has(name('Mask')),
    decode: numbersOf(d.lookup(name('Decode')) instanceof PDFArray ? (d.lookup(name('Decode')) as PDFArray) : undefined) ?? null,
  };
}

/** Full filter names for the abbreviations inline images use (Table 94). */
const FILTER_NAMES: Record<string, string> = {
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  LZW: 'LZWDecode',
  Fl: 'FlateDecode',
  RL: 'RunLengthDecode',
  CCF: 'CCITTFaxDecode',
  DCT: 'DCTDecode',
};

/** Full key names win over abbreviations when a dictionary has both, as in poppler (issue14256.pdf has both). */
export function inlineImageFacts(colourSpaces: ColourSpaces, token: PdfDictToken | undefined, resources: PDFDict | undefined): ImageFacts {
  const dict = token?.dict ?? {};
  const num = (v: Operand | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const imageMask = (dict['ImageMask'] ?? dict['IM']) === true;
  const f = dict['Filter'] ?? dict['F'];
  const filterList = Array.isArray(f) ? f : f !== undefined ? [f] : [];
  const filters = filterList.filter(isName).map((n) => FILTER_NAMES[n.name] ?? n.name);
  const cs = dict['ColorSpace'] ?? dict['CS'];
  const decode = dict['Decode'] ?? dict['D'];
  return {
    widthPx: num(dict['Width'] ?? dict['W']) ?? 0,
    heightPx: num(dict['Height'] ?? dict['H']) ?? 0,
    bitsPerComponent: imageMask ? 1 : num(dict['BitsPerComponent'] ?? dict['BPC']),
    imageMask,
    colourSpace: imageMask ? null : cs !== undefined ? colourSpaces.ofInline(cs, resources) : NO_SPACE,
    filters,
    softMask: false,
    mask: false,
    decode: Array.isArray(decode) && decode.every((v) => typeof v === 'number') ? (decode as number[]) : null,
  };
}

/** Pixels looked at per image for its TAC. */
const SAMPLE_PIXELS = 65_536;
/** Decoded images larger than this are not sampled (memory). */
const MAX_SAMPLED_BYTES = 128 * 1024 * 1024;
const SAMPLEABLE_FILTERS = new Set(['FlateDecode', 'Fl']);

const sampled = new WeakMap<PDFStream, Inks | null>();

/**
 * The inks of the pixel with the highest total coverage among up to 64k
 * sampled, or null when not sampled. Decoding costs: `budget.bytes` is what the
 * document may still decode for sampling (an image that does not fit is not
 * sampled), so a file of a thousand large CMYK images stays fast.
 */
export function sampledMaxInks(stream: PDFStream, facts: ImageFacts, budget: { bytes: number }): Inks | null {
  if (sampled.has(stream)) return sampled.get(stream)!;
  const space = facts.colourSpace;
  if (!space || facts.imageMask || facts.bitsPerComponent !== 8 || !inkComponents(space)) return null;
  if (!facts.filters.every((f) => SAMPLEABLE_FILTERS.has(f))) return null;
  const size = facts.widthPx * facts.heightPx * space.components;
  if (!(size > 0) || size > MAX_SAMPLED_BYTES || size > budget.bytes) return null;
  budget.bytes -= size;
  const result = sample(stream, facts, space);
  sampled.set(stream, result);
  return result;
}

function sample(stream: PDFStream, facts: ImageFacts, space: ColourSpaceInfo): Inks | null {
  const comps = space.components;
  const { widthPx: w, heightPx: h } = facts;
  const data = streamBytes(stream);
  if (!data) return null;
  const pixels = Math.min(w * h, Math.floor(data.length / comps));
  if (pixels === 0) return null;
  const step = Math.max(1, Math.floor(pixels / SAMPLE_PIXELS));
  // Decode maps 0–255 to [Dmin, Dmax] per component ([1 0 …] inverts, as some CMYK writers do).
  const dmin: number[] = [];
  const dspan: number[] = [];
  for (let c = 0; c < comps; c++) {
    const lo = facts.decode?.[2 * c] ?? 0;
    const hi = facts.decode?.[2 * c + 1] ?? 1;
    dmin.push(lo);
    dspan.push((hi - lo) / 255);
  }
  const counts = inkWeights(space);
  let best = -1;
  let bestAt = 0;
  for (let p = 0; p < pixels; p += step) {
    const at = p * comps;
    let sum = 0;
    for (let c = 0; c < comps; c++) sum += (dmin[c]! + data[at + c]! * dspan[c]!) * counts[c]!;
    if (sum > best) {
      best = sum;
      bestAt = at;
    }
  }
  const values: number[] = [];
  for (let c = 0; c < comps; c++) values.push(dmin[c]! + data[bestAt + c]! * dspan[c]!);
  return inksOf(space, values);
}

/** Spaces whose components are inks (more is darker): CMYK, ICC CMYK, Separation, DeviceN. */
function inkComponents(space: ColourSpaceInfo): boolean {
  if (space.family === 'DeviceCMYK' || space.family === 'Separation' || space.family === 'DeviceN') return true;
  return space.family === 'ICCBased' && (space.icc?.colourSpace ?? (space.components === 4 ? 'CMYK' : null)) === 'CMYK';
}

/** How much each component counts in the total: None nothing, All every process ink, others one. */
function inkWeights(space: ColourSpaceInfo): number[] {
  const out: number[] = [];
  for (let c = 0; c < space.components; c++) {
    const colorant = space.colorants?.[c];
    out.push(colorant === 'None' ? 0 : colorant === 'All' ? 4 : 1);
  }
  return out;
}
