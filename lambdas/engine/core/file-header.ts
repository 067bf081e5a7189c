/**
 * The PDF file header as bytes (ISO 32000-1 7.5.2): where `%PDF-x.y` sits, the
 * version it declares, and whether the comment line after it carries the four
 * high bytes that tell transfer tools the file is binary. pdf-lib skips both
 * while parsing, and PDF/A checks them (ISO 19005 6.1.2), so they are read here.
 */

export interface FileHeader {
  /** Byte offset of `%PDF-`; -1 when absent from the first 1024 bytes. */
  offset: number;
  /** `1.7`, `2.0`; null when the header is unreadable. */
  version: string | null;
  /** The header line as written, without its end-of-line marker. */
  line: string;
  /**
   * The line right after the header is `%` followed by at least four bytes
   * with values above 127.
   */
  binaryComment: boolean;
}

const HEADER_SEARCH_BYTES = 1024;

/** Offset of `%PDF-` in the first 1024 bytes (how readers find it), or -1. */
export function findPdfSignature(head: Uint8Array): number {
  const end = Math.min(head.length - 5, HEADER_SEARCH_BYTES);
  for (let i = 0; i <= end; i++) {
    if (head[i] === 0x25 && head[i + 1] === 0x50 && head[i + 2] === 0x44 && head[i + 3] === 0x46 && head[i + 4] === 0x2d) {
      return i;
    }
  }
  return -1;
}

const isEol = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

/**
 * Whether the first 1024 bytes hold an object header (`1 0 obj`): the sign that
 * a file without `%PDF-` is still a PDF body. Poppler and qpdf read a file
 * without a header anyway (realworld/pdfjs/bug1606566.pdf starts with its binary
 * comment and `1 0 obj`); asking for an object this early keeps a picture or a
 * video sent by mistake from being scanned whole for objects.
 */
export function startsWithObject(head: Uint8Array): boolean {
  const text = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, HEADER_SEARCH_BYTES)).toString('latin1');
  return /(?:^|[\r\n\t\f\0 ])\d{1,10}[\r\n\t\f\0 ]+\d{1,5}[\r\n\t\f\0 ]+obj(?![^\s<[(/%])/.test(text);
}

export function readFileHeader(bytes: Uint8Array): FileHeader {
  const offset = findPdfSignature(bytes);
  if (offset < 0) return { offset, version: null, line: '', binaryComment: false };

  let end = offset;
  while (end < bytes.length && end - offset < 64 && !isEol(bytes[end])) end++;
  const line = String.fromCharCode(...bytes.subarray(offset, end));
  const version = /^%PDF-(\d+\.\d+)/.exec(line)?.[1] ?? null;

  // One EOL marker: CR, LF or CR LF.
  let next = end;
  if (bytes[next] === 0x0d) next++;
  if (bytes[next] === 0x0a) next++;
  let binaryComment = false;
  if (next > end && bytes[next] === 0x25) {
    binaryComment = true;
    for (let i = 1; i <= 4; i++) {
      const b = bytes[next + i];
      if (b === undefined || b <= 127) binaryComment = false;
    }
  }
  return { offset, version, line, binaryComment };
}

/** Compares `major.minor` version strings. */
export function compareVersions(a: string, b: string): number {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am !== bm ? (am ?? 0) - (bm ?? 0) : (an ?? 0) - (bn ?? 0);
}
