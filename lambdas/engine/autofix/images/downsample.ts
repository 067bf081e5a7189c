/**
 * images.downsample: image XObjects that are placed at a resolution above
 * `thresholdPpi` are resampled to `ppi` where they are placed, so the file
 * carries no more pixels than print can use.
 *
 * Where an image is placed and how large comes from the content interpreter
 * (core/interpret), which reports every placement with its CTM and the pixels
 * per inch along the image's own x and y axes — the numbers preflight's
 * images.resolution-* checks judge (checks-images.ts: the lower of the two is
 * the effective resolution). An image placed several times, on one page or
 * many, is judged by its largest placement (the lowest resolution), so no use
 * of it ends up below `ppi`; each axis is resampled on its own (to its own
 * lowest ppi) and rounded up, so the result is never a fraction below `ppi`.
 *
 * Only images whose samples we can read and write back faithfully are
 * changed (see unsupported()); the rest are counted in the detail by reason.
 * JPEG stays JPEG (at `quality`), everything else becomes Flate (with PNG
 * row filters when they make it smaller); the colour space entry (ICC profile included) is kept as it is,
 * since the samples keep their meaning. A soft mask (/SMask) is resampled with
 * its image. Inline images are left: they are small by definition (ISO
 * 32000-1 8.9.7 suggests 4 KB at most) and live inside content streams.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import { interpretDocument } from '../../core/interpret/interpret-document';
import type { ColourSpaceInfo } from '../../core/interpret/types';
import { decodeStream, getBool, getDict, getName, getNumber, name, streamFilters } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { decodeJpeg, encodeFlate, encodeJpeg, rasterFromSamples, resample, type FlateImage, type Raster } from './image-codec';

export interface DownsampleOptions {
  /** Resolution the images are brought to. */
  ppi: number;
  /** Only images above this effective resolution are changed. */
  thresholdPpi: number;
  /** JPEG quality (1–100) for images that were JPEG. */
  quality: number;
}

/** One image XObject with everything its placements say about it. */
interface Candidate {
  stream: PDFStream;
  colourSpace: ColourSpaceInfo | null;
  /** Lowest ppi of any placement along the image's x and y axes. */
  ppiX: number;
  ppiY: number;
  pages: Set<number>;
}

/** Soft masks already resampled, by original and new size (two images sharing one mask and one new size share the new mask). */
type MaskCache = Map<PDFStream, Map<string, PDFRef>>;

/** Colour spaces whose samples are independent channels we can resample (Indexed, whose samples are palette indices, is not one). */
const RESAMPLABLE = new Set(['DeviceGray', 'DeviceRGB', 'DeviceCMYK', 'ICCBased', 'CalGray', 'CalRGB', 'Lab', 'Separation']);
const CODEC_NAMES: Record<string, string> = { JBIG2Decode: 'JBIG2', JPXDecode: 'JPX', CCITTFaxDecode: 'CCITT', CCF: 'CCITT' };
const DCT = new Set(['DCTDecode', 'DCT']);

export async function downsampleImages(doc: PDFDocument, opts: DownsampleOptions): Promise<FixOutcome> {
  const context = doc.context;
  // TAC sampling is of no use here; it would only spend time decoding images.
  const inventories = interpretDocument(doc, { imageSamplingBytes: 0 });
  const limited = inventories.flatMap((inv) => inv.limits);
  if (limited.length > 0) {
    // A placement the interpreter did not list might be the largest one: changing any image could take it below ppi.
    return { count: 0, pages: [], detail: '0 images downsampled', skipReason: `The page content could not be read completely (page ${limited[0]!.page}: ${limited[0]!.detail}), so the sizes at which images are placed are not all known; no image was downsampled.` };
  }

  const candidates = new Map<PDFStream, Candidate>();
  for (const inv of inventories) {
    for (const img of inv.images) {
      // Degenerate placements (zero width or height) show nothing and say nothing about resolution.
      if (img.inline || !img.xobject || !(img.ppiX > 0) || !(img.ppiY > 0)) continue;
      let c = candidates.get(img.xobject);
      if (!c) {
        c = { stream: img.xobject, colourSpace: img.colourSpace, ppiX: Infinity, ppiY: Infinity, pages: new Set() };
        candidates.set(img.xobject, c);
      }
      c.ppiX = Math.min(c.ppiX, img.ppiX);
      c.ppiY = Math.min(c.ppiY, img.ppiY);
      c.pages.add(img.page);
    }
  }

  const refs = new Map<PDFStream, PDFRef>();
  for (const [ref, obj] of context.enumerateIndirectObjects()) if (obj instanceof PDFStream) refs.set(obj, ref);
  const skipped = new Map<string, number>();
  const skip = (reason: string) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  const masks: MaskCache = new Map();
  const pages = new Set<number>();
  let count = 0;
  let before = 0;
  let after = 0;

  for (const c of candidates.values()) {
    if (Math.min(c.ppiX, c.ppiY) <= opts.thresholdPpi) continue;
    const ref = refs.get(c.stream);
    const reason = ref ? unsupported(c.stream, c.colourSpace) : 'not an indirect object';
    if (reason) {
      skip(reason);
      continue;
    }
    try {
      const result = await downsampleOne(context, c, opts, masks);
      if (typeof result === 'string') {
        skip(result);
        continue;
      }
      before += c.stream instanceof PDFRawStream ? c.stream.contents.length : 0;
      after += result.contents.length;
      context.assign(ref!, result);
      count++;
      for (const p of c.pages) pages.add(p);
    } catch {
      // A malformed image must never stop the fix: leave it as it was.
      skip('unreadable');
    }
  }

  const skippedCount = [...skipped.values()].reduce((a, b) => a + b, 0);
  const reasons = [...skipped].map(([r, n]) => `${n} ${r}`).join(', ');
  const skippedText = skippedCount > 0 ? `; ${skippedCount} left as they are (${reasons})` : '';
  const detail = `${count} image(s) above ${opts.thresholdPpi} ppi downsampled to ${opts.ppi} ppi${count > 0 ? ` (${kb(before)} → ${kb(after)} of image data)` : ''}${skippedText}`;
  const out: FixOutcome = { count, pages: [...pages].sort((a, b) => a - b), detail };
  if (count === 0 && skippedCount > 0) out.skipReason = `${skippedCount} image(s) above ${opts.thresholdPpi} ppi could not be downsampled faithfully (${reasons}).`;
  return out;
}

/** Why an image cannot be resampled faithfully, or null when it can. */
function unsupported(stream: PDFStream, space: ColourSpaceInfo | null): string | null {
  const d = stream.dict;
  if (getBool(d, 'ImageMask') === true) return 'image mask';
  if (d.has(name('F'))) return 'samples in an external file';
  const filters = streamFilters(stream);
  const codec = filters.map((f) => CODEC_NAMES[f]).find((n) => n !== undefined);
  if (codec) return codec;
  if (filters.some((f) => DCT.has(f)) && (filters.length !== 1 || getDict(d, 'DecodeParms')?.has(name('ColorTransform')))) return 'unusual JPEG encoding';
  const bits = getNumber(d, 'BitsPerComponent');
  if (bits === 16) return '16-bit';
  if (bits !== 8) return 'not 8-bit';
  if (!space || space.family === 'Indexed') return space ? 'Indexed' : 'no colour space';
  if (!RESAMPLABLE.has(space.family) || ![1, 3, 4].includes(space.components)) return `${space.family} colour space`;
  if (d.has(name('Decode'))) return 'Decode array';
  if (d.lookup(name('Mask')) instanceof PDFArray) return 'colour-key mask';
  return null;
}

/** The downsampled image stream, or why it was left. */
async function downsampleOne(context: PDFContext, c: Candidate, opts: DownsampleOptions, masks: MaskCache): Promise<PDFRawStream | string> {
  const d = c.stream.dict;
  const width = getNumber(d, 'Width') ?? 0;
  const height = getNumber(d, 'Height') ?? 0;
  const channels = c.colourSpace!.components;
  const jpeg = streamFilters(c.stream).some((f) => DCT.has(f));
  const raster = await readRaster(c.stream, jpeg, channels);
  if (!raster) return 'undecodable';
  // A JPEG whose size differs from its dictionary's is drawn differently by different readers.
  if (raster.width !== width || raster.height !== height) return 'size differs from its data';
  const newWidth = Math.min(width, Math.max(1, Math.ceil((width * opts.ppi) / c.ppiX - 1e-6)));
  const newHeight = Math.min(height, Math.max(1, Math.ceil((height * opts.ppi) / c.ppiY - 1e-6)));
  if (newWidth === width && newHeight === height) return 'already at the size';

  let smaskRef: PDFRef | undefined;
  const smaskObj = d.get(name('SMask'));
  const smask = d.lookup(name('SMask'));
  if (smask instanceof PDFStream) {
    const made = await resampledMask(context, smask, width, height, newWidth, newHeight, opts.quality, masks);
    // Without a Matte the mask may keep its own size (ISO 32000-1 11.6.5.3); with one it must match the image.
    if (!made && smask.dict.has(name('Matte'))) return 'soft mask unreadable';
    smaskRef = made ?? (smaskObj instanceof PDFRef ? smaskObj : undefined);
  }

  const encoded = await encode(await resample(raster, newWidth, newHeight), jpeg, opts.quality);
  const original = c.stream instanceof PDFRawStream ? c.stream.contents.length : Infinity;
  // Fewer pixels nearly always mean fewer bytes; when they do not (a JPEG saved at a very low quality), keep the original.
  if (encoded.bytes.length >= original) return 'not smaller when re-encoded';
  const dict = imageDict(d, newWidth, newHeight, encoded);
  if (smaskRef) dict.set(name('SMask'), smaskRef);
  return PDFRawStream.of(dict, encoded.bytes);
}

interface Encoded {
  bytes: Uint8Array;
  filter: 'DCTDecode' | 'FlateDecode';
  decodeParms: FlateImage['predictor'];
}

/** JPEG stays JPEG; everything else becomes Flate (lossless, like every filter we read). */
async function encode(r: Raster, jpeg: boolean, quality: number): Promise<Encoded> {
  if (jpeg) return { bytes: await encodeJpeg(r, quality), filter: 'DCTDecode', decodeParms: null };
  const flate = encodeFlate(r);
  return { bytes: flate.bytes, filter: 'FlateDecode', decodeParms: flate.predictor };
}

/** The 8-bit samples of an image stream, as a reader sees them; null when they cannot be read. */
async function readRaster(stream: PDFStream, jpeg: boolean, channels: number): Promise<Raster | null> {
  const width = getNumber(stream.dict, 'Width') ?? 0;
  const height = getNumber(stream.dict, 'Height') ?? 0;
  if (!(width > 0 && height > 0)) return null;
  if (jpeg) {
    const data = storedBytes(stream);
    return data ? decodeJpeg(data, channels) : null;
  }
  const decoded = decodeStream(stream).bytes;
  return decoded ? rasterFromSamples(decoded, width, height, channels) : null;
}

/** A DCT stream's JPEG bytes: decrypted when the document is, otherwise as stored. */
function storedBytes(stream: PDFStream): Uint8Array | null {
  if (!(stream instanceof PDFRawStream)) return stream.getContents();
  if (!stream.transform) return stream.contents;
  // decodeStream decrypts; a stream with the same bytes and no filter comes out just decrypted.
  return decodeStream(PDFRawStream.of(PDFDict.withContext(stream.dict.context), stream.contents, stream.transform)).bytes;
}

/**
 * The soft mask resampled with its image, as a new object (the old one may be
 * shared with an image that is not changed or changes to another size; what
 * nothing refers to any more leaves the file when autofix saves). Null when
 * the mask is not 8-bit gray samples we can read.
 */
async function resampledMask(context: PDFContext, mask: PDFStream, width: number, height: number, newWidth: number, newHeight: number, quality: number, made: MaskCache): Promise<PDFRef | null> {
  const md = mask.dict;
  const space = getName(md, 'ColorSpace');
  const filters = streamFilters(mask);
  if (getNumber(md, 'BitsPerComponent') !== 8 || (space !== undefined && space !== 'DeviceGray') || getBool(md, 'ImageMask') === true) return null;
  if (filters.some((f) => CODEC_NAMES[f]) || (filters.some((f) => DCT.has(f)) && filters.length !== 1)) return null;
  const jpeg = filters.some((f) => DCT.has(f));
  const raster = await readRaster(mask, jpeg, 1);
  if (!raster || raster.width !== (getNumber(md, 'Width') ?? 0) || raster.height !== (getNumber(md, 'Height') ?? 0)) return null;
  // A mask of the image's size follows it exactly; one of another size is scaled by the same factors (never up).
  const w = raster.width === width ? newWidth : Math.min(raster.width, Math.max(1, Math.ceil((raster.width * newWidth) / width)));
  const h = raster.height === height ? newHeight : Math.min(raster.height, Math.max(1, Math.ceil((raster.height * newHeight) / height)));
  let sizes = made.get(mask);
  if (!sizes) made.set(mask, (sizes = new Map()));
  const key = `${w}x${h}`;
  const known = sizes.get(key);
  if (known) return known;
  const small = w === raster.width && h === raster.height ? raster : await resample(raster, w, h);
  const encoded = await encode(small, jpeg, quality);
  const ref = context.register(PDFRawStream.of(imageDict(md, w, h, encoded), encoded.bytes));
  sizes.set(key, ref);
  return ref;
}

/** A copy of an image dictionary describing the new samples: size, 8 bits, one filter and its parameters. */
function imageDict(d: PDFDict, width: number, height: number, encoded: Encoded): PDFDict {
  const dict = d.clone(d.context);
  for (const key of ['DecodeParms', 'DP', 'DL']) dict.delete(name(key));
  dict.set(name('Width'), PDFNumber.of(width));
  dict.set(name('Height'), PDFNumber.of(height));
  dict.set(name('BitsPerComponent'), PDFNumber.of(8));
  dict.set(name('Filter'), PDFName.of(encoded.filter));
  if (encoded.decodeParms) dict.set(name('DecodeParms'), d.context.obj(encoded.decodeParms));
  dict.set(name('Length'), PDFNumber.of(encoded.bytes.length));
  return dict;
}

const kb = (n: number) => `${Math.round(n / 1024)} KB`;
