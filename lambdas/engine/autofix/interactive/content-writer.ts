/**
 * Writing content-stream syntax back out: numbers, names, strings, arrays and
 * dictionaries as the content lexer (core/content-lexer.ts) reads them, and
 * whole operations. The flatten fixes use it to write the operators that place
 * an appearance; layers.flatten to write a content stream back after taking
 * hidden content out of it.
 *
 * The lexer hands out values, not source text, so comments and the choice
 * between literal and hexadecimal strings are not kept; what a reader
 * understands is. Inline images are never rebuilt from their dictionary: the
 * caller passes their original bytes (see inline-images.ts).
 */
import { isName, type Operand, type Operation } from '../../core/content-lexer';

/** A number in PDF syntax: no exponent (PDF has none), at most 6 decimals, no trailing zeros. */
export function num(n: number): string {
  if (!Number.isFinite(n)) return '0';
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const s = String(n);
  if (!s.includes('e') && s.length <= 18) return s;
  const fixed = n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
  return fixed === '-0' ? '0' : fixed;
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
  if (typeof o === 'number') return num(o);
  if (typeof o === 'boolean') return o ? 'true' : 'false';
  if (Array.isArray(o)) return `[${o.map(operandToken).join(' ')}]`;
  if (isName(o)) return nameToken(o.name);
  if ('bytes' in o) return stringToken(o.bytes);
  return `<<${Object.entries(o.dict).map(([k, v]) => `${nameToken(k)} ${operandToken(v)}`).join(' ')}>>`;
}

/** One operation as a line of content; `BI` needs its original bytes (inlineImage) instead. */
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
