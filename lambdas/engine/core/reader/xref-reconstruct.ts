/**
 * Rebuilds the cross-reference index of a file whose own is missing or wrong
 * (no `startxref`, an unreadable table or trailer, offsets that do not point at
 * their objects, a truncated file), by reading the file from start to end the
 * way pdf.js (XRef.indexObjects) and qpdf (reconstruct_xref) do:
 *
 * - every `N G obj` header is an object definition, and a later one of the
 *   same number replaces an earlier one (incremental updates append);
 * - every `trailer` dictionary, and every cross-reference stream's dictionary,
 *   may name the catalog, the Info dictionary, the encryption and the ID;
 * - objects whose dictionary says /Type /ObjStm are object streams: their
 *   members are added by the caller, which can decode them
 *   (`addObjectStreamMembers`), unless a later plain definition replaces them;
 * - dictionaries saying /Type /Catalog are kept as candidates for a catalog
 *   the trailers do not name.
 *
 * The file is read in windows of a few megabytes, never whole, so a damaged
 * 500 MB file costs one pass of reading and little memory.
 */
import { PDFName, PDFNumber, type PDFContext, type PDFDict } from '@cantoo/pdf-lib';
import type { ByteSource } from './byte-source';
import { isDelimiter, isDigit, isWhite, parseDictAt } from './object-parse';
import type { TrailerKeys, XrefEntry } from './xref-read';

export interface ScannedFile {
  entries: Map<number, XrefEntry>;
  /** Where each entry in `entries` was defined (a member: where its object stream was). */
  definedAt: Map<number, number>;
  /** Offsets of the dictionaries after `trailer` keywords, in file order. */
  trailers: number[];
  /** Object numbers that look like object streams, cross-reference streams and catalogs, in file order. */
  objectStreams: number[];
  xrefStreams: number[];
  catalogs: number[];
}

const CHUNK = 4 * 1024 * 1024;
/** Bytes before a chunk read again, so a header cut by the chunk boundary is still seen whole. */
const BEHIND = 48;
/** How far after `obj` the dictionary is looked at for /Type. */
const AHEAD = 2048;

const OBJ = Buffer.from('obj', 'latin1');
const TRAILER = Buffer.from('trailer', 'latin1');

export function scanFile(source: ByteSource): ScannedFile {
  const scanned: ScannedFile = { entries: new Map(), definedAt: new Map(), trailers: [], objectStreams: [], xrefStreams: [], catalogs: [] };
  for (let pos = 0; pos < source.size; pos += CHUNK) {
    const from = Math.max(0, pos - BEHIND);
    const chunk = source.read(from, pos - from + CHUNK + AHEAD);
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const lo = pos - from;
    const hi = Math.min(buf.length, lo + CHUNK);

    for (let j = buf.indexOf(OBJ, lo); j >= 0 && j < hi; j = buf.indexOf(OBJ, j + 3)) {
      const header = headerBefore(buf, j, from === 0);
      if (!header) continue;
      const offset = from + header.start;
      scanned.entries.set(header.num, { kind: 'offset', offset, gen: header.gen });
      scanned.definedAt.set(header.num, offset);
      const type = dictType(buf, j + 3);
      if (type === 'ObjStm') scanned.objectStreams.push(header.num);
      else if (type === 'XRef') scanned.xrefStreams.push(header.num);
      else if (type === 'Catalog') scanned.catalogs.push(header.num);
    }
    for (let j = buf.indexOf(TRAILER, lo); j >= 0 && j < hi; j = buf.indexOf(TRAILER, j + 7)) {
      scanned.trailers.push(from + j + 7);
    }
  }
  return scanned;
}

/** `N G ` before the `obj` at `j`, with the offset of N; null when `obj` is not an object header. */
function headerBefore(buf: Buffer, j: number, atFileStart: boolean): { num: number; gen: number; start: number } | null {
  const after = buf[j + 3];
  if (after !== undefined && !isWhite(after) && !isDelimiter(after)) return null;
  let i = j - 1;
  if (!isWhite(buf[i])) return null;
  while (i >= 0 && isWhite(buf[i])) i--;
  const genEnd = i + 1;
  while (i >= 0 && isDigit(buf[i])) i--;
  if (i + 1 === genEnd || genEnd - (i + 1) > 5) return null;
  const gen = Number(buf.toString('latin1', i + 1, genEnd));
  if (!isWhite(buf[i])) return null;
  while (i >= 0 && isWhite(buf[i])) i--;
  const numEnd = i + 1;
  while (i >= 0 && isDigit(buf[i])) i--;
  if (i + 1 === numEnd || numEnd - (i + 1) > 10) return null;
  // The number must not be the tail of a longer token.
  if (i >= 0 && !isWhite(buf[i]) && !isDelimiter(buf[i])) return null;
  if (i < 0 && !atFileStart) return null;
  const num = Number(buf.toString('latin1', i + 1, numEnd));
  if (num <= 0 || !Number.isSafeInteger(num)) return null;
  return { num, gen, start: i + 1 };
}

/** The /Type of the dictionary right after a header, when it is one we look for. */
function dictType(buf: Buffer, at: number): 'ObjStm' | 'XRef' | 'Catalog' | null {
  let i = at;
  while (i < buf.length && isWhite(buf[i])) i++;
  if (buf[i] !== 0x3c || buf[i + 1] !== 0x3c) return null;
  let text = buf.toString('latin1', i, Math.min(buf.length, i + AHEAD));
  const end = text.search(/stream|endobj/);
  if (end >= 0) text = text.slice(0, end);
  const type = /\/Type\s*\/(ObjStm|XRef|Catalog)(?![A-Za-z0-9])/.exec(text);
  return (type?.[1] as 'ObjStm' | 'XRef' | 'Catalog' | undefined) ?? null;
}

/**
 * Adds the members of the object streams found (given their object numbers in
 * order by `membersOf`), each unless a plain definition later in the file replaces it.
 */
export function addObjectStreamMembers(scanned: ScannedFile, membersOf: (stream: number) => number[] | null): void {
  for (const stream of scanned.objectStreams) {
    const at = scanned.definedAt.get(stream);
    const members = membersOf(stream);
    if (at === undefined || !members) continue;
    members.forEach((num, index) => {
      const previous = scanned.definedAt.get(num);
      if (num <= 0 || num === stream || (previous !== undefined && previous > at)) return;
      scanned.entries.set(num, { kind: 'compressed', stream, index });
      scanned.definedAt.set(num, at);
    });
  }
}

/**
 * The trailer keys from every trailer dictionary and cross-reference stream
 * dictionary, the last in the file first (`xrefStreamDict` reads the latter).
 */
export function trailerOf(scanned: ScannedFile, source: ByteSource, context: PDFContext, xrefStreamDict: (num: number) => PDFDict | undefined): TrailerKeys {
  const dicts: { at: number; dict: PDFDict }[] = [];
  for (const at of scanned.trailers) {
    const dict = parseDictAt(source, at, context);
    if (dict) dicts.push({ at, dict });
  }
  for (const num of scanned.xrefStreams) {
    const dict = xrefStreamDict(num);
    if (dict) dicts.push({ at: scanned.definedAt.get(num) ?? 0, dict });
  }
  dicts.sort((a, b) => b.at - a.at);
  const trailer: TrailerKeys = {};
  for (const { dict } of dicts) {
    for (const key of ['Root', 'Info', 'Encrypt', 'ID'] as const) {
      const value = dict.get(PDFName.of(key));
      if (value !== undefined && trailer[key] === undefined) trailer[key] = value;
    }
    const size = dict.get(PDFName.of('Size'));
    if (size instanceof PDFNumber && trailer.Size === undefined) trailer.Size = size;
  }
  return trailer;
}
