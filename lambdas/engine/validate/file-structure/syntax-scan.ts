/**
 * One walk over the file's raw bytes for the syntax rules of ISO 19005 6.1
 * (PDF/A-1, -2/3 and -4 number the same requirements differently). pdf-lib is
 * lenient: it repairs cross-reference tables, ignores Length, and forgets how
 * numbers, strings and object headers were written, which is exactly what
 * these clauses judge. So the scanner tokenises the file itself, once, without
 * copying it: object headers and their spacing, stream keyword EOLs and real
 * lengths (stream bodies are skipped, by Length when it is right, else by
 * searching for `endstream`), xref sections, the last %%EOF, and every number,
 * string, name, array and dictionary against the implementation limits.
 * Objects inside object streams are tokenised too (decoded through pdf-lib),
 * for the value limits only: they have no object headers of their own.
 */
import { PDFRawStream, PDFRef, type PDFContext } from '@cantoo/pdf-lib';
import { streamBytes } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';

export interface RawObjectHeader {
  objectNumber: number;
  generation: number;
  offset: number;
  /** Why the object's `N G obj … endobj` spacing breaks the PDF/A rules, or null. */
  spacingProblem: string | null;
}

export interface RawStream {
  objectNumber: number;
  generation: number;
  /** Length as a direct integer in the stream dictionary, or null. */
  declaredLength: number | null;
  /** Length as an indirect reference (resolved by the rule through pdf-lib). */
  lengthRef: { objectNumber: number; generation: number } | null;
  /** Bytes between the EOL after `stream` and the EOL before `endstream`. */
  realLength: number;
  /** `stream` is followed by CR LF or by LF alone. */
  keywordEolOk: boolean;
  /** `endstream` is preceded by an EOL marker. */
  endstreamEolOk: boolean;
  /** `endstream` was found at all. */
  terminated: boolean;
}

export interface RawXref {
  offset: number;
  /** `xref` is followed by exactly one EOL marker and then a subsection header. */
  keywordEolOk: boolean;
  /** Every subsection header separates its two numbers by a single space. */
  subsectionSpacingOk: boolean;
}

/** A value beyond an implementation limit (or a malformed hexadecimal string). */
export interface ValueHit {
  /** Object the value sits in (the object stream's member when compressed). */
  objectNumber: number | undefined;
  /** How it was written, shortened. */
  text: string;
  /** Numeric magnitude judged: the value, or the length/size. */
  value: number;
}

export interface ValueFindings {
  /** Integers outside −2^31 … 2^31−1. */
  bigIntegers: ValueHit[];
  /** Reals, written with a decimal point, whose magnitude exceeds 32767 (the PDF/A-1 limit; rules filter further). */
  bigReals: ValueHit[];
  /** Non-zero reals closer to zero than ±1.175e−38. */
  tinyReals: ValueHit[];
  /** Strings longer than 32767 bytes (value = byte length). */
  longStrings: ValueHit[];
  /** Names longer than 127 bytes after #xx expansion. */
  longNames: ValueHit[];
  /** Arrays of more than 8191 elements. */
  bigArrays: ValueHit[];
  /** Dictionaries of more than 4095 entries. */
  bigDicts: ValueHit[];
  /** Hexadecimal strings with an odd number of digits. */
  oddHexStrings: ValueHit[];
  /** Hexadecimal strings with characters other than 0-9, A-F, a-f and white space. */
  nonHexStrings: ValueHit[];
}

export interface SyntaxScan {
  objects: RawObjectHeader[];
  streams: RawStream[];
  xrefs: RawXref[];
  /** Offsets of `trailer` keywords, in file order. */
  trailerOffsets: number[];
  /** Bytes after the last %%EOF beyond one optional EOL marker; -1 when there is no %%EOF. */
  postEofBytes: number;
  values: ValueFindings;
  /** Object numbers of object streams (their members' values are reported under them). */
  objectStreams: number[];
  /** Objects the cross-reference tables mark free (later sections override earlier ones). */
  freeObjects: Set<number>;
}

/** Examples kept per kind of finding (counts are not needed beyond "some"). */
const MAX_HITS = 20;

const WS = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[b] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
const isEol = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

const ascii = (bytes: Uint8Array, from: number, to: number): string => {
  let s = '';
  const end = Math.min(to, from + 80);
  for (let i = from; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return to > end ? `${s}…` : s;
};

export const syntaxScan = fact('file-structure/syntax-scan', (m: ValidationModel): SyntaxScan => {
  const scanner = new Scanner(m.bytes);
  scanner.run();
  const result = scanner.result();
  // Objects inside object streams: only their values are judged here.
  for (const s of scanner.objectStreams) {
    try {
      const obj = m.context.lookup(PDFRef.of(s.objectNumber, s.generation));
      if (!(obj instanceof PDFRawStream)) continue;
      const data = streamBytes(obj);
      if (!data) continue;
      scanValues(data, result.values, s.objectNumber);
    } catch {
      // An unreadable object stream has nothing to judge here; pdf-lib reports it elsewhere.
    }
  }
  return result;
});

export const emptyFindings = (): ValueFindings => ({ bigIntegers: [], bigReals: [], tinyReals: [], longStrings: [], longNames: [], bigArrays: [], bigDicts: [], oddHexStrings: [], nonHexStrings: [] });

/** Judges the values of decoded bytes (an object or content stream) into `findings`. */
export function scanValues(bytes: Uint8Array, findings: ValueFindings, objectNumber: number | undefined): void {
  new Scanner(bytes, findings, objectNumber).runValuesOnly();
}

/** Offset of the last %%EOF marker, or -1. */
export function lastEofOffset(bytes: Uint8Array): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).lastIndexOf('%%EOF');
}

interface Container {
  kind: 'array' | 'dict';
  count: number;
  start: number;
  /** For dictionaries at the top of an object: the key last read, to catch /Length and /Type. */
  key: string | null;
  length: number | null;
  lengthRef: { objectNumber: number; generation: number } | null;
  type: string | null;
}

interface Tok {
  kind: 'int' | 'real' | 'name' | 'kw' | 'other';
  start: number;
  end: number;
  num?: number;
  text?: string;
}

class Scanner {
  private pos = 0;
  private readonly stack: Container[] = [];
  /** The last three tokens at object level (for `N G obj`, `N G R`). */
  private recent: Tok[] = [];
  private currentObject: number | undefined;
  private currentGeneration = 0;
  private currentHeader: RawObjectHeader | undefined;
  /** The top-level dictionary just closed (a stream's dictionary when `stream` follows). */
  private lastDict: Container | undefined;
  readonly objects: RawObjectHeader[] = [];
  readonly streams: RawStream[] = [];
  readonly xrefs: RawXref[] = [];
  readonly trailerOffsets: number[] = [];
  /** Object number → marked free, from the xref tables in file order. */
  readonly xrefState = new Map<number, boolean>();
  readonly objectStreams: { objectNumber: number; generation: number }[] = [];
  readonly values: ValueFindings;

  constructor(
    private readonly b: Uint8Array,
    values?: ValueFindings,
    private readonly fixedObject?: number,
  ) {
    this.values = values ?? emptyFindings();
    this.currentObject = fixedObject;
  }

  result(): SyntaxScan {
    const eof = lastEofOffset(this.b);
    let postEofBytes = -1;
    if (eof >= 0) {
      let p = eof + 5;
      if (this.b[p] === 0x0d) p++;
      if (this.b[p] === 0x0a) p++;
      postEofBytes = this.b.length - p;
    }
    return { objects: this.objects, streams: this.streams, xrefs: this.xrefs, trailerOffsets: this.trailerOffsets, postEofBytes, values: this.values, objectStreams: this.objectStreams.map((s) => s.objectNumber), freeObjects: new Set([...this.xrefState].filter(([, f]) => f).map(([n]) => n)) };
  }

  runValuesOnly(): void {
    const b = this.b;
    while (this.pos < b.length) this.step(true);
  }

  run(): void {
    const b = this.b;
    while (this.pos < b.length) this.step(false);
  }

  private hit(list: ValueHit[], start: number, end: number, value: number): void {
    if (list.length < MAX_HITS) list.push({ objectNumber: this.currentObject, text: ascii(this.b, start, end), value });
  }

  /** Counts an element in the innermost container. */
  private element(): void {
    const top = this.stack[this.stack.length - 1];
    if (top) top.count++;
  }

  private step(valuesOnly: boolean): void {
    const b = this.b;
    while (this.pos < b.length && WS[b[this.pos]!]) this.pos++;
    if (this.pos >= b.length) return;
    const c = b[this.pos]!;
    const start = this.pos;
    switch (c) {
      case 0x25: // % comment
        while (this.pos < b.length && !isEol(b[this.pos])) this.pos++;
        return;
      case 0x28: {
        const length = this.literalString();
        if (length > 32767) this.hit(this.values.longStrings, start, Math.min(this.pos, start + 40), length);
        this.element();
        this.push({ kind: 'other', start, end: this.pos });
        return;
      }
      case 0x3c:
        if (b[this.pos + 1] === 0x3c) {
          this.pos += 2;
          this.element();
          this.stack.push({ kind: 'dict', count: 0, start, key: null, length: null, lengthRef: null, type: null });
          this.recent = [];
          return;
        }
        this.hexString(start);
        this.element();
        this.push({ kind: 'other', start, end: this.pos });
        return;
      case 0x3e:
        this.pos += b[this.pos + 1] === 0x3e ? 2 : 1;
        this.close('dict');
        return;
      case 0x5b:
        this.pos++;
        this.element();
        this.stack.push({ kind: 'array', count: 0, start, key: null, length: null, lengthRef: null, type: null });
        this.recent = [];
        return;
      case 0x5d:
        this.pos++;
        this.close('array');
        return;
      case 0x2f: {
        this.pos++;
        while (this.pos < b.length && !WS[b[this.pos]!] && !DELIM[b[this.pos]!]) this.pos++;
        const raw = ascii(b, start + 1, this.pos);
        let length = this.pos - start - 1;
        // #xx escapes stand for one byte each.
        for (let i = start + 1; i < this.pos; i++) if (b[i] === 0x23 && HEX[b[i + 1]!] && HEX[b[i + 2]!]) length -= 2;
        if (length > 127) this.hit(this.values.longNames, start, this.pos, length);
        this.element();
        this.push({ kind: 'name', start, end: this.pos, text: raw });
        return;
      }
      case 0x29:
      case 0x7b:
      case 0x7d:
        this.pos++;
        return;
    }
    // A number or keyword.
    while (this.pos < b.length && !WS[b[this.pos]!] && !DELIM[b[this.pos]!]) this.pos++;
    const end = this.pos;
    const first = b[start]!;
    if ((first >= 0x30 && first <= 0x39) || first === 0x2b || first === 0x2d || first === 0x2e) {
      this.number(start, end);
      return;
    }
    const word = ascii(b, start, end);
    if (word === 'R') {
      // `N G R` is one element, not three: undo the two counted integers.
      const top = this.stack[this.stack.length - 1];
      if (top && this.recent.length >= 2) top.count -= 1;
      const [n, g] = this.recent.slice(-2);
      const dict = this.stack[this.stack.length - 1];
      if (dict?.kind === 'dict' && this.stack.length === 1 && dict.key === 'Length' && n?.kind === 'int' && g?.kind === 'int') {
        dict.lengthRef = { objectNumber: n.num!, generation: g.num! };
        dict.length = null;
      }
      this.recent = [];
      return;
    }
    if (word === 'true' || word === 'false' || word === 'null') {
      this.element();
      this.push({ kind: 'other', start, end });
      return;
    }
    if (valuesOnly) {
      // Inline image data (content streams) is binary: skip to the EI that ends it.
      if (word === 'ID') this.skipInlineImageData(end);
      this.push({ kind: 'kw', start, end, text: word });
      return;
    }
    this.keyword(word, start, end);
  }

  private skipInlineImageData(from: number): void {
    const b = this.b;
    for (let p = from + 1; p < b.length - 1; p++) {
      if (b[p] === 0x45 && b[p + 1] === 0x49 && WS[b[p - 1]!] && (p + 2 >= b.length || WS[b[p + 2]!] || DELIM[b[p + 2]!])) {
        this.pos = p + 2;
        return;
      }
    }
    this.pos = b.length;
  }

  private push(tok: Tok): void {
    const dict = this.stack[this.stack.length - 1];
    if (dict?.kind === 'dict' && this.stack.length === 1) {
      // Track top-level keys of an object's dictionary: /Length and /Type.
      if (tok.kind === 'name' && dict.count % 2 === 1) dict.key = tok.text ?? null;
      else if (dict.key === 'Length' && tok.kind === 'int') dict.length = tok.num!;
      else if (dict.key === 'Type' && tok.kind === 'name') dict.type = tok.text ?? null;
    }
    this.recent.push(tok);
    if (this.recent.length > 3) this.recent.shift();
  }

  private close(kind: 'array' | 'dict'): void {
    const top = this.stack[this.stack.length - 1];
    if (!top || top.kind !== kind) return;
    this.stack.pop();
    if (kind === 'array' && top.count > 8191) this.hit(this.values.bigArrays, top.start, top.start + 20, top.count);
    if (kind === 'dict' && top.count / 2 > 4095) this.hit(this.values.bigDicts, top.start, top.start + 20, Math.floor(top.count / 2));
    if (kind === 'dict' && this.stack.length === 0) this.lastDict = top;
    this.recent = [];
    this.push({ kind: 'other', start: top.start, end: this.pos });
  }

  private number(start: number, end: number): void {
    const b = this.b;
    let dot = false;
    for (let i = start; i < end; i++) if (b[i] === 0x2e) dot = true;
    const text = ascii(b, start, end);
    let value = Number(text);
    if (!Number.isFinite(value)) value = Number.parseFloat(text);
    if (!Number.isFinite(value)) value = 0;
    if (dot) {
      const abs = Math.abs(value);
      if (abs > 32767) this.hit(this.values.bigReals, start, end, value);
      if (abs !== 0 && abs < 1.175e-38) this.hit(this.values.tinyReals, start, end, value);
      this.element();
      this.push({ kind: 'real', start, end, num: value });
    } else {
      if (value > 2147483647 || value < -2147483648) this.hit(this.values.bigIntegers, start, end, value);
      this.element();
      this.push({ kind: 'int', start, end, num: value });
    }
  }

  /** Reads a literal string; returns its length in bytes after escapes. */
  private literalString(): number {
    const b = this.b;
    this.pos++;
    let nesting = 1;
    let length = 0;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x5c) {
        const e = b[this.pos++];
        if (e === undefined) break;
        if (e >= 0x30 && e <= 0x37) {
          for (let i = 0; i < 2 && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; i++) this.pos++;
          length++;
        } else if (e === 0x0d) {
          if (b[this.pos] === 0x0a) this.pos++;
        } else if (e !== 0x0a) length++;
        continue;
      }
      if (c === 0x28) nesting++;
      else if (c === 0x29 && --nesting === 0) break;
      length++;
    }
    return length;
  }

  private hexString(start: number): void {
    const b = this.b;
    this.pos++;
    let digits = 0;
    let foreign = false;
    let bytes = 0;
    while (this.pos < b.length && b[this.pos] !== 0x3e) {
      const c = b[this.pos++]!;
      if (WS[c]) continue;
      digits++;
      if (!HEX[c]) foreign = true;
      // A hex string never legitimately runs into a dictionary or object keyword; stop at a delimiter that cannot belong to it.
      if (c === 0x3c || c === 0x2f || c === 0x5b || c === 0x5d) {
        this.pos--;
        break;
      }
    }
    if (b[this.pos] === 0x3e) this.pos++;
    bytes = Math.ceil(digits / 2);
    if (digits % 2 === 1) this.hit(this.values.oddHexStrings, start, this.pos, digits);
    if (foreign) this.hit(this.values.nonHexStrings, start, this.pos, digits);
    if (bytes > 32767) this.hit(this.values.longStrings, start, Math.min(this.pos, start + 40), bytes);
  }

  private keyword(word: string, start: number, end: number): void {
    const b = this.b;
    switch (word) {
      case 'obj': {
        const [n, g] = this.recent.slice(-2);
        this.stack.length = 0;
        this.lastDict = undefined;
        if (n?.kind === 'int' && g?.kind === 'int') {
          this.currentObject = n.num!;
          this.currentGeneration = g.num!;
          const header: RawObjectHeader = { objectNumber: n.num!, generation: g.num!, offset: n.start, spacingProblem: this.headerSpacing(n, g, start, end) };
          this.objects.push(header);
          this.currentHeader = header;
        }
        this.recent = [];
        return;
      }
      case 'endobj': {
        if (this.currentHeader && this.currentHeader.spacingProblem === null) {
          if (!isEol(b[start - 1])) this.currentHeader.spacingProblem = 'endobj is not preceded by an end-of-line marker';
          else if (end < b.length && !isEol(b[end])) this.currentHeader.spacingProblem = 'endobj is not followed by an end-of-line marker';
        }
        this.currentHeader = undefined;
        this.stack.length = 0;
        this.recent = [];
        return;
      }
      case 'stream':
        this.stream(start, end);
        return;
      case 'xref':
        if (this.stack.length === 0) this.xref(start, end);
        this.recent = [];
        return;
      case 'trailer':
        this.trailerOffsets.push(start);
        this.currentObject = undefined;
        this.currentHeader = undefined;
        this.stack.length = 0;
        this.recent = [];
        return;
      default:
        this.push({ kind: 'kw', start, end, text: word });
    }
  }

  /** `N G obj`: single white-space separators, EOL before the object number and after `obj`. */
  private headerSpacing(n: Tok, g: Tok, objStart: number, objEnd: number): string | null {
    const b = this.b;
    if (g.start - n.end !== 1 || !WS[b[n.end]!]) return 'object and generation numbers are not separated by a single white-space character';
    if (objStart - g.end !== 1 || !WS[b[g.end]!]) return 'generation number and obj keyword are not separated by a single white-space character';
    if (n.start > 0 && !isEol(b[n.start - 1])) return 'the object number is not preceded by an end-of-line marker';
    if (!isEol(b[objEnd])) return 'obj is not followed by an end-of-line marker';
    return null;
  }

  private stream(start: number, end: number): void {
    const b = this.b;
    const dict = this.lastDict;
    this.lastDict = undefined;
    let dataStart = end;
    let keywordEolOk = false;
    if (b[end] === 0x0d && b[end + 1] === 0x0a) {
      dataStart = end + 2;
      keywordEolOk = true;
    } else if (b[end] === 0x0a) {
      dataStart = end + 1;
      keywordEolOk = true;
    } else if (b[end] === 0x0d) dataStart = end + 1;
    const declared = dict?.length ?? null;
    // Find endstream: where Length says first, else by search.
    let endKeyword = -1;
    let realLength = -1;
    if (declared !== null && declared >= 0 && dataStart + declared <= b.length) {
      // Length is right when an EOL marker (or nothing) and endstream follow the data it spans;
      // data may itself end in CR or LF (UTF-16 XMP ending in "\r\0"), so judge from Length's end.
      let p = dataStart + declared;
      if (b[p] === 0x0d) p++;
      if (b[p] === 0x0a) p++;
      if (matches(b, p, 'endstream')) {
        endKeyword = p;
        realLength = declared;
      }
    }
    if (endKeyword < 0) endKeyword = indexOf(b, 'endstream', dataStart);
    const terminated = endKeyword >= 0;
    if (!terminated) endKeyword = b.length;
    if (realLength < 0) {
      let dataEnd = endKeyword;
      if (b[dataEnd - 1] === 0x0a) dataEnd--;
      if (b[dataEnd - 1] === 0x0d) dataEnd--;
      realLength = Math.max(0, dataEnd - dataStart);
    }
    const endstreamEolOk = isEol(b[endKeyword - 1]);
    if (this.currentObject !== undefined) {
      this.streams.push({
        objectNumber: this.currentObject,
        generation: this.currentGeneration,
        declaredLength: declared,
        lengthRef: dict?.lengthRef ?? null,
        realLength,
        keywordEolOk,
        endstreamEolOk,
        terminated,
      });
      if (dict?.type === 'ObjStm') this.objectStreams.push({ objectNumber: this.currentObject, generation: this.currentGeneration });
    }
    this.pos = terminated ? endKeyword + 9 : b.length;
    this.recent = [];
  }

  private xref(start: number, end: number): void {
    const b = this.b;
    let p = end;
    let keywordEolOk = false;
    if (b[p] === 0x0d && b[p + 1] === 0x0a) p += 2;
    else if (isEol(b[p])) p += 1;
    else p = -1;
    if (p > 0) keywordEolOk = b[p]! >= 0x30 && b[p]! <= 0x39;
    if (p < 0) {
      p = end;
      while (p < b.length && WS[b[p]!]) p++;
    }
    let subsectionSpacingOk = true;
    // Subsections: "start count" EOL, then count entries of one line each.
    for (let guard = 0; guard < 1_000_000; guard++) {
      while (p < b.length && WS[b[p]!]) p++;
      if (!(b[p]! >= 0x30 && b[p]! <= 0x39)) break;
      let q = p;
      while (b[q]! >= 0x30 && b[q]! <= 0x39) q++;
      let sep = q;
      while (b[sep] === 0x20 || b[sep] === 0x09) sep++;
      if (!(b[sep]! >= 0x30 && b[sep]! <= 0x39)) break;
      if (sep - q !== 1 || b[q] !== 0x20) subsectionSpacingOk = false;
      let first = 0;
      for (let i = p; i < q; i++) first = first * 10 + (b[i]! - 0x30);
      let r = sep;
      let count = 0;
      while (b[r]! >= 0x30 && b[r]! <= 0x39) count = count * 10 + (b[r++]! - 0x30);
      // The rest of the header line.
      while (r < b.length && !isEol(b[r])) r++;
      if (b[r] === 0x0d) r++;
      if (b[r] === 0x0a) r++;
      // Entries: skip one line each (20-byte entries end in SP CR, SP LF or CR LF).
      for (let i = 0; i < count && r < b.length; i++) {
        let kind = 0;
        while (r < b.length && !isEol(b[r])) {
          if (b[r] === 0x66 || b[r] === 0x6e) kind = b[r]!;
          r++;
        }
        if (kind !== 0) this.xrefState.set(first + i, kind === 0x66);
        if (b[r] === 0x0d) r++;
        if (b[r] === 0x0a) r++;
      }
      p = r;
    }
    this.xrefs.push({ offset: start, keywordEolOk, subsectionSpacingOk });
    this.pos = Math.max(p, end);
  }
}

function matches(b: Uint8Array, at: number, word: string): boolean {
  if (at + word.length > b.length) return false;
  for (let i = 0; i < word.length; i++) if (b[at + i] !== word.charCodeAt(i)) return false;
  return true;
}

function indexOf(b: Uint8Array, word: string, from: number): number {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).indexOf(word, from, 'latin1');
}

/**
 * Object numbers a reader takes as part of the document: every object except
 * those the (last) cross-reference table marks free. Free objects left in the
 * file are not judged — pass files of the corpus keep an odd-length `<AF9>`
 * and a stream with a wrong Length behind `f` entries — while an object only
 * the cross-reference table points to still is (a PDF/A-1 fail file puts its
 * badly spaced `endobj` in such an object).
 */
export const reachableObjects = fact('file-structure/in-use', (m): { has(n: number): boolean } => {
  const free = syntaxScan(m).freeObjects;
  return { has: (n: number) => !free.has(n) };
});

/** The number of indirect objects pdf-lib found (object streams' members included). */
export const indirectObjectCount = fact('file-structure/indirect-count', (m): number => countObjects(m.context));

function countObjects(context: PDFContext): number {
  return context.enumerateIndirectObjects().length;
}
