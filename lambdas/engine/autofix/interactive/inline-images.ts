/**
 * Where each inline image (BI … ID data EI) lies in a content stream, byte for
 * byte, so a rewritten stream can copy kept images verbatim instead of
 * rebuilding them (the lexer hands out only their dictionary).
 *
 * It walks tokens just far enough to tell a BI keyword from text inside
 * strings, comments and names, and finds the end of the data by the same rules
 * as core/content-lexer.ts: the stated or computable data length when it lands
 * on EI, else the first EI between white space that is followed by text. The
 * caller checks that it found as many images as the lexer did and gives up on
 * the stream otherwise.
 */

import { inlineDataLength, isName, type Operand } from '../../core/content-lexer';

const WS = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[b] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;
const regular = (b: number | undefined): boolean => b !== undefined && !WS[b] && !DELIM[b];

export interface InlineSpan {
  start: number;
  end: number;
}

/** Byte spans of the inline images, in stream order; `lengths` gives each image's known data length (or null). */
export function inlineImageSpans(b: Uint8Array, lengths: (i: number) => number | null): InlineSpan[] {
  const out: InlineSpan[] = [];
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (WS[c]) i++;
    else if (c === 0x25) while (i < b.length && b[i] !== 0x0a && b[i] !== 0x0d) i++;
    else if (c === 0x28) i = skipString(b, i + 1);
    else if (c === 0x3c && b[i + 1] !== 0x3c) {
      while (i < b.length && b[i] !== 0x3e) i++;
      i++;
    } else if (c === 0x2f) {
      i++;
      while (regular(b[i])) i++;
    } else if (DELIM[c]) i++;
    else {
      const start = i;
      while (regular(b[i])) i++;
      if (i - start === 2 && b[start] === 0x42 && b[start + 1] === 0x49) {
        const end = imageEnd(b, i, lengths(out.length));
        out.push({ start, end });
        i = end;
      }
    }
  }
  return out;
}

/** After a literal string's opening parenthesis: the position after its close. */
function skipString(b: Uint8Array, i: number): number {
  let nesting = 1;
  while (i < b.length) {
    const c = b[i++]!;
    if (c === 0x5c) i++;
    else if (c === 0x28) nesting++;
    else if (c === 0x29 && --nesting === 0) break;
  }
  return i;
}

/** From just after BI: past the dictionary to ID, then past the data and EI. */
function imageEnd(b: Uint8Array, i: number, length: number | null): number {
  // The dictionary: skip tokens until the keyword ID.
  while (i < b.length) {
    const c = b[i]!;
    if (WS[c]) i++;
    else if (c === 0x28) i = skipString(b, i + 1);
    else if (c === 0x2f) {
      i++;
      while (regular(b[i])) i++;
    } else if (c === 0x3c && b[i + 1] !== 0x3c) {
      while (i < b.length && b[i] !== 0x3e) i++;
      i++;
    } else if (DELIM[c]) i++;
    else {
      const start = i;
      while (regular(b[i])) i++;
      if (i - start === 2 && b[start] === 0x49 && b[start + 1] === 0x44) break;
      if (i === start) i++;
    }
  }
  const data = i + 1; // the single white-space byte after ID
  if (length !== null) {
    let e = data + length;
    while (e < b.length && WS[b[e]!]) e++;
    if (isEiAt(b, e)) return e + 2;
  }
  for (let k = data; k < b.length - 1; k++) {
    if (b[k] === 0x45 && b[k + 1] === 0x49 && (k === data || WS[b[k - 1]!]) && isEiAt(b, k) && textFollows(b, k + 2)) return k + 2;
  }
  return b.length;
}

function isEiAt(b: Uint8Array, i: number): boolean {
  return b[i] === 0x45 && b[i + 1] === 0x49 && (i + 2 >= b.length || WS[b[i + 2]!] === 1 || DELIM[b[i + 2]!] === 1);
}

function textFollows(b: Uint8Array, from: number): boolean {
  for (let i = from; i < Math.min(b.length, from + 16); i++) {
    const c = b[i]!;
    if (c > 0x7e || (c < 0x20 && !WS[c])) return false;
  }
  return true;
}

/** The data length of an inline image when stated (/L) or computable: the lexer's own reckoning. */
export { inlineDataLength };
