/**
 * Content stream lexer (ISO 32000-1 7.8.2): decoded content bytes → operations,
 * each an operator with its operands. It is the bottom layer of the content
 * interpreter: lenient (an unterminated string or array ends where the data
 * ends, stray delimiters are skipped) and allocation-light, because print PDFs
 * carry hundreds of megabytes of content.
 *
 * Inline images (BI … ID <data> EI) come out as one `BI` operation whose single
 * operand is the image dictionary; the data is skipped.
 */

import { plainNumber } from './plain-number';

export interface PdfNameToken {
  name: string;
}
export interface PdfStringToken {
  bytes: Uint8Array;
}
export interface PdfDictToken {
  dict: Record<string, Operand>;
}
export type Operand = number | boolean | null | PdfNameToken | PdfStringToken | PdfDictToken | Operand[];

export interface Operation {
  op: string;
  operands: Operand[];
}

export const isName = (o: Operand | undefined): o is PdfNameToken => typeof o === 'object' && o !== null && 'name' in o;

const WS = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[b] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;
const isRegular = (b: number): boolean => !WS[b] && !DELIM[b];
const SIMPLE_ESCAPES: Record<number, number> = { 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12, 0x28: 0x28, 0x29: 0x29, 0x5c: 0x5c };
/** Longest keyword or number kept; longer runs are binary junk, not operators. */
const MAX_WORD = 256;

/** Guards against pathological streams: operands kept per operation and nesting depth. */
const MAX_OPERANDS = 4096;
const MAX_DEPTH = 64;

/**
 * The operations of a content stream, read as they are asked for. An iterator
 * object rather than a generator, and one IteratorResult reused for every step
 * (take `value` before asking for the next, as for-of and spread do): a page
 * holds tens of thousands of operations, and the generator's per-step objects
 * and the operand arrays grown element by element were most of the lexer's
 * allocations.
 */
export function operations(bytes: Uint8Array): IterableIterator<Operation> {
  return new OperationReader(bytes, false);
}

/**
 * The same operations, all handed out in one Operation object whose operands
 * array is refilled at every step: for a consumer that is done with each
 * operation before asking for the next and keeps neither the object nor its
 * operands array (the interpreter's executor, which copies what it keeps).
 * The per-operation object and array were an eighth of what preflight allocated.
 */
export function reusedOperations(bytes: Uint8Array): IterableIterator<Operation> {
  return new OperationReader(bytes, true);
}

class OperationReader implements IterableIterator<Operation> {
  private readonly lexer: Lexer;
  /** Operands of the operation being read; copied to an array of their exact length at its operator. */
  private readonly operands: Operand[] = [];
  private readonly step: IteratorYieldResult<Operation> = { done: false, value: { op: '', operands: [] } };

  constructor(
    bytes: Uint8Array,
    private readonly reuse: boolean,
  ) {
    this.lexer = new Lexer(bytes);
  }

  [Symbol.iterator](): IterableIterator<Operation> {
    return this;
  }

  /** In reuse mode, the operands handed out last are cleared when the next operation is asked for. */
  private clearNext = false;

  next(): IteratorResult<Operation> {
    const lexer = this.lexer;
    const operands = this.operands;
    if (this.clearNext) {
      clear(operands);
      this.clearNext = false;
    }
    for (;;) {
      const tok = lexer.next(0);
      if (tok === EOF) {
        clear(operands);
        return { done: true, value: undefined };
      }
      if (tok instanceof Keyword) {
        if (this.reuse) {
          const value = this.step.value;
          value.op = tok.word;
          if (tok.word === 'BI') {
            clear(operands);
            operands.push(lexer.inlineImage());
          }
          // The operands of the previous step are cleared when this one starts: see next().
          value.operands = operands;
          this.clearNext = true;
          return this.step;
        }
        this.step.value = tok.word === 'BI' ? { op: 'BI', operands: [lexer.inlineImage()] } : { op: tok.word, operands: operands.slice() };
        clear(operands);
        return this.step;
      }
      if (tok === SKIP || tok === CLOSE_ARRAY || tok === CLOSE_DICT) continue;
      if (operands.length < MAX_OPERANDS) operands.push(tok);
    }
  }
}

/**
 * Empties the operands array in place. `length = 0` makes V8 drop the array's
 * backing store, so the next push allocated a new one: an allocation per
 * operation, a sixth of what preflight allocated.
 */
function clear(a: Operand[]): void {
  while (a.length > 0) a.pop();
}

class Keyword {
  constructor(readonly word: string) {}
}

/** A word that is not a number: a literal or an operator keyword. */
function wordToken(text: string): Keyword | boolean | null {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  return new Keyword(text);
}

/** Tokens of the words of one to four bytes seen so far, keyed by their bytes (no word holds a zero byte). */
const shortWords = new Map<number, Keyword | boolean | null>();
/** Tokens of the names of up to four bytes seen so far, keyed the same way (0: the empty name); tokens are never changed. */
const shortNames = new Map<number, PdfNameToken>();

/** A name's text, # escapes decoded. */
function nameOf(b: Uint8Array, start: number, end: number): string {
  const text = latin1(b, start, end);
  return text.includes('#') ? text.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) : text;
}
const EOF = Symbol('eof');
const SKIP = Symbol('skip');
const CLOSE_ARRAY = Symbol(']');
const CLOSE_DICT = Symbol('>>');
type Token = Operand | Keyword | typeof EOF | typeof SKIP | typeof CLOSE_ARRAY | typeof CLOSE_DICT;

class Lexer {
  private pos = 0;
  constructor(private readonly b: Uint8Array) {}

  next(depth: number): Token {
    const b = this.b;
    for (;;) {
      while (this.pos < b.length && WS[b[this.pos]!]) this.pos++;
      if (this.pos >= b.length) return EOF;
      if (b[this.pos] !== 0x25) break; // %comment
      while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
    }
    const c = b[this.pos]!;
    switch (c) {
      case 0x2f: // /
        return this.name();
      case 0x28: // (
        return this.literalString();
      case 0x3c: // <
        if (b[this.pos + 1] === 0x3c) {
          this.pos += 2;
          return this.dict(depth);
        }
        return this.hexString();
      case 0x3e: // >
        if (b[this.pos + 1] === 0x3e) {
          this.pos += 2;
          return CLOSE_DICT;
        }
        this.pos++;
        return SKIP;
      case 0x5b: // [
        this.pos++;
        return this.array(depth);
      case 0x5d: // ]
        this.pos++;
        return CLOSE_ARRAY;
      case 0x29: // ) { } stray delimiters
      case 0x7b:
      case 0x7d:
        this.pos++;
        return SKIP;
      default:
        return this.word();
    }
  }

  private word(): Token {
    const b = this.b;
    const start = this.pos;
    while (this.pos < b.length && isRegular(b[this.pos]!)) this.pos++;
    const end = this.pos;
    if (end - start > MAX_WORD) return SKIP;
    const c = b[start]!;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      const plain = plainNumber(b, start, end);
      if (plain !== undefined) return plain;
      const text = latin1(b, start, end);
      const n = Number(text);
      if (Number.isFinite(n)) return n;
      // "--5", "1.2.3": readers take the leading number.
      const lead = Number.parseFloat(text);
      return Number.isFinite(lead) ? lead : 0;
    }
    // Operators are a small vocabulary repeated millions of times: each word of
    // up to four bytes is spelled out once and its token reused.
    if (end - start > 4) return wordToken(latin1(b, start, end));
    let key = 0;
    for (let i = end - 1; i >= start; i--) key = key * 256 + b[i]!;
    let token = shortWords.get(key);
    if (token === undefined) {
      token = wordToken(latin1(b, start, end));
      shortWords.set(key, token);
    }
    return token;
  }

  private name(): PdfNameToken {
    this.pos++;
    const start = this.pos;
    while (this.pos < this.b.length && isRegular(this.b[this.pos]!)) this.pos++;
    const end = this.pos;
    if (end - start > 4) return { name: nameOf(this.b, start, end) };
    // Resource names (/F1, /Im0, /GS2) repeat on every page: spelled out once.
    let key = 0;
    for (let i = end - 1; i >= start; i--) key = key * 256 + this.b[i]!;
    let token = shortNames.get(key);
    if (token === undefined) {
      token = { name: nameOf(this.b, start, end) };
      shortNames.set(key, token);
    }
    return token;
  }

  private literalString(): PdfStringToken {
    const b = this.b;
    this.pos++;
    // Most strings (text shown with Tj/TJ) have no escapes: hand out a view of
    // the content bytes instead of copying them byte by byte, which was a
    // tenth of the preflight time on text-heavy files.
    const plainEnd = this.plainStringEnd();
    if (plainEnd >= 0) {
      const bytes = new Uint8Array(b.buffer, b.byteOffset + this.pos, plainEnd - this.pos);
      this.pos = plainEnd + 1;
      return { bytes };
    }
    const out: number[] = [];
    let nesting = 1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x5c) {
        const e = b[this.pos++];
        if (e === undefined) break;
        const simple = SIMPLE_ESCAPES[e];
        if (simple !== undefined) out.push(simple);
        else if (e >= 0x30 && e <= 0x37) {
          let v = e - 0x30;
          for (let i = 0; i < 2 && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; i++) v = v * 8 + (b[this.pos++]! - 0x30);
          out.push(v & 0xff);
        } else if (e === 0x0d) {
          if (b[this.pos] === 0x0a) this.pos++;
        } else if (e !== 0x0a) out.push(e);
        continue;
      }
      if (c === 0x28) nesting++;
      else if (c === 0x29 && --nesting === 0) break;
      out.push(c);
    }
    return { bytes: Uint8Array.from(out) };
  }

  /** Where a string without backslashes closes (balanced parentheses), or -1. */
  private plainStringEnd(): number {
    const b = this.b;
    let nesting = 1;
    for (let i = this.pos; i < b.length; i++) {
      const c = b[i]!;
      if (c === 0x5c) return -1;
      if (c === 0x28) nesting++;
      else if (c === 0x29 && --nesting === 0) return i;
    }
    return -1;
  }

  private hexString(): PdfStringToken {
    const b = this.b;
    this.pos++;
    const out: number[] = [];
    let hi = -1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x3e) break;
      const v = hexValue(c);
      if (v < 0) continue;
      if (hi < 0) hi = v;
      else {
        out.push(hi * 16 + v);
        hi = -1;
      }
    }
    if (hi >= 0) out.push(hi * 16);
    return { bytes: Uint8Array.from(out) };
  }

  private array(depth: number): Operand[] {
    const out: Operand[] = [];
    for (;;) {
      if (depth >= MAX_DEPTH) return out;
      const t = this.next(depth + 1);
      if (t === EOF || t === CLOSE_ARRAY) return out;
      if (t === SKIP || t === CLOSE_DICT || t instanceof Keyword) continue;
      out.push(t);
    }
  }

  private dict(depth: number): PdfDictToken {
    const dict: Record<string, Operand> = {};
    let key: string | null = null;
    for (;;) {
      if (depth >= MAX_DEPTH) return { dict };
      const t = this.next(depth + 1);
      if (t === EOF || t === CLOSE_DICT) return { dict };
      if (t === SKIP || t === CLOSE_ARRAY || t instanceof Keyword) continue;
      if (key === null) {
        if (isName(t)) key = t.name;
      } else {
        dict[key] = t;
        key = null;
      }
    }
  }

  /** After `BI`: the image dictionary up to `ID`, then skips the data through `EI`. */
  inlineImage(): PdfDictToken {
    const dict: Record<string, Operand> = {};
    let key: string | null = null;
    for (;;) {
      const t = this.next(1);
      if (t === EOF) return { dict };
      if (t instanceof Keyword) {
        if (t.word === 'ID') break;
        continue;
      }
      if (t === SKIP || t === CLOSE_ARRAY || t === CLOSE_DICT) continue;
      if (key === null) {
        if (isName(t)) key = t.name;
      } else {
        dict[key] = t;
        key = null;
      }
    }
    this.pos++; // the single white-space character after ID
    this.pos = inlineDataEnd(this.b, this.pos, inlineDataLength(dict));
    return { dict };
  }
}

/**
 * Where inline image data that starts at `data` ends: the position just after
 * its EI, or the end of the bytes. Where the data length is known (stated by
 * PDF 2.0's /L, or computable for unfiltered data), it is trusted when it
 * lands on EI: the data may contain "EI". Otherwise the first `EI` preceded by
 * white space, followed by white space, a delimiter or the end, and then by
 * text rather than binary data (as pdf.js also requires). Shared with
 * inline-images.ts, which must find the same end to copy an image verbatim.
 */
export function inlineDataEnd(b: Uint8Array, data: number, length: number | null): number {
  if (length !== null) {
    const end = skipWs(b, data + length);
    if (isEiAt(b, end)) return end + 2;
  }
  for (let i = data; i < b.length - 1; i++) {
    if (b[i] === 0x45 && b[i + 1] === 0x49 && (i === data || WS[b[i - 1]!]) && isEiAt(b, i) && textFollows(b, i + 2)) return i + 2;
  }
  return b.length;
}

function isEiAt(b: Uint8Array, i: number): boolean {
  return b[i] === 0x45 && b[i + 1] === 0x49 && (i + 2 >= b.length || WS[b[i + 2]!] === 1 || DELIM[b[i + 2]!] === 1);
}

const COMPONENTS: Record<string, number> = { G: 1, DeviceGray: 1, RGB: 3, DeviceRGB: 3, CMYK: 4, DeviceCMYK: 4, I: 1, Indexed: 1 };

/** Bytes of inline image data when stated (/L) or computable (no filter, known colour space). */
export function inlineDataLength(dict: Record<string, Operand>): number | null {
  const stated = dict['L'] ?? dict['Length'];
  if (typeof stated === 'number' && stated >= 0) return stated;
  if ((dict['F'] ?? dict['Filter']) !== undefined) return null;
  const w = dict['W'] ?? dict['Width'];
  const h = dict['H'] ?? dict['Height'];
  const mask = (dict['IM'] ?? dict['ImageMask']) === true;
  const bpc = mask ? 1 : (dict['BPC'] ?? dict['BitsPerComponent']);
  const cs = dict['CS'] ?? dict['ColorSpace'];
  const comps = mask ? 1 : isName(cs) ? COMPONENTS[cs.name] : Array.isArray(cs) && isName(cs[0]) ? COMPONENTS[cs[0].name] : undefined;
  if (typeof w !== 'number' || typeof h !== 'number' || typeof bpc !== 'number' || comps === undefined) return null;
  return Math.ceil((w * comps * bpc) / 8) * h;
}

/** The next few bytes after a candidate EI are text (operators), not image data. */
function textFollows(b: Uint8Array, from: number): boolean {
  for (let i = from; i < Math.min(b.length, from + 16); i++) {
    const c = b[i]!;
    if (c > 0x7e || (c < 0x20 && !WS[c])) return false;
  }
  return true;
}

function skipWs(b: Uint8Array, i: number): number {
  while (i < b.length && WS[b[i]!]) i++;
  return i;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function latin1(b: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(b[i]!);
  return s;
}
