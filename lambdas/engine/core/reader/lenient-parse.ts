/**
 * The second try at an object pdf-lib's parser refused: the same parser, but
 * dictionaries and arrays that keep what they can, the way poppler's Parser
 * and qpdf's QPDFParser recover fuzzed and hand-edited files
 * (realworld/pdfjs/poppler-742-0-fuzzed.pdf, poppler-937-0-fuzzed.pdf):
 *
 * - a dictionary key that is not a name is skipped, with the token it is
 *   (`/Kids 3 0 R] /Count 1` keeps /Kids and /Count; poppler: "Dictionary key
 *   must be a name object");
 * - a token that is no object (`R` with no numbers before it, `;`, a stray
 *   `)` or `}`) is skipped, in a dictionary's value or an array's element;
 * - a dictionary or array that is not closed ends where the object does:
 *   at `endobj`, `stream` or the end of the bytes; an array also ends at the
 *   `>>` of the dictionary around it (a missing `]`);
 * - a lone `>` inside a dictionary is skipped.
 *
 * It runs only after pdf-lib's parse failed (object-parse.ts), so sound files
 * never pay for it, and an object it recovers is reported as repaired.
 * Everything else (strings and their decryption, names, numbers, references,
 * streams, /Type-typed dictionaries) is pdf-lib's parser's own.
 */
import { PDFArray, type PDFDict, type PDFName, type PDFObject, type PDFRef } from '@cantoo/pdf-lib';
import { isDelimiter, isWhite, typedDict, WindowParser } from './window-parser';

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Keywords that end the object being read, whatever is still open. */
const ENDS = ['endobj', 'stream', 'endstream'].map((k) => [...Buffer.from(k, 'latin1')]);

export class LenientParser extends WindowParser {
  protected override parseDict(ref?: PDFRef): PDFDict {
    this.cursor.next();
    this.cursor.next();
    const entries = new Map<PDFName, PDFObject>();
    for (;;) {
      this.skipWhitespaceAndComments();
      if (this.cursor.done() || this.atEnd()) break;
      const b = this.cursor.peek();
      if (b === GT) {
        this.cursor.next();
        if (this.cursor.peek() === GT) {
          this.cursor.next();
          break;
        }
        continue;
      }
      if (b !== SLASH) {
        this.element(ref);
        continue;
      }
      const key = this.parseName();
      this.skipWhitespaceAndComments();
      if (this.cursor.done() || this.atEnd() || (this.cursor.peek() === GT && this.cursor.peekAhead(1) === GT)) break;
      const value = this.element(ref);
      if (value !== undefined) entries.set(key, value);
    }
    return typedDict(entries, this.context);
  }

  protected override parseArray(ref?: PDFRef): PDFArray {
    this.cursor.next();
    const array = PDFArray.withContext(this.context);
    for (;;) {
      this.skipWhitespaceAndComments();
      if (this.cursor.done() || this.atEnd()) break;
      const b = this.cursor.peek();
      if (b === CLOSE_BRACKET) {
        this.cursor.next();
        break;
      }
      if (b === GT && this.cursor.peekAhead(1) === GT) break;
      const value = this.element(ref);
      if (value !== undefined) array.push(value);
    }
    return array;
  }

  /** One object, or undefined after skipping the token that is none. */
  private element(ref: PDFRef | undefined): PDFObject | undefined {
    const start = this.cursor.offset();
    try {
      return this.parseObject(ref);
    } catch (e) {
      if (e instanceof RangeError) throw e;
      this.cursor.moveTo(start);
      if (this.atHugeNumber()) throw e;
      this.skipToken();
      return undefined;
    }
  }

  /**
   * A number beyond floating point range is not junk to skip: without it a
   * MediaBox would lose an element and the page be judged at a size it does not
   * have. Its object stays unreadable, as before (hostile-input.test.ts).
   */
  private atHugeNumber(): boolean {
    const at = this.cursor.offset();
    let text = '';
    while (!this.cursor.done() && /[0-9.+-]/.test(String.fromCharCode(this.cursor.peek()!))) text += String.fromCharCode(this.cursor.next());
    this.cursor.moveTo(at);
    return /\d/.test(text) && !Number.isFinite(Number(text.replace(/^\+/, '')));
  }

  /** A run of regular characters, or one delimiter that opens nothing here (`)`, `}`, `]` in a dictionary). */
  private skipToken(): void {
    const first = this.cursor.next();
    if (isDelimiter(first) && first !== SLASH && first !== LT && first !== OPEN_BRACKET) return;
    while (!this.cursor.done() && !isWhite(this.cursor.peek()) && !isDelimiter(this.cursor.peek())) this.cursor.next();
  }

  /** At a keyword that ends the object (not consumed). */
  private atEnd(): boolean {
    const at = this.cursor.offset();
    for (const keyword of ENDS) {
      if (this.matchKeyword(keyword)) {
        this.cursor.moveTo(at);
        return true;
      }
    }
    return false;
  }
}
