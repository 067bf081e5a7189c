/**
 * Where an original file's newest cross-reference section is, and of which
 * kind, read from its last bytes: what an incremental update appended to it
 * must point its /Prev at. Null when the file does not say so plainly (no
 * `startxref`, or an offset that is neither a table nor a stream object):
 * such a file is written whole instead.
 */
import { open } from 'node:fs/promises';
import type { OriginalRevision } from './incremental-writer';

const TAIL_BYTES = 2048;

export async function readOriginalRevision(path: string, size: number): Promise<OriginalRevision | null> {
  const handle = await open(path, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const tail = Buffer.alloc(Math.min(TAIL_BYTES, fileSize));
    await handle.read(tail, 0, tail.length, fileSize - tail.length);
    const text = tail.toString('latin1');
    const at = text.lastIndexOf('startxref');
    if (at < 0) return null;
    const m = /^startxref\s+(\d+)/.exec(text.slice(at));
    if (!m) return null;
    const startxref = Number(m[1]);
    if (startxref <= 0 || startxref >= fileSize) return null;
    const head = Buffer.alloc(64);
    await handle.read(head, 0, head.length, startxref);
    const h = head.toString('latin1');
    if (h.startsWith('xref')) return { path, startxref, xrefIsStream: false, size };
    if (/^\d+\s+\d+\s+obj\b/.test(h)) return { path, startxref, xrefIsStream: true, size };
    return null;
  } finally {
    await handle.close();
  }
}
