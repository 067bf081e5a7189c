/**
 * pdf-lib's object table, filled on demand. PDFContext keeps every indirect
 * object in a private Map (`indirectObjects`) and reads it through `get`,
 * `set`, `delete` and iteration only; LazyObjectMap is a Map whose `get`
 * parses the object from the file the first time it is asked for, from the
 * offset the cross-reference index gives (or from its object stream), and
 * whose iteration (enumerateIndirectObjects, used by validation and autofix)
 * parses every object the index lists, still without reading stream data.
 * `set` and `delete` behave as on any Map, so documents stay editable: an
 * object set or deleted is never read from the file again.
 *
 * ObjectLoader does the reading. When an offset does not hold the object the
 * index says it holds, the index is rebuilt once by scanning the file
 * (xref-reconstruct.ts) and the lookup is tried again against it, as pdf.js does.
 */
import { PDFContext, PDFNumber, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import { decodeStream } from '../stream-decode';
import type { ByteSource } from './byte-source';
import { isDigit, isWhite, parseIndirectAt, parseObjectIn, type CipherFactory, type StreamFound } from './object-parse';
import { lazyStream, StreamCache, type StreamReading } from './stream-data';
import { internedName, internedRef } from './interned-objects';
import { addObjectStreamMembers, scanFile, type ScannedFile } from './xref-reconstruct';
import type { XrefEntry } from './xref-read';

const TYPE = internedName('Type', false);
const XREF = internedName('XRef', false);
const FIRST = internedName('First', false);
const N = internedName('N', false);

export interface ReaderStats {
  /** Indirect objects parsed from the file or from object streams. */
  objectsParsed: number;
  /** Bytes of stream data read from the source. */
  streamBytesRead: number;
}

interface Loaded {
  gen: number;
  object: PDFObject;
}

/** One object stream, decoded: its bytes and where each member starts. */
interface DecodedObjectStream {
  bytes: Uint8Array;
  members: { num: number; at: number }[];
}

export class ObjectLoader {
  entries: Map<number, XrefEntry> = new Map();
  scanned: ScannedFile | null = null;
  /** Object numbers not decrypted: the encryption dictionary's own. */
  readonly plain = new Set<number>();
  readonly stats: ReaderStats = { objectsParsed: 0, streamBytesRead: 0 };
  readonly reading: StreamReading;
  /** Called when the index is rebuilt (the opener records a repair). */
  onReconstruct: (() => void) | undefined;
  /** Called with the number of an object only the lenient parse could read (the opener records a repair). */
  onRecovered: ((num: number) => void) | undefined;
  private readonly objectStreams = new Map<number, DecodedObjectStream | null>();
  private readonly onStream: StreamFound;

  constructor(
    readonly source: ByteSource,
    readonly context: PDFContext,
    readonly map: LazyObjectMap,
    cacheBytes?: number,
  ) {
    this.reading = { source, context, cache: new StreamCache(cacheBytes), stats: this.stats };
    this.onStream = (dict, dataStart, ref) => {
      // Cross-reference streams are never encrypted (ISO 32000-1 7.6.1).
      const plain = ref === undefined || this.plain.has(ref.objectNumber) || dict.get(TYPE) === XREF;
      return lazyStream(dict, dataStart, ref, plain ? { ...this.reading, crypto: undefined } : this.reading);
    };
  }

  get crypto(): CipherFactory | undefined {
    return this.reading.crypto;
  }

  /**
   * Decrypts from now on, except the objects numbered in `plain` (the
   * encryption dictionary's own). Other objects parsed so far (the catalog)
   * are parsed again, decrypted, when next asked for.
   */
  setCrypto(crypto: CipherFactory, plain: Iterable<number>): void {
    this.reading.crypto = crypto;
    for (const num of plain) this.plain.add(num);
    this.objectStreams.clear();
    this.map.forget(this.plain);
  }

  /** Replaces the index by one rebuilt from the file; false when that was done already. */
  reconstruct(): boolean {
    if (this.scanned) return false;
    const scanned = scanFile(this.source);
    this.scanned = scanned;
    this.entries = scanned.entries;
    this.onReconstruct?.();
    this.objectStreams.clear();
    addObjectStreamMembers(scanned, (stream) => this.objectStream(stream)?.members.map((m) => m.num) ?? null);
    this.map.forgetMissing();
    return true;
  }

  load(num: number): Loaded | undefined {
    const entry = this.entries.get(num);
    // An object the index does not list at all (not even as free) means the
    // index is incomplete (a table with a mangled subsection): the file's
    // objects are indexed instead, as for a wrong offset.
    if (!entry) return num > 0 && this.reconstruct() ? this.load(num) : undefined;
    if (entry.kind === 'free') return undefined;
    if (entry.kind === 'compressed') return this.member(num, entry.stream, entry.index);
    const crypto = this.plain.has(num) ? undefined : this.reading.crypto;
    const parsed = parseIndirectAt(this.source, entry.offset, { context: this.context, onStream: this.onStream, crypto });
    if (!parsed || parsed.num !== num) {
      // The offset is wrong: from now on, the index is the one the file's objects give.
      return this.reconstruct() ? this.load(num) : undefined;
    }
    this.stats.objectsParsed++;
    if (parsed.recovered) this.onRecovered?.(num);
    return { gen: parsed.gen, object: parsed.object };
  }

  /** Object numbers the index lists as in use. */
  *numbers(): Iterable<number> {
    for (const [num, entry] of this.entries) if (entry.kind !== 'free') yield num;
  }

  largestNumber(): number {
    let largest = 0;
    for (const num of this.entries.keys()) if (num > largest) largest = num;
    return largest;
  }

  private member(num: number, stream: number, index: number): Loaded | undefined {
    const decoded = this.objectStream(stream);
    if (!decoded) return undefined;
    // The index says where; the header is believed when it disagrees.
    let member: { num: number; at: number } | undefined = decoded.members[index];
    if (member?.num !== num) member = decoded.members.find((m) => m.num === num);
    if (!member) return undefined;
    const parsed = parseObjectIn(decoded.bytes, member.at, this.context, this.onStream);
    if (parsed === undefined) return undefined;
    this.stats.objectsParsed++;
    if (parsed.recovered) this.onRecovered?.(num);
    return { gen: 0, object: parsed.object };
  }

  /**
   * An object stream decoded under the decoding limits (stream-decode.ts); one
   * that passes a limit or cannot be decoded holds no readable objects. The
   * decoded bytes are kept while objects are read from it, bounded like stream data.
   */
  private objectStream(num: number): DecodedObjectStream | null {
    const known = this.objectStreams.get(num);
    if (known !== undefined) {
      if (known === null || this.reading.cache.get(known) !== undefined) return known;
    }
    const stream = this.map.byNumber(num);
    if (!(stream instanceof PDFRawStream)) {
      this.objectStreams.set(num, null);
      return null;
    }
    const decoded = decodeStream(stream).bytes;
    const first = stream.dict.get(FIRST);
    const count = stream.dict.get(N);
    if (decoded === null || !(first instanceof PDFNumber) || !(count instanceof PDFNumber)) {
      this.objectStreams.set(num, null);
      return null;
    }
    const result: DecodedObjectStream = { bytes: decoded, members: objectStreamHeader(decoded, first.asNumber(), count.asNumber()) };
    this.objectStreams.set(num, result);
    this.reading.cache.put(result, decoded);
    return result;
  }
}

/** The `num offset` pairs at the start of an object stream; N is not believed beyond what the data holds. */
function objectStreamHeader(bytes: Uint8Array, first: number, count: number): { num: number; at: number }[] {
  const out: { num: number; at: number }[] = [];
  const n = Math.min(count, Math.floor(bytes.length / 4));
  let i = 0;
  const int = (): number | undefined => {
    while (i < bytes.length && isWhite(bytes[i])) i++;
    if (!isDigit(bytes[i])) return undefined;
    let v = 0;
    while (isDigit(bytes[i])) v = v * 10 + bytes[i++]! - 0x30;
    return v;
  };
  for (let k = 0; k < n; k++) {
    const num = int();
    const at = int();
    if (num === undefined || at === undefined) break;
    out.push({ num, at: first + at });
  }
  return out;
}

/**
 * The Map behind PDFContext.indirectObjects. Objects come from the loader on
 * first `get`; `set` and `delete` override the file for good.
 */
export class LazyObjectMap extends Map<PDFRef, PDFObject> {
  loader: ObjectLoader | undefined;
  /** Object numbers read from the file (or overridden): the file is not asked again. */
  private tried = new Set<number>();
  /** Object numbers whose object was set or deleted by the program: the file no longer counts. */
  private readonly overridden = new Set<number>();
  private readonly deleted = new Set<PDFRef>();
  private complete = false;
  /** Told of every object as it is read from the file (change tracking, core/writer/track-changes.ts). */
  onLoad: ((ref: PDFRef, object: PDFObject) => void) | undefined;

  /** The objects held now, read or set, without reading any more from the file. */
  held(): MapIterator<[PDFRef, PDFObject]> {
    return super.entries();
  }

  override get(ref: PDFRef): PDFObject | undefined {
    const hit = super.get(ref);
    if (hit !== undefined || !this.loader || this.complete || this.deleted.has(ref)) return hit;
    this.ensure(ref.objectNumber);
    return super.get(ref);
  }

  override has(ref: PDFRef): boolean {
    return this.get(ref) !== undefined;
  }

  override set(ref: PDFRef, value: PDFObject): this {
    this.tried.add(ref.objectNumber);
    this.overridden.add(ref.objectNumber);
    this.deleted.delete(ref);
    return super.set(ref, value);
  }

  override delete(ref: PDFRef): boolean {
    const existed = this.has(ref);
    this.tried.add(ref.objectNumber);
    this.overridden.add(ref.objectNumber);
    this.deleted.add(ref);
    return super.delete(ref) || existed;
  }

  override clear(): void {
    this.complete = true;
    super.clear();
  }

  /** The object with this number, whatever its generation. */
  byNumber(num: number): PDFObject | undefined {
    const ref = this.refByNumber(num);
    return ref && super.get(ref);
  }

  refByNumber(num: number): PDFRef | undefined {
    this.ensure(num);
    for (const ref of super.keys()) if (ref.objectNumber === num) return ref;
    return undefined;
  }

  /** Every object the index lists, parsed (stream data still unread). */
  private materialize(): void {
    if (this.complete || !this.loader) return;
    // Reading an object may rebuild the index (a wrong offset): then the rebuilt one is walked too.
    let scanned;
    do {
      scanned = this.loader.scanned;
      for (const num of [...this.loader.numbers()]) this.ensure(num);
    } while (this.loader.scanned !== scanned);
    this.complete = true;
  }

  override get size(): number {
    this.materialize();
    return super.size;
  }

  override entries(): MapIterator<[PDFRef, PDFObject]> {
    this.materialize();
    return super.entries();
  }

  override keys(): MapIterator<PDFRef> {
    this.materialize();
    return super.keys();
  }

  override values(): MapIterator<PDFObject> {
    this.materialize();
    return super.values();
  }

  override forEach(fn: (value: PDFObject, key: PDFRef, map: Map<PDFRef, PDFObject>) => void, thisArg?: unknown): void {
    this.materialize();
    super.forEach(fn, thisArg);
  }

  override [Symbol.iterator](): MapIterator<[PDFRef, PDFObject]> {
    return this.entries();
  }

  /** Drops what was parsed from the file (not what the program set), to be parsed again (with decryption). */
  forget(keep: Set<number>): void {
    for (const ref of [...super.keys()]) if (!this.overridden.has(ref.objectNumber) && !keep.has(ref.objectNumber)) super.delete(ref);
    this.tried = new Set([...super.keys()].map((r) => r.objectNumber));
    for (const num of this.overridden) this.tried.add(num);
    this.complete = false;
  }

  /** After the index is rebuilt, numbers that were missing may be found in it. */
  forgetMissing(): void {
    const present = new Set([...super.keys()].map((r) => r.objectNumber));
    this.tried = new Set([...this.tried].filter((n) => present.has(n) || this.overridden.has(n)));
    this.complete = false;
  }

  private ensure(num: number): void {
    if (!this.loader || this.tried.has(num)) return;
    this.tried.add(num);
    const loaded = this.loader.load(num);
    if (!loaded) return;
    const ref = internedRef(num, loaded.gen);
    if (!this.deleted.has(ref)) {
      super.set(ref, loaded.object);
      this.onLoad?.(ref, loaded.object);
    }
  }
}

/** Installs a lazy object table in a new context. */
export function lazyContext(source: ByteSource, cacheBytes?: number): { context: PDFContext; loader: ObjectLoader; map: LazyObjectMap } {
  const context = PDFContext.create();
  const map = new LazyObjectMap();
  const loader = new ObjectLoader(source, context, map, cacheBytes);
  (context as unknown as { indirectObjects: Map<PDFRef, PDFObject> }).indirectObjects = map;
  map.loader = loader;
  return { context, loader, map };
}
