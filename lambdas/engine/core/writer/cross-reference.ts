/**
 * The cross-reference data a writer appends after its objects (ISO 32000-1
 * 7.5.4 and 7.5.8): a classic table, or a cross-reference stream: uncompressed
 * for an update to a file whose newest section is one, Flate-compressed and
 * listing objects packed in object streams for a file written with them
 * (object-stream-writer.ts). Entries are grouped into subsections of
 * consecutive object numbers; freed objects are listed with their next
 * generation, as 7.5.4 asks.
 */
import { deflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';

export interface XrefEntry {
  objectNumber: number;
  generation: number;
  /** Byte offset of `N G obj`; null for an object this revision frees. */
  offset: number | null;
  /** An object packed in an object stream (7.5.7): that stream's object number and its index there (streams only; offset is then ignored). */
  inStream?: { streamNumber: number; index: number };
}

/** Consecutive runs of object numbers, as [first, entries]. */
function subsections(entries: XrefEntry[]): [number, XrefEntry[]][] {
  const sorted = [...entries].sort((a, b) => a.objectNumber - b.objectNumber);
  const runs: [number, XrefEntry[]][] = [];
  for (const e of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1].length === e.objectNumber) last[1].push(e);
    else runs.push([e.objectNumber, [e]]);
  }
  return runs;
}

/**
 * A classic `xref` table. A whole file's table starts with the head of the
 * free list (object 0, generation 65535); an update's table lists only what
 * changed. Freed entries link to the next freed object, the last back to 0.
 */
export function xrefTable(entries: XrefEntry[], wholeFile: boolean): string {
  const all = wholeFile ? [{ objectNumber: 0, generation: 65535, offset: null }, ...entries] : entries;
  const freed = all.filter((e) => e.offset === null).map((e) => e.objectNumber).sort((a, b) => a - b);
  const nextFree = (n: number): number => freed.find((f) => f > n) ?? 0;
  let out = 'xref\n';
  for (const [first, run] of subsections(all)) {
    out += `${first} ${run.length}\n`;
    for (const e of run) {
      out += e.offset === null
        ? `${String(nextFree(e.objectNumber)).padStart(10, '0')} ${String(e.generation).padStart(5, '0')} f\r\n`
        : `${String(e.offset).padStart(10, '0')} ${String(e.generation).padStart(5, '0')} n\r\n`;
    }
  }
  return out;
}

/**
 * A cross-reference stream (7.5.8): type 1 entries for written objects, type 2
 * for objects packed in object streams, type 0 for freed ones; the trailer's
 * entries go into its dictionary. The stream is itself an object of the
 * section (`self`), and lists itself. Uncompressed unless `flateLevel` is given.
 */
export function xrefStream(context: PDFContext, entries: XrefEntry[], trailer: Record<string, PDFObject>, self: { objectNumber: number; offset: number }, flateLevel?: number): PDFRawStream {
  const all = [...entries, { objectNumber: self.objectNumber, generation: 0, offset: self.offset }];
  const runs = subsections(all);
  const rows = Buffer.alloc(all.length * 7);
  let at = 0;
  for (const [, run] of runs) {
    for (const e of run) {
      if (e.inStream) {
        rows[at] = 2;
        rows.writeUInt32BE(e.inStream.streamNumber, at + 1);
        rows.writeUInt16BE(e.inStream.index, at + 5);
      } else {
        rows[at] = e.offset === null ? 0 : 1;
        rows.writeUInt32BE(e.offset ?? 0, at + 1);
        rows.writeUInt16BE(e.offset === null ? Math.min(e.generation, 65535) : e.generation, at + 5);
      }
      at += 7;
    }
  }
  const dict = PDFDict.withContext(context);
  dict.set(PDFName.of('Type'), PDFName.of('XRef'));
  dict.set(PDFName.of('W'), context.obj([1, 4, 2]));
  const index = PDFArray.withContext(context);
  for (const [first, run] of runs) {
    index.push(PDFNumber.of(first));
    index.push(PDFNumber.of(run.length));
  }
  dict.set(PDFName.of('Index'), index);
  const data = flateLevel === undefined ? rows : deflateSync(rows, { level: flateLevel });
  if (flateLevel !== undefined) dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
  dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
  for (const [key, value] of Object.entries(trailer)) dict.set(PDFName.of(key), value);
  return PDFRawStream.of(dict, data);
}

/** The trailer's entries as a dictionary's source text, for a classic table. */
export function trailerText(context: PDFContext, trailer: Record<string, PDFObject>): string {
  const dict = PDFDict.withContext(context);
  for (const [key, value] of Object.entries(trailer)) dict.set(PDFName.of(key), value);
  return `trailer\n${dict.toString()}\n`;
}

/**
 * The trailer of a written section: /Size one past the largest object number,
 * the document's Root, Info and ID, and for an update /Prev, the offset of
 * the section before it. Documents reach the writers decrypted: no Encrypt.
 */
export function trailerEntries(context: PDFContext, size: number, prev?: number): Record<string, PDFObject> {
  const { Root, Info, ID } = context.trailerInfo;
  const out: Record<string, PDFObject> = { Size: PDFNumber.of(size) };
  if (Root) out.Root = Root;
  if (Info) out.Info = Info;
  if (ID) out.ID = ID;
  if (prev !== undefined) out.Prev = PDFNumber.of(prev);
  return out;
}
