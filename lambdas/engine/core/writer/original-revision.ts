/**
 * Where an original file's newest cross-reference section is, and of which
 * kind: what an incremental update appended to it must point its /Prev at.
 * `startxref` is found as the reader finds it (reader/xref-read.ts). Null,
 * and the file is written whole instead, when:
 *
 * - data follows the document's last `%%EOF` (mail and upload tools append
 *   some): an update appended after it would leave foreign bytes between the
 *   revisions, which a reader counting from the end would not expect and a
 *   signature's byte range would not cover;
 * - the file does not say plainly where its section is (no `startxref`, or
 *   an offset that is neither a table nor a stream object).
 */
import { FileSource, type ByteSource } from '../reader/byte-source';
import { findStartXref } from '../reader/xref-read';
import type { OriginalRevision } from './incremental-writer';

/** How much of the end of the file is looked at for the last `%%EOF` and `startxref`. */
const TAIL_BYTES = 1024;

export async function readOriginalRevision(path: string, size: number): Promise<OriginalRevision | null> {
  const source = new FileSource(path);
  try {
    if (dataAfterDocument(source)) return null;
    let startxref: number;
    try {
      startxref = findStartXref(source);
    } catch {
      return null;
    }
    if (startxref <= 0 || startxref >= source.size) return null;
    const h = Buffer.from(source.read(startxref, 64)).toString('latin1');
    if (h.startsWith('xref')) return { path, startxref, xrefIsStream: false, size };
    if (/^\d+\s+\d+\s+obj\b/.test(h)) return { path, startxref, xrefIsStream: true, size };
    return null;
  } finally {
    source.close();
  }
}

/**
 * Whether anything but white space follows the last `%%EOF`. A file without
 * `%%EOF` in its last kilobyte counts as ending with its document only when it
 * ends right after `startxref` and its offset.
 */
export function dataAfterDocument(source: ByteSource): boolean {
  const from = Math.max(0, source.size - TAIL_BYTES);
  const tail = Buffer.from(source.read(from, source.size - from)).toString('latin1');
  const eof = tail.lastIndexOf('%%EOF');
  if (eof < 0) return !/startxref\s+\d+\s*$/.test(tail);
  return /[^\s\0]/.test(tail.slice(eof + 5));
}
