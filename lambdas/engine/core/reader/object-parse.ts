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
 * of decrypted-strings.ts). The parser itself is window-parser.ts; an object
 * it refuses is read again by lenient-parse.ts, as poppler and qpdf would.
 */
import { PDFDict, PDFInvalidObject, type PDFContext, type PDFObject, type PDFRef } from '@cantoo/pdf-lib';
import type { ByteSource } from './byte-source';
import { internedRef } from './interned-objects';
import { LenientParser } from './lenient-parse';
import { isWhite, WindowParser, type CipherFactory, type StreamFound } from './window-parser';

export { isDelimiter, isDigit, isWhite, type CipherFactory, type StreamFound } from './window-parser';

export interface ParsedObject {
  num: number;
  gen: number;
  object: PDFObject;
  /** pdf-lib's parser refused the object; this is what the lenient parse kept of it (lenient-parse.ts). */
  recovered?: true;
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
 * pdf-lib's parser refuses is parsed again leniently (lenient-parse.ts); one
 * that does not even start as an object becomes a PDFInvalidObject of its
 * bytes up to `endobj`, as in pdf-lib's whole-file parse.
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
    const ref = internedRef(head.num, head.gen);
    const bodyStart = parser.cursor.offset();
    try {
      const object = parser.parseObject(ref);
      if (!whole && parser.cursor.offset() > bytes.length - EDGE && window < LARGEST_WINDOW) {
        window = Math.min(window * 8, LARGEST_WINDOW);
        continue;
      }
      return { ...head, object };
    } catch (e) {
      const stoppedAt = parser.cursor.offset();
      if (!whole && stoppedAt > bytes.length - EDGE && window < LARGEST_WINDOW) {
        window = Math.min(window * 8, LARGEST_WINDOW);
        continue;
      }
      const lenient = new LenientParser(bytes, options.context, offset, options.onStream, options.crypto);
      const object = e instanceof RangeError ? undefined : leniently(lenient, bodyStart, ref);
      // A dictionary left open may run on past the window, as the strict parse would have.
      if (object && !whole && lenient.cursor.offset() > bytes.length - EDGE && window < LARGEST_WINDOW) {
        window = Math.min(window * 8, LARGEST_WINDOW);
        continue;
      }
      return object ? { ...head, object, recovered: true } : { ...head, object: invalidObject(bytes, bodyStart) };
    }
  }
}

/** The header at `offset` only: cheap validation of a cross-reference offset. */
export function headerAt(source: ByteSource, offset: number, context: PDFContext): { num: number; gen: number } | null {
  if (offset < 0 || offset >= source.size) return null;
  const parser = new WindowParser(source.read(offset, 64), context, offset, (d) => d, undefined);
  return parser.header();
}

/**
 * One object from decoded bytes (an object stream member): no header, no
 * decryption; parsed leniently when pdf-lib's parser refuses it.
 */
export function parseObjectIn(bytes: Uint8Array, at: number, context: PDFContext, onStream: StreamFound): { object: PDFObject; recovered?: true } | undefined {
  const parser = new WindowParser(bytes, context, 0, onStream, undefined);
  parser.cursor.moveTo(at);
  try {
    return { object: parser.parseObject() };
  } catch (e) {
    const object = e instanceof RangeError ? undefined : leniently(new LenientParser(bytes, context, 0, onStream, undefined), at, undefined);
    return object && { object, recovered: true };
  }
}

/** The lenient parse from `at`, or undefined when even it finds no object there. */
function leniently(parser: LenientParser, at: number, ref: PDFRef | undefined): PDFObject | undefined {
  parser.cursor.moveTo(at);
  try {
    return parser.parseObject(ref);
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
