/**
 * Fixtures for the image fixes: pages that place image XObjects built here
 * (JPEG through sharp, Flate with or without a PNG predictor, optional soft
 * mask) at known sizes, so their effective resolution is known exactly, and
 * the measurements the tests use (running a fix as the engine does, reading an
 * image back, rendering, text, preflight, qpdf).
 */
import { deflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFStream, StandardFonts } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { getNumber, streamFilters } from '../../../../../lambdas/engine/core/pdf-objects';

export type Space = 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK';
const CHANNELS: Record<Space, 1 | 3 | 4> = { DeviceGray: 1, DeviceRGB: 3, DeviceCMYK: 4 };

/**
 * Smooth, photo-like samples: each channel a different diagonal ramp with a
 * gentle wave, so downsampling keeps the look (a test of the fix, not of
 * aliasing) and each channel's position shows if channels were swapped.
 */
export function samples(width: number, height: number, channels: number): Uint8Array {
  const out = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        const u = x / width;
        const v = y / height;
        const t = c % 2 === 0 ? 0.6 * u + 0.4 * v : 0.3 * u + 0.7 * (1 - v);
        const value = (0.15 + 0.6 * t + 0.1 * Math.sin((u * 3 + v * 2 + c) * Math.PI)) * 255;
        out[(y * width + x) * channels + c] = Math.max(0, Math.min(255, Math.round(value)));
      }
    }
  }
  return out;
}

/** A baseline JPEG of the samples; CMYK ones as sharp writes them (inverted, Adobe marker) unless `adobe` is false. */
export async function jpegOf(data: Uint8Array, width: number, height: number, channels: 1 | 3 | 4, opts: { adobe?: boolean } = {}): Promise<Uint8Array> {
  if (channels !== 4) {
    let s = sharp(data, { raw: { width, height, channels } });
    if (channels === 1) s = s.toColourspace('b-w');
    return new Uint8Array(await s.jpeg({ quality: 95 }).toBuffer());
  }
  // No raw CMYK input in sharp: a one-strip CMYK TIFF, written through a CMYK pipeline (no conversion).
  // sharp stores CMYK inverted (as Photoshop does): give it the inverse so the stored values, which PDF readers take as they are, are `data`.
  const stored = data.map((v) => 255 - v);
  const jpeg = new Uint8Array(await sharp(cmykTiff(stored, width, height)).pipelineColourspace('cmyk').toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer());
  return opts.adobe === false ? withoutAdobeMarker(jpeg) : jpeg;
}

/** A JPEG with its APP14 Adobe segment removed: plain CMYK as other writers than Adobe's store it (libvips then does not invert it on reading). */
function withoutAdobeMarker(jpeg: Uint8Array): Uint8Array {
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff) {
    const len = (jpeg[i + 2]! << 8) | jpeg[i + 3]!;
    if (jpeg[i + 1] === 0xee) return new Uint8Array([...jpeg.subarray(0, i), ...jpeg.subarray(i + 2 + len)]);
    i += 2 + len;
  }
  throw new Error('no APP14 segment');
}

function cmykTiff(data: Uint8Array, width: number, height: number): Buffer {
  const entries: [number, number, number][] = [[256, 4, width], [257, 4, height], [258, 3, 0], [259, 3, 1], [262, 3, 5], [273, 4, 0], [277, 3, 4], [278, 4, height], [279, 4, data.length], [284, 3, 1]];
  const bitsAt = 8 + 2 + entries.length * 12 + 4;
  const dataAt = bitsAt + 8;
  const buf = Buffer.alloc(dataAt + data.length);
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(8, 4);
  buf.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    buf.writeUInt16LE(tag, at);
    buf.writeUInt16LE(type, at + 2);
    buf.writeUInt32LE(tag === 258 ? 4 : 1, at + 4);
    const v = tag === 258 ? bitsAt : tag === 273 ? dataAt : value;
    if (type === 3 && tag !== 258) buf.writeUInt16LE(v, at + 8);
    else buf.writeUInt32LE(v, at + 8);
  });
  for (let i = 0; i < 4; i++) buf.writeUInt16LE(8, bitsAt + i * 2);
  buf.set(data, dataAt);
  return buf;
}

/** Rows with a PNG "Sub" filter byte (Predictor 15 streams), the way Acrobat and others write them. */
export function pngPredicted(data: Uint8Array, width: number, height: number, channels: number): Uint8Array {
  const row = width * channels;
  const out = new Uint8Array(height * (row + 1));
  for (let y = 0; y < height; y++) {
    out[y * (row + 1)] = 1;
    for (let i = 0; i < row; i++) {
      const left = i >= channels ? data[y * row + i - channels]! : 0;
      out[y * (row + 1) + 1 + i] = (data[y * row + i]! - left) & 0xff;
    }
  }
  return out;
}

export interface ImageSpec {
  width: number;
  height: number;
  space: Space;
  filter: 'DCTDecode' | 'FlateDecode';
  /** Flate only: PNG predictor 15 (Sub rows). */
  predictor?: boolean;
  /** CMYK JPEG only: keep the Adobe marker (default) or write plain CMYK. */
  adobe?: boolean;
  /** A soft mask of the image's size (Flate, 8-bit gray). */
  smask?: boolean;
  /** Extra dictionary entries (Decode, BitsPerComponent…). */
  extra?: Record<string, unknown>;
}

/** Registers an image XObject as the spec says; its samples are samples(width, height, channels). */
export async function imageXObject(doc: PDFDocument, spec: ImageSpec): Promise<PDFRef> {
  const channels = CHANNELS[spec.space];
  const data = samples(spec.width, spec.height, channels);
  const dict: Record<string, unknown> = {
    Type: 'XObject',
    Subtype: 'Image',
    Width: spec.width,
    Height: spec.height,
    ColorSpace: spec.space,
    BitsPerComponent: 8,
    Filter: spec.filter,
  };
  let bytes: Uint8Array;
  if (spec.filter === 'DCTDecode') bytes = await jpegOf(data, spec.width, spec.height, channels, { adobe: spec.adobe });
  else if (spec.predictor) {
    bytes = deflateSync(pngPredicted(data, spec.width, spec.height, channels));
    dict.DecodeParms = { Predictor: 15, Colors: channels, Columns: spec.width, BitsPerComponent: 8 };
  } else bytes = deflateSync(data);
  if (spec.smask) {
    const mask = new Uint8Array(spec.width * spec.height);
    // Opaque in the middle, fading to transparent at the left and right edges.
    for (let y = 0; y < spec.height; y++) for (let x = 0; x < spec.width; x++) mask[y * spec.width + x] = Math.round(255 * Math.min(1, (2 * Math.min(x, spec.width - x)) / spec.width * 1.5));
    const maskDict = doc.context.obj({ Type: 'XObject', Subtype: 'Image', Width: spec.width, Height: spec.height, ColorSpace: 'DeviceGray', BitsPerComponent: 8, Filter: 'FlateDecode' } as never) as unknown as PDFDict;
    dict.SMask = doc.context.register(PDFRawStream.of(maskDict, deflateSync(mask)));
  }
  Object.assign(dict, spec.extra ?? {});
  for (const [k, v] of Object.entries(dict)) if (v === undefined) delete dict[k];
  return doc.context.register(PDFRawStream.of(doc.context.obj(dict as never) as unknown as PDFDict, bytes));
}

export interface Placement {
  /** Resource name on the page. */
  key: string;
  image: PDFRef;
  /** Placed size and position, in points. */
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A page (A4) per entry, placing the images and showing `text` in Helvetica. */
export async function imagePdf(build: (doc: PDFDocument) => Promise<Placement[][]>, text = 'Downsampled images stay readable'): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const placements of await build(doc)) {
    const page = doc.addPage([595.28, 841.89]);
    const xobjects: Record<string, PDFRef> = {};
    let content = `BT /F1 14 Tf 40 800 Td (${text}) Tj ET\n`;
    for (const p of placements) {
      xobjects[p.key] = p.image;
      content += `q ${p.w} 0 0 ${p.h} ${p.x} ${p.y} cm /${p.key} Do Q\n`;
    }
    page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F1: font.ref }, XObject: xobjects } as never));
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
  }
  return doc;
}

/** Points for `px` pixels at `ppi`. */
export const ptAt = (px: number, ppi: number): number => (px / ppi) * 72;

export { runFix, type FixRun } from '../fixtures-common';

export interface ImageInfo {
  width: number;
  height: number;
  bits: number | undefined;
  filter: string[];
  /** DecodeParms as written, if any. */
  decodeParms: string | undefined;
  colorSpace: string | undefined;
  smask: PDFStream | undefined;
  bytes: number;
}

/** An image XObject named in a page's resources, as stored. */
export function imageStream(doc: PDFDocument, pageIndex: number, key: string): PDFRawStream {
  const xobjects = doc.getPage(pageIndex).node.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('XObject'), PDFDict);
  const s = xobjects.lookup(PDFName.of(key));
  if (!(s instanceof PDFRawStream)) throw new Error(`${key} is not a stored stream`);
  return s;
}

/** What an image XObject named on a page looks like now. */
export function imageInfo(doc: PDFDocument, pageIndex: number, key: string): ImageInfo {
  const s = imageStream(doc, pageIndex, key);
  const smask = s.dict.lookup(PDFName.of('SMask'));
  return {
    width: getNumber(s.dict, 'Width')!,
    height: getNumber(s.dict, 'Height')!,
    bits: getNumber(s.dict, 'BitsPerComponent'),
    filter: streamFilters(s),
    decodeParms: s.dict.lookup(PDFName.of('DecodeParms'))?.toString(),
    colorSpace: s.dict.lookup(PDFName.of('ColorSpace'))?.toString(),
    smask: smask instanceof PDFStream ? smask : undefined,
    bytes: s.contents.length,
  };
}

export { pageTexts, preflightChecks, qpdfCheck } from '../fixtures-common';
