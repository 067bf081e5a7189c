/**
 * Small PDFs written byte by byte for the reader's tests, in each
 * cross-reference form: a classic table, a cross-reference stream, a hybrid
 * file (table plus /XRefStm), object streams, and incremental updates that
 * redefine objects and point back with /Prev.
 */
import { deflateSync } from 'node:zlib';

export type Body = string | { dict: string; data: Buffer | string };

export interface Revision {
  /** Objects written in this revision, by number. */
  objects: Record<number, Body>;
  /** Objects placed in one object stream (numbered `objectStream`), not written directly. */
  compressed?: Record<number, string>;
  objectStream?: number;
  /** Object numbers this revision marks free. */
  freed?: number[];
  xref?: 'table' | 'stream' | 'hybrid';
  /** Object number of the cross-reference stream (stream and hybrid forms). */
  xrefStreamNumber?: number;
  /** Trailer entries besides /Size and /Prev. */
  trailer?: string;
}

interface Entry {
  type: 0 | 1 | 2;
  a: number;
  b: number;
}

export interface Built {
  bytes: Buffer;
  /** Offset of each object written directly, last revision's last. */
  offsets: Map<number, number>;
  /** startxref of each revision. */
  xrefOffsets: number[];
}

/** A PDF of one or more revisions; each later revision is an incremental update. */
export function buildRevisions(revisions: Revision[], header = '%PDF-1.7'): Built {
  const parts: Buffer[] = [Buffer.from(`${header}\n%\xe2\xe3\xcf\xd3\n`, 'latin1')];
  let length = parts[0]!.length;
  const add = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buf);
    length += buf.length;
  };
  const offsets = new Map<number, number>();
  const xrefOffsets: number[] = [];
  let size = 1;
  let prev: number | undefined;

  for (const rev of revisions) {
    const entries = new Map<number, Entry>();
    const writeObject = (num: number, body: Body) => {
      offsets.set(num, length);
      entries.set(num, { type: 1, a: length, b: 0 });
      if (typeof body === 'string') add(`${num} 0 obj\n${body}\nendobj\n`);
      else {
        const data = typeof body.data === 'string' ? Buffer.from(body.data, 'latin1') : body.data;
        add(`${num} 0 obj\n${body.dict.replace(/>>\s*$/, '')} /Length ${data.length} >>\nstream\n`);
        add(data);
        add('\nendstream\nendobj\n');
      }
    };
    for (const [num, body] of Object.entries(rev.objects)) writeObject(Number(num), body);
    if (rev.compressed && rev.objectStream) {
      const nums = Object.keys(rev.compressed).map(Number);
      let header = '';
      let body = '';
      nums.forEach((num, index) => {
        header += `${num} ${body.length} `;
        body += `${rev.compressed![num]}\n`;
        entries.set(num, { type: 2, a: rev.objectStream!, b: index });
      });
      const data = deflateSync(Buffer.from(header + body, 'latin1'));
      writeObject(rev.objectStream, { dict: `<< /Type /ObjStm /N ${nums.length} /First ${header.length} /Filter /FlateDecode >>`, data });
    }
    for (const num of rev.freed ?? []) entries.set(num, { type: 0, a: 0, b: 1 });
    size = Math.max(size, ...[...entries.keys()].map((n) => n + 1), (rev.xrefStreamNumber ?? 0) + 1);

    const form = rev.xref ?? 'table';
    const trailerExtra = `${rev.trailer ?? ''}${prev !== undefined ? ` /Prev ${prev}` : ''}`;
    let xrefStreamAt: number | undefined;
    if (form === 'stream' || form === 'hybrid') {
      const num = rev.xrefStreamNumber ?? size;
      xrefStreamAt = length;
      entries.set(num, { type: 1, a: length, b: 0 });
      size = Math.max(size, num + 1);
      const nums = [...entries.keys()].sort((x, y) => x - y);
      const index: number[] = [];
      const rows: Buffer[] = [];
      for (const n of nums) {
        const e = entries.get(n)!;
        if (form === 'hybrid' && e.type !== 2 && n !== num) continue;
        index.push(n, 1);
        const row = Buffer.alloc(7);
        row.writeUInt8(e.type, 0);
        row.writeUInt32BE(e.a, 1);
        row.writeUInt16BE(e.b, 5);
        rows.push(row);
      }
      const data = Buffer.concat(rows);
      // In a hybrid file the stream's own /Prev is not followed; the table's is.
      const extra = form === 'stream' ? trailerExtra : '';
      add(`${num} 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] /Index [${index.join(' ')}] ${extra} /Length ${data.length} >>\nstream\n`);
      add(data);
      add('\nendstream\nendobj\n');
      if (form === 'stream') {
        xrefOffsets.push(xrefStreamAt);
        prev = xrefStreamAt;
        add(`startxref\n${xrefStreamAt}\n%%EOF\n`);
        continue;
      }
    }
    const tableAt = length;
    const rows = [...entries.entries()].filter(([n, e]) => e.type !== 2 && !(form === 'hybrid' && n === rev.xrefStreamNumber)).sort(([x], [y]) => x - y);
    let table = 'xref\n';
    if (prev === undefined) table += '0 1\n0000000000 65535 f \n';
    for (const [n, e] of rows) table += `${n} 1\n${String(e.a).padStart(10, '0')} ${String(e.type === 0 ? 1 : 0).padStart(5, '0')} ${e.type === 0 ? 'f' : 'n'} \n`;
    const hybrid = form === 'hybrid' ? ` /XRefStm ${xrefStreamAt}` : '';
    add(`${table}trailer\n<< /Size ${size}${trailerExtra}${hybrid} >>\nstartxref\n${tableAt}\n%%EOF\n`);
    xrefOffsets.push(tableAt);
    prev = tableAt;
  }
  return { bytes: Buffer.concat(parts), offsets, xrefOffsets };
}

/** Catalog 1, page tree 2, `pages` pages from 3 on, each with its own (tiny) content stream. */
export function pagesDocument(pages = 2): Record<number, Body> {
  const objects: Record<number, Body> = {
    1: '<< /Type /Catalog /Pages 2 0 R >>',
    2: `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${3 + 2 * i} 0 R`).join(' ')}] /Count ${pages} >>`,
  };
  for (let i = 0; i < pages; i++) {
    objects[3 + 2 * i] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${100 + i} 200] /Contents ${4 + 2 * i} 0 R /Resources << >> >>`;
    objects[4 + 2 * i] = { dict: '<< >>', data: `0 0 ${10 + i} 10 re f` };
  }
  return objects;
}

export const ROOT = ' /Root 1 0 R';

/** The text with `from` replaced by `to` (same length, so offsets stay). */
export function replaceSameLength(bytes: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('replacement must keep the length');
  const text = bytes.toString('latin1');
  const at = text.lastIndexOf(from);
  if (at < 0) throw new Error(`"${from}" not found`);
  return Buffer.from(text.slice(0, at) + to + text.slice(at + from.length), 'latin1');
}
