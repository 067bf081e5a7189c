/**
 * Writing content-stream syntax back out: numbers, names, strings, arrays and
 * dictionaries as the content lexer (content-lexer.ts) reads them, whole
 * operations, and the stream that holds them. Every fix that rewrites content
 * writes through here: the content editor (autofix/content), the flatten fixes
 * placing an appearance and layers.flatten (autofix/interactive), the page
 * geometry fixes (autofix/pages).
 *
 * The lexer hands out values, not source text, so comments and the choice
 * between literal and hexadecimal strings are not kept; what a reader
 * understands is. Inline images are never rebuilt from their dictionary: the
 * caller copies their original bytes (see inline-images.ts).
 */
import type { PDFContext, PDFStream } from '@cantoo/pdf-lib';
import { isName, type Operand, type Operation } from './content-lexer';

/**
 * A number as PDF writes it: no exponent (PDF has none) and exactly the value
 * given — 1e-7 is 0.0000001, not 0, so a number read from content is written
 * back unchanged. Callers that want short numbers round first (shortNumber).
 */
export function numberToken(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, frac = '', exp] = m;
  const digits = lead! + frac;
  const e = Number(exp);
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  return `${sign}${digits.padEnd(e + 1, '0').slice(0, e + 1)}${digits.length > e + 1 ? `.${digits.slice(e + 1)}` : ''}`;
}

/**
 * A computed number (a matrix entry, a converted colour) at most 4 decimals:
 * enough for positions (1/10000 pt) and colour values, and it keeps float
 * noise such as 0.30000000000000004 out of the file.
 */
export function shortNumber(n: number): string {
  return numberToken(Math.round(n * 10000) / 10000);
}

const NAME_PLAIN = new Uint8Array(256);
for (let c = 0x21; c <= 0x7e; c++) NAME_PLAIN[c] = 1;
for (const c of '()<>[]{}/%#') NAME_PLAIN[c.charCodeAt(0)] = 0;

/** A name token: bytes outside the regular printable set are written as #xx. */
export function nameToken(text: string): string {
  let out = '/';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i) & 0xff;
    out += NAME_PLAIN[c] ? text[i] : `#${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** A literal string: printable ASCII as is, parentheses and backslash escaped, the rest as octal escapes. */
export function stringToken(bytes: Uint8Array): string {
  let out = '(';
  for (const c of bytes) {
    if (c === 0x28 || c === 0x29 || c === 0x5c) out += `\\${String.fromCharCode(c)}`;
    else if (c >= 0x20 && c <= 0x7e) out += String.fromCharCode(c);
    else out += `\\${c.toString(8).padStart(3, '0')}`;
  }
  return `${out})`;
}

export function operandToken(o: Operand): string {
  if (o === null) return 'null';
  if (typeof o === 'number') return numberToken(o);
  if (typeof o === 'boolean') return o ? 'true' : 'false';
  if (Array.isArray(o)) return `[${o.map(operandToken).join(' ')}]`;
  if (isName(o)) return nameToken(o.name);
  if ('bytes' in o) return stringToken(o.bytes);
  return `<<${Object.entries(o.dict).map(([k, v]) => `${nameToken(k)} ${operandToken(v)}`).join(' ')}>>`;
}

/** One operation as a line of content; `BI` needs its original bytes (inline-images.ts) instead. */
export function operationText(op: Operation): string {
  return op.operands.length === 0 ? op.op : `${op.operands.map(operandToken).join(' ')} ${op.op}`;
}

/** Joins text and byte chunks into one content stream. */
export class ContentBuilder {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private static readonly encoder = new TextEncoder();

  line(text: string): void {
    // Content written here is ASCII by construction (names and strings are escaped).
    this.bytes(ContentBuilder.encoder.encode(`${text}\n`));
  }

  bytes(b: Uint8Array): void {
    this.parts.push(b);
    this.size += b.length;
  }

  build(): Uint8Array {
    const out = new Uint8Array(this.size);
    let off = 0;
    for (const p of this.parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }
}

/**
 * A stream like `old` (its dictionary entries: Resources, BBox, Matrix,
 * Group…) with new, Flate-compressed content. The entries describing the old
 * encoding go, since the new bytes have their own.
 */
export function withContent(context: PDFContext, old: PDFStream, bytes: Uint8Array): PDFStream {
  const fresh = context.flateStream(bytes);
  for (const [k, v] of old.dict.entries()) {
    const key = k.decodeText();
    if (key === 'Filter' || key === 'DecodeParms' || key === 'Length' || key === 'DL') continue;
    fresh.dict.set(k, v);
  }
  return fresh;
}
