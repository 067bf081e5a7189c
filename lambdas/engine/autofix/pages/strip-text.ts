/**
 * A copy of a content stream that paints no glyphs: every text-showing
 * operator (Tj, TJ, ', ") and its operands are blanked out; everything else,
 * text state and colours set inside BT … ET included, stays byte for byte.
 *
 * bleed.mirror draws the page a few more times, mirrored and clipped to the
 * bleed strips. Glyphs there would be mirror writing nobody wants printed, and
 * text extraction (pdfjs, search indexes) ignores clipping, so each copy would
 * add the page's text backwards to what a reader gets out of the file.
 *
 * The scanner only needs token boundaries, so it is its own small lexer (the
 * content lexer of core/ yields operations without byte offsets). Inline image
 * data (BI … ID <data> EI) is skipped to the first EI standing alone.
 */

const WS = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));
const TEXT_SHOWING = new Set(['Tj', 'TJ', "'", '"']);
const SPACE = 0x20;

export function withoutTextShowing(bytes: Uint8Array): Uint8Array {
  const b = new Uint8Array(bytes);
  let pos = 0;
  let operandStart = -1;
  const n = b.length;
  while (pos < n) {
    const c = b[pos]!;
    if (WS.has(c)) {
      pos++;
      continue;
    }
    if (c === 0x25) {
      // % comment to the end of the line
      while (pos < n && b[pos] !== 0x0a && b[pos] !== 0x0d) pos++;
      continue;
    }
    const start = pos;
    if (c === 0x28) pos = afterLiteralString(b, pos);
    else if (c === 0x3c && b[pos + 1] !== 0x3c) pos = indexOr(b, 0x3e, pos + 1, n) + 1; // <hex>
    else if (DELIM.has(c) && c !== 0x2f) pos += c === 0x3c || c === 0x3e ? (b[pos + 1] === c ? 2 : 1) : 1; // << >> [ ] { }
    else {
      // A name (/Name) or a regular word: number, true/false/null, or an operator.
      pos++;
      while (pos < n && !WS.has(b[pos]!) && !DELIM.has(b[pos]!)) pos++;
      if (c !== 0x2f) {
        const word = latin1(b, start, pos);
        if (!isOperandWord(word)) {
          if (TEXT_SHOWING.has(word)) b.fill(SPACE, operandStart >= 0 ? operandStart : start, pos);
          else if (word === 'BI') pos = afterInlineImage(b, pos);
          operandStart = -1;
          continue;
        }
      }
    }
    if (operandStart < 0) operandStart = start;
  }
  return b;
}

function isOperandWord(word: string): boolean {
  return word === 'true' || word === 'false' || word === 'null' || /^[+\-.\d]/.test(word);
}

function latin1(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to && i - from < 8; i++) s += String.fromCharCode(b[i]!);
  return to - from > 8 ? `${s}…` : s;
}

function indexOr(b: Uint8Array, byte: number, from: number, fallback: number): number {
  const i = b.indexOf(byte, from);
  return i < 0 ? fallback : i;
}

/** Past a (literal string), with nested parentheses and backslash escapes; the end of data ends an unterminated one. */
function afterLiteralString(b: Uint8Array, pos: number): number {
  let depth = 0;
  for (let i = pos; i < b.length; i++) {
    const c = b[i];
    if (c === 0x5c) i++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return i + 1;
  }
  return b.length;
}

/** Past an inline image: its dictionary up to an ID between white space, then the data up to an EI between white space. */
function afterInlineImage(b: Uint8Array, pos: number): number {
  let i = pos;
  for (;;) {
    i = b.indexOf(0x49, i); // the I of ID
    if (i < 0) return b.length;
    if (WS.has(b[i - 1] ?? 0x20) && b[i + 1] === 0x44 && (i + 2 >= b.length || WS.has(b[i + 2]!))) break;
    i++;
  }
  for (let j = i + 3; j < b.length - 1; j++) {
    if (b[j] === 0x45 && b[j + 1] === 0x49 && WS.has(b[j - 1]!) && (j + 2 >= b.length || WS.has(b[j + 2]!) || DELIM.has(b[j + 2]!))) return j + 2;
  }
  return b.length;
}
