/**
 * Parsing one indirect object (`N G obj … endobj`) from its byte offset, with
 * pdf-lib's own object parser over a window of the file: small first, grown
 * when the object runs past its end. A stream's dictionary is parsed but its
 * data is not read: the parser stops after the `stream` keyword and reports
 * where the data starts, and the caller decides when (if ever) to read it.
 *
 * pdf-lib's parser is used, rather than one of our own, so that objects read
 * lazily are exactly the objects its whole-file parse made (PDFCatalog,
 * PDFPageLeaf and PDFPageTree for their /Type, decrypted strings, the patches
 * of decrypted-strings.ts).
 */
import { PDFContext, PDFDict, PDFInvalidObject, PDFObjectParser, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import type { ByteSource } from './byte-source';

/** pdf-lib's byte cursor; not exported by the package, so reached through a parser it made. */
interface ByteCursor {
  offset(): number;
  moveTo(offset: number): void;
  peek(): number | undefined;
  next(): number;
  done(): boolean;
}
type ByteCursorClass = { of(bytes: Uint8Array): ByteCursor };
const ByteStream = (PDFObjectParser.forBytes(new Uint8Array(0), PDFContext.create()) as unknown as { bytes: { constructor: ByteCursorClass } }).bytes
  .constructor;

/** pdf-lib's cipher factory (an object from its crypto module, which the package does not export). */
export interface CipherFactory {
  encryptionKey?: unknown;
  createCipherTransform(objectNumber: number, generationNumber: number): { decryptBytes(data: Uint8Array): Uint8Array };
}

export const isWhite = (b: number | undefined): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;
export const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39;
export const isDelimiter = (b: number | undefined): boolean =>
  b === 0x28 || b === 0x29 || b === 0x3c || b === 0x3e || b === 0x5b || b === 0x5d || b === 0x7b || b === 0x7d || b === 0x2f || b === 0x25;

/** Where a stream's data starts, for a stream whose dictionary has been parsed. */
export type StreamFound = (dict: PDFDict, dataStart: number, ref: PDFRef | undefined) => PDFObject;

const STREAM = [0x73, 0x74, 0x72, 0x65, 0x61, 0x6d];

/**
 * pdf-lib's object parser, except that a dictionary followed by `stream` is
 * handed to `onStream` with the absolute offset of its data, instead of the
 * parser finding the end of the data (which could be gigabytes away).
 */
class WindowParser extends PDFObjectParser {
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

  /** `N G obj`, or null when the bytes here are not an object header. */
  header(): { num: number; gen: number } | null {
    try {
      this.skipWhitespaceAndComments();
      const num = this.parseRawInt();
      if (!isWhite(this.cursor.peek())) return null;
      this.skipWhitespaceAndComments();
      const gen = this.parseRawInt();
      this.skipWhitespaceAndComments();
      if (!this.matchKeyword([0x6f, 0x62, 0x6a])) return null;
      return { num, gen };
    } catch {
      return null;
    }
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

export interface ParsedObject {
  num: number;
  gen: number;
  object: PDFObject;
}

const FIRST_WINDOW = 16 * 1024;
/** A dictionary larger than this is not a dictionary any reader would accept. */
const LARGEST_WINDOW = 32 * 1024 * 1024;
/** How close to the end of the window a parse must get to count as "ran out of window". */
const EDGE = 256;

export interface ParseOptions {
  context: PDFContext;
  onStream: StreamFound;
  /** Decrypts strings (and is passed to onStream's ref) when the file is encrypted. */
  crypto?: CipherFactory;
}

/**
 * The object at `offset`, or null when no object header is there. An object
 * that starts but cannot be parsed becomes a PDFInvalidObject of its bytes up
 * to `endobj`, as in pdf-lib's whole-file parse.
 */
export function parseIndirectAt(source: ByteSource, offset: number, options: ParseOptions): ParsedObject | null {
  let window = FIRST_WINDOW;
  for (;;) {
    const bytes = source.read(offset, window);
    const whole = offset + bytes.length >= source.size;
    const parser = new WindowParser(bytes, options.context, offset, options.onStream, options.crypto);
    const head = parser.header();
    if (head === null) {
      if (!whole && bytes.length < 64) {
        window *= 8;
        continue;
      }
      return null;
    }
    const ref = PDFRef.of(head.num, head.gen);
    const bodyStart = parser.cursor.offset();
    try {
      const object = parser.parseObject(ref);
      if (!whole && parser.cursor.offset() > bytes.length - EDGE && window < LARGEST_WINDOW) {
        window = Math.min(window * 8, LARGEST_WINDOW);
        continue;
      }
      return { ...head, object };
    } catch {
      const stoppedAt = parser.cursor.offset();
      if (!whole && stoppedAt > bytes.length - EDGE && window < LARGEST_WINDOW) {
        window = Math.min(window * 8, LARGEST_WINDOW);
        continue;
      }
      return { ...head, object: invalidObject(bytes, bodyStart) };
    }
  }
}

/** The header at `offset` only: cheap validation of a cross-reference offset. */
export function headerAt(source: ByteSource, offset: number, context: PDFContext): { num: number; gen: number } | null {
  if (offset < 0 || offset >= source.size) return null;
  const parser = new WindowParser(source.read(offset, 64), context, offset, (d) => d, undefined);
  return parser.header();
}

/** One object from decoded bytes (an object stream member): no header, no decryption. */
export function parseObjectIn(bytes: Uint8Array, at: number, context: PDFContext, onStream: StreamFound): PDFObject | undefined {
  const parser = new WindowParser(bytes, context, 0, onStream, undefined);
  parser.cursor.moveTo(at);
  try {
    return parser.parseObject();
  } catch {
    return undefined;
  }
}

/** Parses a dictionary (a trailer) at `offset`, growing the window as needed. */
export function parseDictAt(source: ByteSource, offset: number, context: PDFContext): PDFDict | null {
  let window = FIRST_WINDOW;
  for (;;) {
    const bytes = source.read(offset, window);
    const whole = offset + bytes.length >= source.size;
    const parser = new WindowParser(bytes, context, offset, (d) => d, undefined);
    try {
      const dict = parser.parseObject();
      return dict instanceof PDFDict ? dict : null;
    } catch {
      if (!whole && parser.cursor.offset() > bytes.length - EDGE && window < LARGEST_WINDOW) {
        window = Math.min(window * 8, LARGEST_WINDOW);
        continue;
      }
      return null;
    }
  }
}

const ENDOBJ = Buffer.from('endobj', 'latin1');

function invalidObject(bytes: Uint8Array, from: number): PDFObject {
  while (isWhite(bytes[from])) from++;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buf.indexOf(ENDOBJ, from);
  return PDFInvalidObject.of(bytes.slice(from, end < 0 ? bytes.length : end));
}
