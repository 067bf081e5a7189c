/**
 * Decoding of PDF streams with bounded output, so a decompression bomb (a few
 * kilobytes of Flate that inflate to gigabytes) is a stream we cannot read, not
 * an engine that runs out of memory. Every engine decodes through here
 * (pdf-objects.ts streamBytes).
 *
 * FlateDecode, by far the most common filter, goes through zlib with
 * maxOutputLength: native, several times faster than pdf-lib's JavaScript
 * inflater, and it stops at the cap instead of growing a buffer without end.
 * Other filters pdf-lib can decode (LZW, ASCII85, ASCIIHex, RunLength) use its
 * decoders, read block by block so the cap is checked as the output grows.
 * PNG and TIFF predictors (DecodeParms /Predictor, which pdf-lib ignores) are
 * applied here. Image codecs (DCT, JPX, JBIG2, CCITT) are not decoded.
 *
 * Besides the cap per stream there is a budget per document: the sum of all
 * bytes decoded from one document's streams, so a file of ten thousand streams
 * each just under the cap ends in a stated limit rather than the time budget.
 */
import { constants as zlibConstants, inflateRawSync, inflateSync } from 'node:zlib';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFName,
  PDFRawStream,
  type PDFContext,
  type PDFObject,
  type PDFStream,
} from '@cantoo/pdf-lib';
import { nameText } from './name-text';
import { applyPredictor } from './stream-predictors';

const MiB = 1024 * 1024;

export interface DecodeLimits {
  /** Largest decoded size of one stream. */
  maxStreamBytes: number;
  /** Largest total of decoded bytes over all streams of one document. */
  maxDocumentBytes: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxStreamBytes: 256 * MiB, maxDocumentBytes: 4096 * MiB };

let limits: DecodeLimits = DEFAULT_DECODE_LIMITS;

/** Sets the limits for this thread (the guard passes them to its engine thread). */
export function setDecodeLimits(next: Partial<DecodeLimits>): void {
  limits = { ...DEFAULT_DECODE_LIMITS, ...next };
}

export function decodeLimits(): DecodeLimits {
  return limits;
}

/**
 * Why a stream could not be decoded: `stream-too-large` and `document-budget`
 * are limits; `unsupported` an image codec or unknown filter; `corrupt` data the
 * decoder rejects.
 */
export type UndecodableReason = 'stream-too-large' | 'document-budget' | 'unsupported' | 'corrupt';

export type DecodeResult = { bytes: Uint8Array; reason?: undefined } | { bytes: null; reason: UndecodableReason };

/** Bytes decoded so far per document. A WeakMap, so a finished document takes its count with it. */
const decodedPerDocument = new WeakMap<PDFContext, number>();

/** Thrown internally when a decoder passes the cap; never leaves this module. */
class OutputCapReached extends Error {}

/** Thrown internally for an image codec or a filter we do not know. */
class UnsupportedFilter extends Error {}

export function decodeStream(stream: PDFStream): DecodeResult {
  const context = stream.dict.context;
  const spent = decodedPerDocument.get(context) ?? 0;
  const remaining = limits.maxDocumentBytes - spent;
  if (remaining <= 0) return { bytes: null, reason: 'document-budget' };
  const cap = Math.min(limits.maxStreamBytes, remaining);

  let result: DecodeResult;
  try {
    result = { bytes: stream instanceof PDFRawStream ? decodeRaw(stream, cap) : stream.getContents() };
  } catch (err) {
    if (err instanceof OutputCapReached) {
      result = { bytes: null, reason: cap < limits.maxStreamBytes ? 'document-budget' : 'stream-too-large' };
    } else {
      result = { bytes: null, reason: err instanceof UnsupportedFilter ? 'unsupported' : 'corrupt' };
    }
  }
  if (result.bytes) {
    if (result.bytes.length > cap) {
      // Streams pdf-lib built in memory, or raw bytes with no filter at all:
      // counted like the rest, so the document budget holds.
      result = { bytes: null, reason: cap < limits.maxStreamBytes ? 'document-budget' : 'stream-too-large' };
    } else {
      decodedPerDocument.set(context, spent + result.bytes.length);
    }
  }
  return result;
}

const FLATE = new Set(['FlateDecode', 'Fl']);
const FILTER = PDFName.of('Filter');
const DECODE_PARMS = PDFName.of('DecodeParms');
const DP = PDFName.of('DP');
/** pdf-lib's decoders, under both the full and the inline-image abbreviated names. */
const PDF_LIB_FILTERS: Record<string, string> = {
  LZWDecode: 'LZWDecode',
  LZW: 'LZWDecode',
  ASCII85Decode: 'ASCII85Decode',
  A85: 'ASCII85Decode',
  ASCIIHexDecode: 'ASCIIHexDecode',
  AHx: 'ASCIIHexDecode',
  RunLengthDecode: 'RunLengthDecode',
  RL: 'RunLengthDecode',
};

function decodeRaw(stream: PDFRawStream, cap: number): Uint8Array {
  const { dict } = stream;
  let data: Uint8Array = stream.transform ? decrypt(stream) : stream.contents;
  const filters = listOf(dict.lookup(FILTER));
  const parms = listOf(dict.lookup(DECODE_PARMS) ?? dict.lookup(DP));
  for (let i = 0; i < filters.length; i++) {
    const filter = nameText(filters[i]);
    const parm = parms[i] instanceof PDFDict ? (parms[i] as PDFDict) : undefined;
    if (filter === undefined) throw new UnsupportedFilter();
    if (FLATE.has(filter)) data = inflateCapped(dict.context, data, cap);
    else if (PDF_LIB_FILTERS[filter]) data = pdfLibDecode(dict.context, data, PDF_LIB_FILTERS[filter], parm, cap);
    else throw new UnsupportedFilter();
    if (parm && (FLATE.has(filter) || filter === 'LZWDecode' || filter === 'LZW')) {
      const predicted = applyPredictor(data, parm);
      if (predicted === null) throw new UnsupportedFilter();
      data = predicted;
    }
  }
  if (data.length > cap) throw new OutputCapReached();
  return data === stream.contents ? data : compact(data);
}

/**
 * Decoded bytes in a buffer of their own size. zlib writes into chunks of at
 * least 8 KB and pdf-lib's decoders into buffers grown by doubling, and the
 * result is a view that keeps the whole chunk alive: a form of 60 bytes held
 * 8 KB for as long as the interpreter caches it, which is the whole document.
 * The copy lets the chunk go at the next minor GC, where its memory is reused
 * instead of fresh memory being touched (page faults, see byte-source.ts).
 */
function compact(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength * 2 < bytes.buffer.byteLength ? new Uint8Array(bytes) : bytes;
}

/** Filter and DecodeParms are a single object or an array of them. */
function listOf(obj: PDFObject | undefined): (PDFObject | undefined)[] {
  if (obj === undefined) return [];
  if (obj instanceof PDFArray) {
    const out: (PDFObject | undefined)[] = [];
    for (let i = 0; i < obj.size(); i++) out.push(obj.lookup(i));
    return out;
  }
  return [obj];
}

/** Streams of an encrypted document: pdf-lib's cipher, which keeps the size. */
function decrypt(stream: PDFRawStream): Uint8Array {
  const plain = PDFRawStream.of(PDFDict.withContext(stream.dict.context), stream.contents, stream.transform);
  return decodePDFRawStream(plain).decode();
}

const SYNC_FLUSH = { finishFlush: zlibConstants.Z_SYNC_FLUSH };
const MIN_CHUNK = 8 * 1024;
const MAX_CHUNK = 4 * 1024 * 1024;

/**
 * zlib, lenient the way PDF readers are: a truncated stream yields what it
 * holds (Z_SYNC_FLUSH), and a wrong Adler-32 checksum at the end (common in
 * real files) is tolerated by inflating the raw deflate data behind the header.
 * What zlib still rejects goes to pdf-lib's inflater, which accepts some damage
 * zlib does not (11 streams of the pdf.js corpus, e.g. in issue11651.pdf).
 */
function inflateCapped(context: PDFContext, data: Uint8Array, cap: number): Uint8Array {
  // Output is gathered in chunkSize pieces and joined at the end: a chunk near
  // the typical inflated size (content compresses 3–8×) saves most of the joins.
  // The floor stays small: zlib allocates a whole chunk up front for every call,
  // and a 64 KB chunk for each of a thousand 3 KB content streams cost more
  // than inflating them (fresh memory to fault in, external memory for the GC).
  const chunkSize = Math.min(Math.max(MIN_CHUNK, data.length * 4), MAX_CHUNK);
  const options = { ...SYNC_FLUSH, chunkSize, maxOutputLength: Math.max(1, cap + 1) };
  try {
    return inflateSync(data, options);
  } catch (err) {
    if (isCapError(err)) throw new OutputCapReached();
    try {
      return inflateRawSync(data.subarray(2), options);
    } catch (rawErr) {
      if (isCapError(rawErr)) throw new OutputCapReached();
      return pdfLibDecode(context, data, 'FlateDecode', undefined, cap);
    }
  }
}

const isCapError = (err: unknown): boolean => err instanceof RangeError && (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';

/** The pdf-lib decoder's internals this module reads to check the cap block by block. */
interface BlockDecoder {
  eof: boolean;
  bufferLength: number;
  buffer: Uint8Array;
  readBlock(): void;
}

function pdfLibDecode(context: PDFContext, data: Uint8Array, filter: string, parm: PDFDict | undefined, cap: number): Uint8Array {
  const dict = PDFDict.withContext(context);
  dict.set(PDFName.of('Filter'), PDFName.of(filter));
  if (parm) dict.set(PDFName.of('DecodeParms'), parm);
  const decoder = decodePDFRawStream(PDFRawStream.of(dict, data)) as unknown as BlockDecoder;
  while (!decoder.eof) {
    decoder.readBlock();
    if (decoder.bufferLength > cap) throw new OutputCapReached();
  }
  return decoder.buffer.subarray(0, decoder.bufferLength);
}
