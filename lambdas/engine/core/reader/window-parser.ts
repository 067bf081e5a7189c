/**
 * pdf-lib's object parser over a window of the file's bytes (object-parse.ts
 * decides which window): its own parsing of every object, except that
 * - a dictionary followed by `stream` is handed over with the offset of its
 *   data instead of the parser looking for the end of the data (which could be
 *   gigabytes away);
 * - the tokens every object is made of (white space, names, numbers,
 *   references, the dispatch on an object's first byte) are read straight from
 *   the bytes and made into interned objects (interned-objects.ts). pdf-lib's
 *   versions read through a cursor call per byte and build a string per token:
 *   object parsing was a quarter of `bench:preflight`. They accept and refuse
 *   exactly what pdf-lib's accept and refuse, at the same byte, so the lenient
 *   second try (lenient-parse.ts) starts where it always did.
 * Also the byte classes of ISO 32000-1 7.2.2 the reader's other scanners use.
 */
import {
  PDFBool,
  PDFCatalog,
  PDFContext,
  PDFDict,
  PDFName,
  PDFNull,
  PDFObjectParser,
  PDFObjectParsingError,
  PDFPageLeaf,
  PDFPageTree,
  type PDFNumber,
  type PDFObject,
  type PDFRef,
} from '@cantoo/pdf-lib';
import { plainNumber } from '../plain-number';
import { internedName, internedNameAt, internedRef, nextNameHash, numberObject } from './interned-objects';

/** pdf-lib's byte cursor; not exported by the package, so reached through a parser it made. */
export interface ByteCursor {
  offset(): number;
  moveTo(offset: number): void;
  peek(): number | undefined;
  peekAhead(steps: number): number | undefined;
  next(): number;
  done(): boolean;
  assertNext(expected: number): number;
}
type ByteCursorClass = { of(bytes: Uint8Array): ByteCursor };
const ByteStream = (PDFObjectParser.forBytes(new Uint8Array(0), PDFContext.create()) as unknown as { bytes: { constructor: ByteCursorClass } }).bytes
  .constructor;

/** pdf-lib's cipher factory (an object from its crypto module, which the package does not export). */
export interface CipherFactory {
  encryptionKey?: unknown;
  createCipherTransform(objectNumber: number, generationNumber: number): { decryptBytes(data: Uint8Array): Uint8Array };
}

/** Where a stream's data starts, for a stream whose dictionary has been parsed. */
export type StreamFound = (dict: PDFDict, dataStart: number, ref: PDFRef | undefined) => PDFObject;

const STREAM = [0x73, 0x74, 0x72, 0x65, 0x61, 0x6d];
const OBJ = [0x6f, 0x62, 0x6a];
const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/** pdf-lib's byte classes (ISO 32000-1 7.2.2): white space, delimiters, digits, and what may start a number. */
const WHITE = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[b] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1;
const ENDS_TOKEN = WHITE.map((w, b) => w | DELIMITER[b]!);
const DIGIT = new Uint8Array(256);
for (let b = 0x30; b <= 0x39; b++) DIGIT[b] = 1;
const NUMERIC = new Uint8Array(DIGIT);
for (const c of '+-.') NUMERIC[c.charCodeAt(0)] = 1;

/** The same classes for the reader's other scanners, which look at one byte at a time. */
export const isWhite = (b: number | undefined): boolean => b !== undefined && WHITE[b] === 1;
export const isDigit = (b: number | undefined): boolean => b !== undefined && DIGIT[b] === 1;
export const isDelimiter = (b: number | undefined): boolean => b !== undefined && DELIMITER[b] === 1;

/** pdf-lib's ByteStream, whose fields the token readers use directly. */
interface ByteStreamFields {
  bytes: Uint8Array;
  idx: number;
  length: number;
}

/** The dictionary pdf-lib's parser makes of these entries: it types a dictionary by its /Type. */
export function typedDict(entries: Map<PDFName, PDFObject>, context: PDFContext): PDFDict {
  const type = entries.get(NAME_TYPE);
  if (type === NAME_PAGE) return PDFPageLeaf.fromMapWithContext(entries, context);
  if (type === NAME_PAGES) return PDFPageTree.fromMapWithContext(entries, context);
  if (type === NAME_CATALOG) return PDFCatalog.fromMapWithContext(entries, context);
  return PDFDict.fromMapWithContext(entries, context);
}
const NAME_TYPE = PDFName.of('Type');
const NAME_PAGE = PDFName.of('Page');
const NAME_PAGES = PDFName.of('Pages');
const NAME_CATALOG = PDFName.of('Catalog');

export class WindowParser extends PDFObjectParser {
  constructor(
    bytes: Uint8Array,
    context: PDFContext,
    private readonly base: number,
    private readonly onStream: StreamFound,
    crypto: CipherFactory | undefined,
  ) {
    super(ByteStream.of(bytes) as never, context, false, crypto as never);
  }

  get cursor(): ByteCursor {
    return this.bytes as unknown as ByteCursor;
  }

  private get stream(): ByteStreamFields {
    return this.bytes as unknown as ByteStreamFields;
  }

  /** As pdf-lib's, dispatched on the first byte instead of trying the keywords first. */
  override parseObject(ref?: PDFRef): PDFObject {
    this.skipWhitespaceAndComments();
    const s = this.stream;
    const b = s.bytes[s.idx]!;
    switch (b) {
      case 0x3c: // <
        return s.bytes[s.idx + 1] === 0x3c ? this.parseDictOrStream(ref) : this.parseHexString(ref);
      case 0x28: // (
        return this.parseString(ref);
      case 0x2f: // /
        return this.parseName();
      case 0x5b: // [
        return this.parseArray(ref);
      case 0x74: // t
        if (this.matchKeyword(TRUE)) return PDFBool.True;
        break;
      case 0x66: // f
        if (this.matchKeyword(FALSE)) return PDFBool.False;
        break;
      case 0x6e: // n
        if (this.matchKeyword(NULL)) return PDFNull;
        break;
    }
    if (s.idx < s.length && NUMERIC[b]) return this.parseNumberOrRef();
    throw new PDFObjectParsingError((this.bytes as unknown as { position(): never }).position(), b);
  }

  protected override skipWhitespaceAndComments(): void {
    const s = this.stream;
    const bytes = s.bytes;
    const end = s.length;
    let i = s.idx;
    for (;;) {
      while (i < end && WHITE[bytes[i]!]) i++;
      if (i >= end || bytes[i] !== 0x25) break;
      while (i < end && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
    }
    s.idx = i;
  }

  protected override parseName(): PDFName {
    const s = this.stream;
    const bytes = s.bytes;
    if (bytes[s.idx] !== 0x2f) return super.parseName(); // throws pdf-lib's error
    const start = s.idx + 1;
    let i = start;
    let escape = false;
    let hash = 0;
    while (i < s.length) {
      const b = bytes[i]!;
      if (ENDS_TOKEN[b]) break;
      if (b === 0x23) escape = true;
      hash = nextNameHash(hash, b);
      i++;
    }
    s.idx = i;
    if (!escape) return internedNameAt(bytes, start, i, hash);
    let text = '';
    for (let k = start; k < i; k++) text += String.fromCharCode(bytes[k]!);
    return internedName(text, true);
  }

  protected override parseNumberOrRef(): PDFNumber | PDFRef {
    const first = this.parseRawNumber();
    this.skipWhitespaceAndComments();
    const s = this.stream;
    const lookahead = s.idx;
    if (DIGIT[s.bytes[s.idx]!] && s.idx < s.length) {
      const second = this.parseRawNumber();
      this.skipWhitespaceAndComments();
      if (s.bytes[s.idx] === 0x52 && s.idx < s.length) {
        s.idx++;
        return internedRef(first, second);
      }
    }
    s.idx = lookahead;
    return numberObject(first);
  }

  /**
   * pdf-lib's number token: sign, digits and point characters up to the first
   * point, then digits; its value as Number() reads it, and an error for what
   * Number() refuses ("--5", "-", "1-2"). Plain decimals are computed from the
   * bytes (plain-number.ts); anything else is pdf-lib's own reading.
   */
  protected override parseRawNumber(): number {
    const s = this.stream;
    const bytes = s.bytes;
    const start = s.idx;
    let i = start;
    while (i < s.length && NUMERIC[bytes[i]!]) {
      if (bytes[i++] === 0x2e) break;
    }
    while (i < s.length && DIGIT[bytes[i]!]) i++;
    s.idx = i;
    const plain = plainNumber(bytes, start, i);
    if (plain !== undefined) return plain;
    s.idx = start;
    return super.parseRawNumber();
  }

  /** As pdf-lib's, with the /Type names looked up once rather than per dictionary. */
  protected override parseDict(ref?: PDFRef): PDFDict {
    const s = this.stream;
    const bytes = s.bytes;
    if (bytes[s.idx] !== 0x3c || bytes[s.idx + 1] !== 0x3c) return super.parseDict(ref); // throws pdf-lib's error
    s.idx += 2;
    this.skipWhitespaceAndComments();
    const entries = new Map<PDFName, PDFObject>();
    while (s.idx < s.length && bytes[s.idx] !== 0x3e && bytes[s.idx + 1] !== 0x3e) {
      const key = this.parseName();
      const value = this.parseObject(ref);
      entries.set(key, value);
      this.skipWhitespaceAndComments();
    }
    this.skipWhitespaceAndComments();
    if (bytes[s.idx] !== 0x3e || bytes[s.idx + 1] !== 0x3e) {
      this.cursor.assertNext(0x3e); // throws pdf-lib's error at the byte it would
      this.cursor.assertNext(0x3e);
    }
    s.idx += 2;
    return typedDict(entries, this.context);
  }

  /** `N G obj`, or null when the bytes here are not an object header. */
  header(): { num: number; gen: number } | null {
    this.skipWhitespaceAndComments();
    const num = this.unsignedInt();
    if (num === null || !WHITE[this.stream.bytes[this.stream.idx]!]) return null;
    this.skipWhitespaceAndComments();
    const gen = this.unsignedInt();
    if (gen === null) return null;
    this.skipWhitespaceAndComments();
    if (!this.matchKeyword(OBJ)) return null;
    return { num, gen };
  }

  /** A run of digits and its value (as pdf-lib's parseRawInt reads it), or null where there is none. */
  private unsignedInt(): number | null {
    const s = this.stream;
    const start = s.idx;
    let value = 0;
    while (s.idx < s.length && DIGIT[s.bytes[s.idx]!]) value = value * 10 + (s.bytes[s.idx++]! - 0x30);
    return s.idx === start || !Number.isFinite(value) ? null : value;
  }

  protected override parseDictOrStream(ref?: PDFRef): PDFDict {
    const dict = this.parseDict(ref);
    this.skipWhitespaceAndComments();
    if (!this.matchKeyword(STREAM)) return dict;
    // The keyword is followed by CR LF or LF (ISO 32000-1 7.3.8.1); a lone CR is tolerated.
    if (this.cursor.peek() === 0x0d) this.cursor.next();
    if (this.cursor.peek() === 0x0a) this.cursor.next();
    return this.onStream(dict, this.base + this.cursor.offset(), ref) as PDFDict;
  }
}
