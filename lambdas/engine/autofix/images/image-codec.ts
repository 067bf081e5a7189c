/**
 * Sample-level work for images.downsample: an image XObject's 8-bit samples
 * as a PDF reader sees them, resampled to fewer pixels, and written back as
 * JPEG (DCTDecode) or Flate.
 *
 * The rule throughout is that no colour conversion ever happens: the values
 * that come out are the values a reader gets from the stream, averaged over
 * neighbouring pixels, nothing else. That rules out letting sharp near colour
 * management, so:
 * - JPEGs are decoded with keepIccProfile() (sharp would otherwise convert an
 *   embedded profile to sRGB; a PDF reader ignores that profile and takes the
 *   colour space from the image dictionary), and CMYK through a CMYK pipeline;
 * - resampling is done one channel at a time, each as a grey raster, so sharp
 *   never takes a fourth channel for alpha (it would premultiply CMYK's K);
 * - CMYK JPEGs are written from an uncompressed CMYK TIFF built here, the only
 *   raw form sharp takes as CMYK without converting it from sRGB.
 *
 * Adobe's CMYK JPEGs: Photoshop stores CMYK inverted and marks it with an
 * APP14 "Adobe" segment; libvips writes CMYK the same way and inverts CMYK
 * JPEGs when it reads them (the libvips in our sharp does so with or without
 * the marker; older ones only with it, so cmykReadInverts() asks the library
 * in use rather than assume). PDF readers take the stored values as they are,
 * marker or not (pdf.js decodes JPEGs from PDFs with isSourcePDF: no
 * inversion; files that need one carry a Decode array, which this fix skips).
 * So the PDF's values are 255 − v for what sharp reads when it inverts, and
 * sharp is given 255 − the PDF's values to write.
 */
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { paeth } from '../../core/stream-predictors';

export interface Raster {
  width: number;
  height: number;
  /** 1 (gray), 3 (RGB-like) or 4 (CMYK-like). */
  channels: number;
  /** Interleaved 8-bit samples, rows top to bottom, as the PDF reader sees them. */
  data: Uint8Array;
}

/** sharp refuses images over ~268 Mpx by default; our own limits (decodeStream's caps) apply before this. */
const SHARP_OPTIONS = { limitInputPixels: false as const };

/** A DCTDecode stream's samples, or null when sharp cannot read it or it does not have `channels` components. */
export async function decodeJpeg(bytes: Uint8Array, channels: number): Promise<Raster | null> {
  try {
    let s = sharp(bytes, SHARP_OPTIONS).keepIccProfile();
    if (channels === 4) s = s.pipelineColourspace('cmyk').toColourspace('cmyk');
    else if (channels === 1) s = s.toColourspace('b-w');
    const meta = await sharp(bytes, SHARP_OPTIONS).metadata();
    // A JPEG whose components differ from the colour space's is one a reader would reject or misread: leave it.
    if ((meta.channels ?? 0) !== channels && !(channels === 1 && meta.space === 'b-w')) return null;
    const { data, info } = await s.raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== channels) return null;
    const out = new Uint8Array(data.buffer, data.byteOffset, data.length);
    if (channels === 4 && (await cmykReadInverts())[hasAdobeMarker(bytes) ? 'marked' : 'plain']) invert(out);
    return { width: info.width, height: info.height, channels, data: out };
  } catch {
    return null;
  }
}

/** Raw samples (Flate-decoded, predictors undone) into a raster; null when there are too few bytes. */
export function rasterFromSamples(bytes: Uint8Array, width: number, height: number, channels: number): Raster | null {
  const size = width * height * channels;
  if (!(size > 0) || bytes.length < size) return null;
  return { width, height, channels, data: bytes.subarray(0, size) };
}

/** The raster at width × height, every channel resampled on its own (Lanczos 3, as sharp downsamples by default). */
export async function resample(r: Raster, width: number, height: number): Promise<Raster> {
  const planes: Uint8Array[] = [];
  const n = r.width * r.height;
  for (let c = 0; c < r.channels; c++) {
    let plane: Uint8Array;
    if (r.channels === 1) plane = r.data;
    else {
      plane = new Uint8Array(n);
      for (let i = 0, j = c; i < n; i++, j += r.channels) plane[i] = r.data[j]!;
    }
    // Without b-w, sharp hands a one-channel raster back as three sRGB channels.
    const { data, info } = await sharp(plane, { ...SHARP_OPTIONS, raw: { width: r.width, height: r.height, channels: 1 } })
      .resize(width, height, { fit: 'fill' })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1 || data.length !== width * height) throw new Error(`resampling gave ${info.channels} channels of ${info.width} × ${info.height}`);
    planes.push(new Uint8Array(data.buffer, data.byteOffset, data.length));
  }
  if (r.channels === 1) return { width, height, channels: 1, data: planes[0]! };
  const out = new Uint8Array(width * height * r.channels);
  for (let c = 0; c < r.channels; c++) {
    const plane = planes[c]!;
    for (let i = 0, j = c; i < plane.length; i++, j += r.channels) out[j] = plane[i]!;
  }
  return { width, height, channels: r.channels, data: out };
}

/** The raster as a baseline JPEG at `quality`, storing exactly its values (see the module comment for CMYK). */
export async function encodeJpeg(r: Raster, quality: number): Promise<Uint8Array> {
  if (r.channels === 4) {
    const given = new Uint8Array(r.data);
    invert(given);
    return encodeJpegRaw(given, r.width, r.height, quality);
  }
  let s = sharp(r.data, { ...SHARP_OPTIONS, raw: { width: r.width, height: r.height, channels: r.channels as 1 | 3 } });
  // Without b-w sharp writes a gray raster as a three-component JPEG.
  if (r.channels === 1) s = s.toColourspace('b-w');
  // Baseline, no progressive scans or mozjpeg tricks: every PDF reader reads it.
  const buf = await s.jpeg({ quality, progressive: false, mozjpeg: false }).toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}

/** A CMYK JPEG as libvips writes one from the given values: stored inverted, with an Adobe marker. */
async function encodeJpegRaw(cmyk: Uint8Array, width: number, height: number, quality: number): Promise<Uint8Array> {
  const buf = await sharp(cmykTiff(cmyk, width, height), SHARP_OPTIONS).pipelineColourspace('cmyk').toColourspace('cmyk').jpeg({ quality, progressive: false, mozjpeg: false }).toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}

/** The JPEG without its APP14 Adobe segment (or as it is when it has none). */
function withoutAdobeMarker(jpeg: Uint8Array): Uint8Array {
  const at = adobeSegment(jpeg);
  if (!at) return jpeg;
  const out = new Uint8Array(jpeg.length - at.length);
  out.set(jpeg.subarray(0, at.start));
  out.set(jpeg.subarray(at.start + at.length), at.start);
  return out;
}

export interface FlateImage {
  bytes: Uint8Array;
  /** PNG predictor parameters (DecodeParms) when the rows were filtered, else null. */
  predictor: { Predictor: number; Colors: number; BitsPerComponent: number; Columns: number } | null;
}

/**
 * The raster's samples Flate-compressed, with PNG row filters when that is
 * smaller: smooth photographic samples compress to about half with them (which
 * is why most writers use them), flat synthetic ones may not gain.
 */
export function encodeFlate(r: Raster, level = 9): FlateImage {
  const plain = deflateSync(r.data, { level });
  const filtered = deflateSync(pngRows(r), { level });
  if (plain.length <= filtered.length) return { bytes: new Uint8Array(plain), predictor: null };
  return { bytes: new Uint8Array(filtered), predictor: { Predictor: 15, Colors: r.channels, BitsPerComponent: 8, Columns: r.width } };
}

/**
 * PNG filtering (RFC 2083 6): each row gets the filter (None, Sub, Up, Average
 * or Paeth) whose output has the smallest sum of absolute values, the usual
 * heuristic; the filter type byte leads the row.
 */
function pngRows(r: Raster): Uint8Array {
  const bpp = r.channels;
  const stride = r.width * bpp;
  const out = new Uint8Array(r.height * (stride + 1));
  const candidate = new Uint8Array(stride);
  const best = new Uint8Array(stride);
  const zero = new Uint8Array(stride);
  for (let y = 0; y < r.height; y++) {
    const row = r.data.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? r.data.subarray((y - 1) * stride, y * stride) : zero;
    let bestType = 0;
    let bestSum = Infinity;
    for (let type = 0; type <= 4; type++) {
      let sum = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? row[i - bpp]! : 0;
        const b = up[i]!;
        const c = i >= bpp ? up[i - bpp]! : 0;
        const pred = type === 0 ? 0 : type === 1 ? a : type === 2 ? b : type === 3 ? (a + b) >> 1 : paeth(a, b, c);
        const v = (row[i]! - pred) & 0xff;
        candidate[i] = v;
        sum += v < 128 ? v : 256 - v;
      }
      if (sum < bestSum) {
        bestSum = sum;
        bestType = type;
        best.set(candidate);
      }
    }
    out[y * (stride + 1)] = bestType;
    out.set(best, y * (stride + 1) + 1);
  }
  return out;
}


let readInverts: Promise<{ marked: boolean; plain: boolean }> | undefined;

/**
 * Whether sharp inverts the CMYK JPEGs it reads, with and without an Adobe
 * marker: asked once of the library itself, by writing a tiny CMYK JPEG
 * (which it stores inverted, with the marker) and reading it back as written
 * and with the marker taken out.
 */
export function cmykReadInverts(): Promise<{ marked: boolean; plain: boolean }> {
  readInverts ??= (async () => {
    const jpeg = await encodeJpegRaw(new Uint8Array(8 * 8 * 4).fill(40), 8, 8, 100);
    // The file holds 215 (stored inverted); a reader that inverts gives back 40.
    const back = async (bytes: Uint8Array) => (await sharp(bytes).pipelineColourspace('cmyk').toColourspace('cmyk').raw().toBuffer())[0]!;
    return { marked: Math.abs((await back(jpeg)) - 40) < 20, plain: Math.abs((await back(withoutAdobeMarker(jpeg))) - 40) < 20 };
  })();
  return readInverts;
}

function invert(data: Uint8Array): void {
  for (let i = 0; i < data.length; i++) data[i] = 255 - data[i]!;
}

/** An APP14 segment starting "Adobe" among the JPEG's header segments (before the scan). */
export function hasAdobeMarker(jpeg: Uint8Array): boolean {
  return adobeSegment(jpeg) !== null;
}

function adobeSegment(jpeg: Uint8Array): { start: number; length: number } | null {
  let i = 2;
  while (i + 4 <= jpeg.length) {
    if (jpeg[i] !== 0xff) return null;
    const marker = jpeg[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null;
    const len = (jpeg[i + 2]! << 8) | jpeg[i + 3]!;
    if (marker === 0xee && len >= 7 && String.fromCharCode(...jpeg.subarray(i + 4, i + 9)) === 'Adobe') return { start: i, length: 2 + len };
    i += 2 + len;
  }
  return null;
}

/** A little-endian, uncompressed, chunky CMYK TIFF (PhotometricInterpretation 5, InkSet CMYK). */
function cmykTiff(data: Uint8Array, width: number, height: number): Uint8Array {
  // [tag, type (3 SHORT, 4 LONG), count, value]; 258 and 273 point into the file and are filled in below.
  const entries: [number, number, number, number][] = [
    [256, 4, 1, width],
    [257, 4, 1, height],
    [258, 3, 4, 0],
    [259, 3, 1, 1],
    [262, 3, 1, 5],
    [273, 4, 1, 0],
    [277, 3, 1, 4],
    [278, 4, 1, height],
    [279, 4, 1, data.length],
    [284, 3, 1, 1],
    [332, 3, 1, 1],
  ];
  const ifdAt = 8;
  const bitsAt = ifdAt + 2 + entries.length * 12 + 4;
  const dataAt = bitsAt + 8;
  const buf = Buffer.alloc(dataAt + data.length);
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(ifdAt, 4);
  buf.writeUInt16LE(entries.length, ifdAt);
  entries.forEach(([tag, type, count, value], i) => {
    const at = ifdAt + 2 + i * 12;
    buf.writeUInt16LE(tag, at);
    buf.writeUInt16LE(type, at + 2);
    buf.writeUInt32LE(count, at + 4);
    const v = tag === 258 ? bitsAt : tag === 273 ? dataAt : value;
    if (type === 3 && count === 1) buf.writeUInt16LE(v, at + 8);
    else buf.writeUInt32LE(v, at + 8);
  });
  for (let i = 0; i < 4; i++) buf.writeUInt16LE(8, bitsAt + i * 2);
  buf.set(data, dataAt);
  return buf;
}
