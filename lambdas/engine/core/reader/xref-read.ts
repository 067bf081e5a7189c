/**
 * Reads a PDF's cross-reference data (ISO 32000-1 7.5.4–7.5.8) without
 * reading the objects: where each object starts, or which object stream holds
 * it, and the trailer.
 *
 * From `startxref` near the end of the file, every section is read: classic
 * tables with their `trailer` dictionary, cross-reference streams, a hybrid
 * file's /XRefStm, and each earlier revision through /Prev. Sections are read
 * newest first and an entry already known is never overwritten, so the newest
 * definition of an object wins, including a newer "free" that deletes it. A
 * /Prev chain that loops is followed once round.
 *
 * Anything malformed throws XrefError; the caller then rebuilds the index by
 * scanning the file (xref-reconstruct.ts), as readers do.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { decodeStream } from '../stream-decode';
import type { ByteSource } from './byte-source';
import { isDigit, isWhite, parseDictAt, parseIndirectAt } from './object-parse';
import { streamLength } from './stream-data';

export type XrefEntry =
  | { kind: 'free' }
  | { kind: 'offset'; offset: number; gen: number }
  | { kind: 'compressed'; stream: number; index: number };

/** The trailer keys the document needs, newest revision first. */
export interface TrailerKeys {
  Root?: PDFObject;
  Info?: PDFObject;
  Encrypt?: PDFObject;
  ID?: PDFObject;
  Size?: PDFNumber;
}

export interface XrefIndex {
  entries: Map<number, XrefEntry>;
  trailer: TrailerKeys;
}

export class XrefError extends Error {}

const TAIL = 4096;
/** Entries beyond what any sane file holds are not believed (a hostile /Size or /Index). */
const MAX_ENTRIES = 10_000_000;

export function readXref(source: ByteSource, context: PDFContext): XrefIndex {
  const index: XrefIndex = { entries: new Map(), trailer: {} };
  const queue: number[] = [findStartXref(source)];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const offset = queue.shift()!;
    if (seen.has(offset)) continue;
    seen.add(offset);
    if (offset <= 0 || offset >= source.size) throw new XrefError(`cross-reference offset ${offset} is outside the file`);
    const dict = startsWithXrefKeyword(source, offset) ? readTable(source, offset, context, index) : readStream(source, offset, context, index);
    mergeTrailer(index.trailer, dict);
    // Hybrid files: the table's entries win, the stream adds the compressed objects.
    const xrefStm = dict.get(PDFName.of('XRefStm'));
    if (xrefStm instanceof PDFNumber && !seen.has(xrefStm.asNumber())) {
      seen.add(xrefStm.asNumber());
      try {
        readStream(source, xrefStm.asNumber(), context, index);
      } catch {
        // A broken /XRefStm in a hybrid file: readers that know only tables read the file; so do we.
      }
    }
    const prev = dict.get(PDFName.of('Prev'));
    if (prev instanceof PDFNumber) queue.push(prev.asNumber());
  }
  if (index.trailer.Root === undefined) throw new XrefError('no trailer names the document catalog');
  return index;
}

/**
 * The offset after the last `startxref`: in the last few kilobytes, or else
 * before the last `%%EOF` (data appended after the end of the document by
 * mail or upload tools), searched backwards a window at a time.
 */
export function findStartXref(source: ByteSource): number {
  let end = source.size;
  let tail = tailBefore(source, end);
  let at = tail.lastIndexOf('startxref', undefined, 'latin1');
  if (at < 0) {
    end = lastEof(source);
    if (end < 0) throw new XrefError('no startxref');
    tail = tailBefore(source, end);
    at = tail.lastIndexOf('startxref', undefined, 'latin1');
  }
  if (at < 0) throw new XrefError('no startxref');
  let i = at + 9;
  while (i < tail.length && isWhite(tail[i])) i++;
  let n = '';
  while (i < tail.length && isDigit(tail[i])) n += String.fromCharCode(tail[i++]!);
  if (n === '') throw new XrefError('startxref without an offset');
  return Number(n);
}

function tailBefore(source: ByteSource, end: number): Buffer {
  const from = Math.max(0, end - TAIL);
  return Buffer.from(source.read(from, end - from));
}

const EOF_WINDOW = 1024 * 1024;

/** Offset of the last `%%EOF`, or -1; the file is read backwards, a megabyte at a time. */
function lastEof(source: ByteSource): number {
  for (let end = source.size; end > 0; end -= EOF_WINDOW) {
    const from = Math.max(0, end - EOF_WINDOW - 5);
    const window = Buffer.from(source.read(from, end - from));
    const at = window.lastIndexOf('%%EOF', undefined, 'latin1');
    if (at >= 0) return from + at;
  }
  return -1;
}

function startsWithXrefKeyword(source: ByteSource, offset: number): boolean {
  const head = source.read(offset, 64);
  let i = 0;
  while (i < head.length && isWhite(head[i])) i++;
  return Buffer.from(head.subarray(i, i + 4)).toString('latin1') === 'xref';
}

function mergeTrailer(into: TrailerKeys, dict: PDFDict): void {
  for (const key of ['Root', 'Info', 'Encrypt', 'ID', 'Size'] as const) {
    const value = dict.get(PDFName.of(key));
    if (value === undefined || into[key] !== undefined) continue;
    if (key === 'Size') {
      if (value instanceof PDFNumber) into.Size = value;
    } else into[key] = value;
  }
}

/** Reads tokens of a classic table from the source, a block at a time. */
class TableCursor {
  private buf: Uint8Array = new Uint8Array(0);
  private base = 0;
  private i = 0;
  constructor(
    private readonly source: ByteSource,
    private pos: number,
  ) {}

  private byte(): number | undefined {
    if (this.i >= this.buf.length) {
      if (this.pos >= this.source.size) return undefined;
      this.base = this.pos;
      this.buf = this.source.read(this.pos, 64 * 1024);
      this.pos += this.buf.length;
      this.i = 0;
    }
    return this.buf[this.i];
  }

  /** The next white-space separated token (comments are not allowed in tables). */
  token(): string | undefined {
    let b = this.byte();
    while (b !== undefined && isWhite(b)) {
      this.i++;
      b = this.byte();
    }
    if (b === undefined) return undefined;
    let out = '';
    while (b !== undefined && !isWhite(b) && out.length < 32) {
      out += String.fromCharCode(b);
      this.i++;
      // `trailer<<` has no space before the dictionary.
      if (out === 'trailer') break;
      b = this.byte();
    }
    return out;
  }

  /** Offset of the next unread byte. */
  offset(): number {
    return this.base + this.i;
  }
}

const INT = /^\d+$/;

function readTable(source: ByteSource, offset: number, context: PDFContext, index: XrefIndex): PDFDict {
  const cursor = new TableCursor(source, offset);
  if (cursor.token() !== 'xref') throw new XrefError('no xref keyword');
  let read = 0;
  for (;;) {
    const first = cursor.token();
    if (first === 'trailer') break;
    const count = cursor.token();
    if (first === undefined || count === undefined || !INT.test(first) || !INT.test(count)) {
      throw new XrefError('malformed cross-reference subsection');
    }
    let start = Number(first);
    const n = Number(count);
    if ((read += n) > MAX_ENTRIES) throw new XrefError('too many entries');
    for (let k = 0; k < n; k++) {
      const off = cursor.token();
      const gen = cursor.token();
      const type = cursor.token();
      if (off === undefined || gen === undefined || !INT.test(off) || !INT.test(gen) || (type !== 'n' && type !== 'f')) {
        throw new XrefError('malformed cross-reference entry');
      }
      // A common mistake (pdf.js handles it too): a table numbered from 1 whose
      // first entry is the free head of the list, object 0.
      if (k === 0 && start === 1 && type === 'f' && off === '0000000000' && gen === '65535') start = 0;
      const num = start + k;
      if (!index.entries.has(num)) {
        // An in-use entry at offset 0 points into the header: nothing is there.
        index.entries.set(num, type === 'f' || num === 0 || Number(off) === 0 ? { kind: 'free' } : { kind: 'offset', offset: Number(off), gen: Number(gen) });
      }
    }
  }
  const dict = parseDictAt(source, cursor.offset(), context);
  if (!dict) throw new XrefError('unreadable trailer dictionary');
  return dict;
}

/** A cross-reference stream (ISO 32000-1 7.5.8): its dictionary is also its revision's trailer. */
function readStream(source: ByteSource, offset: number, context: PDFContext, index: XrefIndex): PDFDict {
  let dataStart = -1;
  const parsed = parseIndirectAt(source, offset, {
    context,
    onStream: (dict, start) => {
      dataStart = start;
      return dict;
    },
  });
  if (!parsed || dataStart < 0 || !(parsed.object instanceof PDFDict)) throw new XrefError('no cross-reference stream at the offset');
  const dict = parsed.object;
  if (dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) throw new XrefError('the object at the offset is not a cross-reference stream');
  const length = dict.get(PDFName.of('Length'));
  const declared = length instanceof PDFNumber ? length.asNumber() : undefined;
  const raw = source.read(dataStart, streamLength(source, dataStart, declared));
  const decoded = decodeStream(PDFRawStream.of(dict, raw.slice())).bytes;
  if (decoded === null) throw new XrefError('undecodable cross-reference stream');

  const widths = numbers(dict.lookup(PDFName.of('W')));
  if (!widths || widths.length < 3 || widths.some((w) => w < 0 || w > 8)) throw new XrefError('bad /W');
  const entrySize = widths[0]! + widths[1]! + widths[2]!;
  if (entrySize === 0) throw new XrefError('bad /W');
  const size = dict.get(PDFName.of('Size'));
  const ranges = numbers(dict.lookup(PDFName.of('Index'))) ?? [0, size instanceof PDFNumber ? size.asNumber() : 0];
  const available = Math.floor(decoded.length / entrySize);
  let at = 0;
  let entry = 0;
  for (let r = 0; r + 1 < ranges.length && entry < available; r += 2) {
    const first = ranges[r]!;
    const count = Math.min(ranges[r + 1]!, available - entry);
    for (let k = 0; k < count; k++, entry++) {
      const type = widths[0] === 0 ? 1 : field(decoded, at, widths[0]!);
      const f2 = field(decoded, at + widths[0]!, widths[1]!);
      const f3 = field(decoded, at + widths[0]! + widths[1]!, widths[2]!);
      at += entrySize;
      const num = first + k;
      if (index.entries.has(num)) continue;
      if (type === 0 || num === 0) index.entries.set(num, { kind: 'free' });
      else if (type === 1) index.entries.set(num, { kind: 'offset', offset: f2, gen: f3 });
      else if (type === 2) index.entries.set(num, { kind: 'compressed', stream: f2, index: f3 });
      // Other types are reserved: readers treat them as null objects.
    }
  }
  return dict;
}

function field(bytes: Uint8Array, at: number, width: number): number {
  let v = 0;
  for (let i = 0; i < width; i++) v = v * 256 + bytes[at + i]!;
  return v;
}

function numbers(obj: PDFObject | undefined): number[] | undefined {
  if (!(obj instanceof PDFArray)) return undefined;
  const out: number[] = [];
  for (let i = 0; i < obj.size(); i++) {
    const v = obj.get(i);
    if (!(v instanceof PDFNumber) || !Number.isInteger(v.asNumber()) || v.asNumber() < 0) return undefined;
    out.push(v.asNumber());
  }
  return out;
}
