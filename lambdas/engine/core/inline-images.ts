/**
 * Where each inline image (BI … ID data EI) lies in a content stream, byte for
 * byte, so a rewritten stream can copy kept images verbatim instead of
 * rebuilding them (the lexer hands out only their dictionary). Used by every
 * fix that rewrites content (autofix/content's editor, layers.flatten).
 *
 * It walks tokens just far enough to tell a BI keyword from text inside
 * strings, comments and names, and finds the end of the data with the lexer's
 * own rule (content-lexer.ts inlineDataEnd: the stated or computable data
 * length when it lands on EI, else the first EI between white space that is
 * followed by text), so both agree on where each image ends. The
 * caller checks that it found as many images as the lexer did and gives up on
 * the stream otherwise (inlineImageSpansOf does both).
 */
import { inlineDataEnd, inlineDataLength, type Operation } from './content-lexer';

const WS = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[b] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;
const regular = (b: number | undefined): boolean => b !== undefined && !WS[b] && !DELIM[b];

export interface InlineSpan {
  start: number;
  end: number;
}

/**
 * The byte spans of the inline images among `ops` (the lexer's operations of
 * `bytes`), in stream order; null when they cannot all be located exactly, in
 * which case the stream must not be rewritten (an image would be lost or cut).
 */
export function inlineImageSpansOf(bytes: Uint8Array, ops: readonly Operation[]): InlineSpan[] | null {
  const images = ops.filter((o) => o.op === 'BI');
  if (images.length === 0) return [];
  const spans = inlineImageSpans(bytes, (k) => {
    const d = images[k]?.operands[0];
    return d && typeof d === 'object' && 'dict' in d ? inlineDataLength(d.dict) : null;
  });
  return spans.length === images.length ? spans : null;
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
  return inlineDataEnd(b, i + 1, length); // the data starts after the single white-space byte after ID
}
