/**
 * Is this text an SVG document? True when, after an optional byte-order mark,
 * white space, an XML declaration, comments, processing instructions and a
 * DOCTYPE (with or without an internal subset), the root element is `svg`
 * (with or without a namespace prefix). Works on the first bytes of a file;
 * a prologue longer than those bytes reads as "not SVG".
 */
export function looksLikeSvg(head: Uint8Array): boolean {
  const text = decodeHead(head);
  if (text === null) return false;
  let i = 0;
  const n = text.length;
  for (;;) {
    while (i < n && /\s/.test(text[i]!)) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return false;
      i = end + 3;
    } else if (/^<!DOCTYPE/i.test(text.slice(i, i + 9))) {
      const end = doctypeEnd(text, i + 9);
      if (end < 0) return false;
      i = end + 1;
    } else {
      return /^<(?:[A-Za-z_][\w.-]*:)?svg(?=[\s/>])/.test(text.slice(i, i + 64));
    }
  }
}

/** Index of the `>` that closes a DOCTYPE, skipping a bracketed internal subset and quoted ids. */
function doctypeEnd(text: string, from: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return i;
  }
  return -1;
}

/** UTF-8 (with or without BOM) or UTF-16 with BOM; null for binary data. */
function decodeHead(head: Uint8Array): string | null {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le').decode(head.subarray(2));
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be').decode(head.subarray(2));
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  // NUL bytes mean binary data, not XML text.
  if (head.subarray(start, Math.min(head.length, 512)).includes(0)) return null;
  return new TextDecoder('utf-8').decode(head.subarray(start));
}
