/**
 * Stream data read on demand. A stream parsed by the lazy reader is a
 * PDFRawStream whose `contents` is a getter: the first access reads the data
 * from the source (decrypting it for an encrypted file), and the bytes are then
 * held in a cache bounded in bytes, least recently used first out, so a
 * 500 MB file of images never has more than the bound in memory at once.
 * Assigning `contents` (autofix replacing a stream) turns it into a plain value.
 *
 * Where the data ends: /Length when the `endstream` keyword follows it there
 * (ISO 32000-1 7.3.8.1); otherwise (a wrong /Length, or an indirect one
 * whose object is missing) the data runs to the next `endstream`, the way
 * pdf-lib's whole-file parser and other readers recover.
 */
import { PDFNumber, PDFRawStream, PDFRef, type PDFContext, type PDFDict } from '@cantoo/pdf-lib';
import { MemorySource, type ByteSource } from './byte-source';
import { internedName } from './interned-objects';
import { isWhite, type CipherFactory } from './object-parse';

const LENGTH = internedName('Length', false);

const MiB = 1024 * 1024;
export const DEFAULT_STREAM_CACHE_BYTES = 64 * MiB;

/** Bytes keyed by stream, evicting the least recently used past `limit` bytes. */
export class StreamCache {
  private readonly entries = new Map<object, Uint8Array>();
  private total = 0;
  constructor(private readonly limit = DEFAULT_STREAM_CACHE_BYTES) {}

  get(key: object): Uint8Array | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  put(key: object, bytes: Uint8Array): void {
    this.drop(key);
    // One stream larger than the whole cache is returned but not kept.
    if (bytes.length > this.limit) return;
    this.entries.set(key, bytes);
    this.total += bytes.length;
    for (const [k, v] of this.entries) {
      if (this.total <= this.limit) break;
      this.entries.delete(k);
      this.total -= v.length;
    }
  }

  drop(key: object): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.length;
    }
  }

  get bytes(): number {
    return this.total;
  }
}

export interface StreamReading {
  source: ByteSource;
  context: PDFContext;
  cache: StreamCache;
  /** Set when the file is encrypted: the data of `ref` is decrypted with it. */
  crypto?: CipherFactory;
  /** Counts bytes read from the source for stream data (tests prove laziness with it). */
  stats?: { streamBytesRead: number };
}

/** Where a lazy stream's data is and how it is read; dropped once the program assigns its contents. */
interface PendingData {
  dataStart: number;
  ref: PDFRef | undefined;
  reading: StreamReading;
  /** False when the data is a view of bytes already in memory (no cache needed). */
  cached: boolean;
}

/** pdf-lib types its constructor as private (PDFRawStream.of is the public way); the class is extended all the same. */
type RawStreamConstructor = new (dict: PDFDict, contents: Uint8Array) => PDFRawStream;

/**
 * A PDFRawStream whose `contents` is an accessor of the class (defined once on
 * the prototype below, not per object: a file holds thousands of streams, and
 * per-object accessors and closures were a visible share of reading them).
 */
class LazyRawStream extends (PDFRawStream as unknown as RawStreamConstructor) {
  declare pending: PendingData | undefined;

  constructor(dict: PDFDict, pending: PendingData) {
    // PDFRawStream's constructor assigns `contents`: the setter below ignores
    // that while `pending` is not yet set.
    super(dict, new Uint8Array(0));
    this.pending = pending;
  }
}

Object.defineProperty(LazyRawStream.prototype, 'contents', {
  configurable: true,
  enumerable: true,
  get(this: LazyRawStream): Uint8Array {
    const pending = this.pending!;
    if (!pending.cached) return readData(this.dict, pending);
    let data = pending.reading.cache.get(this);
    if (!data) {
      data = readData(this.dict, pending);
      pending.reading.cache.put(this, data);
    }
    return data;
  },
  set(this: LazyRawStream, value: Uint8Array) {
    const pending = this.pending;
    if (pending === undefined) return;
    pending.reading.cache.drop(this);
    Object.defineProperty(this, 'contents', { value, writable: true, configurable: true, enumerable: true });
  },
});

function readData(dict: PDFDict, { dataStart, ref, reading }: PendingData): Uint8Array {
  const length = declaredLength(dict, reading.context);
  const extent = streamLength(reading.source, dataStart, length);
  let data = reading.source.read(dataStart, extent);
  if (reading.stats) reading.stats.streamBytesRead += data.length;
  // A view of a cached block is copied: it would keep the whole block alive,
  // and a closed file's blocks are reused for the next file (byte-source.ts).
  if (!(reading.source instanceof MemorySource) && data.byteLength < data.buffer.byteLength) data = data.slice();
  if (reading.crypto && ref) data = reading.crypto.createCipherTransform(ref.objectNumber, ref.generationNumber).decryptBytes(data);
  return data;
}

/** A PDFRawStream whose data is read from `dataStart` when first asked for. */
export function lazyStream(dict: PDFDict, dataStart: number, ref: PDFRef | undefined, reading: StreamReading): PDFRawStream {
  // In memory and not encrypted, the data is a view of bytes already held: no cache needed.
  const cached = !(reading.source instanceof MemorySource) || reading.crypto !== undefined;
  return new LazyRawStream(dict, { dataStart, ref, reading, cached });
}

function declaredLength(dict: PDFDict, context: PDFContext): number | undefined {
  let length = dict.get(LENGTH);
  if (length instanceof PDFRef) length = context.lookup(length);
  if (!(length instanceof PDFNumber)) return undefined;
  const n = length.asNumber();
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

const ENDSTREAM = Buffer.from('endstream', 'latin1');
const SCAN_CHUNK = 1 * MiB;

/**
 * The length of the data at `dataStart`: `declared` when `endstream` follows
 * it (after optional white space), else up to the next `endstream` less the
 * end-of-line before it, else to the end of the file.
 */
export function streamLength(source: ByteSource, dataStart: number, declared: number | undefined): number {
  if (declared !== undefined && dataStart + declared <= source.size) {
    const tail = source.read(dataStart + declared, 64);
    let i = 0;
    while (i < tail.length && isWhite(tail[i])) i++;
    if (Buffer.from(tail.buffer, tail.byteOffset + i, Math.min(ENDSTREAM.length, tail.length - i)).equals(ENDSTREAM)) return declared;
    // Truncated right after the data: trust /Length.
    if (dataStart + declared === source.size) return declared;
  }
  for (let at = dataStart; at < source.size; at += SCAN_CHUNK) {
    const chunk = source.read(at, SCAN_CHUNK + ENDSTREAM.length);
    const found = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).indexOf(ENDSTREAM);
    if (found >= 0) {
      let end = at + found;
      const before = source.read(Math.max(dataStart, end - 2), end - Math.max(dataStart, end - 2));
      if (before[before.length - 1] === 0x0a) end--;
      if (before[before.length - 1] === 0x0a && before[before.length - 2] === 0x0d) end--;
      else if (before[before.length - 1] === 0x0d) end--;
      return Math.max(0, end - dataStart);
    }
  }
  return Math.max(0, source.size - dataStart);
}
