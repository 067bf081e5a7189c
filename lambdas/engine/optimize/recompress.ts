/**
 * streams.recompress: every stream whose filters are all lossless ones we can
 * decode (Flate, LZW, ASCII85, ASCIIHex, RunLength, or none at all) is decoded
 * and compressed again with Flate at the requested zlib level, and replaced
 * when that is smaller than what the file holds. The decoded bytes, which are
 * all a reader ever sees, stay exactly the same: nothing about the page can
 * change.
 *
 * Image samples of 8 bits per component also get PNG row filters when those
 * make them smaller (image-codec's encodeFlate, the one images.downsample
 * writes with). Streams left as they are:
 * - image codecs (DCT, JPX, JBIG2, CCITT): lossy, or already far better than
 *   Flate; a JPEG is never re-encoded here (images.downsample re-encodes only
 *   the JPEGs it resamples);
 * - streams with data in an external file, or that cannot be decoded within
 *   the decoding limits;
 * - an uncompressed XMP metadata stream: PDF/A-1 forbids a filter on it, and
 *   tools that are not PDF readers find it by scanning the file;
 * - cross-reference and object streams (the writer makes its own).
 */
import { deflateSync } from 'node:zlib';
import { PDFDict, PDFName, PDFNumber, PDFRawStream, type PDFDocument } from '@cantoo/pdf-lib';
import { getName, getNumber, name, streamFilters } from '../core/pdf-objects';
import { decodeStream } from '../core/stream-decode';
import { isStructuralStream } from '../core/writer/indirect-object';
import { encodeFlate, rasterFromSamples } from '../autofix/images/image-codec';

export interface RecompressOutcome {
  /** Streams replaced by a smaller Flate encoding. */
  streams: number;
  /** Stored bytes of those streams before and after. */
  bytesBefore: number;
  bytesAfter: number;
}

const LOSSLESS = new Set(['FlateDecode', 'Fl', 'LZWDecode', 'LZW', 'ASCII85Decode', 'A85', 'ASCIIHexDecode', 'AHx', 'RunLengthDecode', 'RL']);

export function recompressStreams(doc: PDFDocument, level: number): RecompressOutcome {
  const out: RecompressOutcome = { streams: 0, bytesBefore: 0, bytesAfter: 0 };
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream) || isStructuralStream(obj) || !eligible(obj)) continue;
    const decoded = decodeStream(obj).bytes;
    if (!decoded) continue;
    const stored = obj.contents.length;
    const encoded = smallestFlate(obj.dict, decoded, level);
    if (encoded.bytes.length >= stored) continue;
    doc.context.assign(ref, PDFRawStream.of(flateDict(obj.dict, encoded), encoded.bytes));
    out.streams++;
    out.bytesBefore += stored;
    out.bytesAfter += encoded.bytes.length;
  }
  return out;
}

function eligible(stream: PDFRawStream): boolean {
  const { dict } = stream;
  if (dict.has(name('F'))) return false;
  const filters = streamFilters(stream);
  if (!filters.every((f) => LOSSLESS.has(f))) return false;
  // A filter name we could not read (not a name) counts as one we do not know.
  const declared = dict.lookup(name('Filter'));
  if (declared !== undefined && filters.length === 0 && !(declared instanceof PDFName)) return false;
  if (filters.length === 0 && getName(dict, 'Type') === 'Metadata') return false;
  return true;
}

interface Encoded {
  bytes: Uint8Array;
  predictor: Record<string, number> | null;
}

/** Plain Flate, or for 8-bit image samples Flate over PNG-filtered rows when that is smaller. */
function smallestFlate(dict: PDFDict, decoded: Uint8Array, level: number): Encoded {
  const channels = imageChannels(dict, decoded.length);
  if (channels !== null) {
    const raster = rasterFromSamples(decoded, getNumber(dict, 'Width')!, getNumber(dict, 'Height')!, channels);
    if (raster) {
      const flate = encodeFlate(raster, level);
      return { bytes: flate.bytes, predictor: flate.predictor };
    }
  }
  return { bytes: new Uint8Array(deflateSync(decoded, { level })), predictor: null };
}

/**
 * The samples per pixel of an 8-bit image whose decoded data is exactly its
 * pixels (width × height × channels, 1 to 4 channels), else null: PNG rows need
 * the row length, and data of any other length is better left byte for byte.
 */
function imageChannels(dict: PDFDict, length: number): number | null {
  if (getName(dict, 'Subtype') !== 'Image' || getNumber(dict, 'BitsPerComponent') !== 8) return null;
  const width = getNumber(dict, 'Width') ?? 0;
  const height = getNumber(dict, 'Height') ?? 0;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) return null;
  const channels = length / (width * height);
  return Number.isInteger(channels) && channels >= 1 && channels <= 4 ? channels : null;
}

/** The stream's dictionary for its new data: one FlateDecode filter, its predictor if any, the new length. */
function flateDict(d: PDFDict, encoded: Encoded): PDFDict {
  const dict = d.clone(d.context);
  for (const key of ['Filter', 'DecodeParms', 'DP', 'DL']) dict.delete(name(key));
  dict.set(name('Filter'), PDFName.of('FlateDecode'));
  if (encoded.predictor) dict.set(name('DecodeParms'), d.context.obj(encoded.predictor));
  dict.set(name('Length'), PDFNumber.of(encoded.bytes.length));
  return dict;
}
