/**
 * pdf-lib's object parser over a window of the file's bytes (object-parse.ts
 * decides which window): its own parsing of every object, except that a
 * dictionary followed by `stream` is handed over with the offset of its data
 * instead of the parser looking for the end of the data (which could be
 * gigabytes away). Also the byte classes of ISO 32000-1 7.2.2 the reader's
 * other scanners use.
 */
import { PDFContext, PDFDict, PDFObjectParser, type PDFObject, type PDFRef } from '@cantoo/pdf-lib';

/** pdf-lib's byte cursor; not exported by the package, so reached through a parser it made. */
export interface ByteCursor {
  offset(): number;
  moveTo(offset: number): void;
  peek(): number | undefined;
  peekAhead(steps: number): number | undefined;
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
