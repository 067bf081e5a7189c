/**
 * The primary hint stream of a linearized file (ISO 32000-1 Annex F.4): the
 * page offset hint table (F.4.1), the shared object hint table (F.4.2) and,
 * when the document has outlines, the generic outline table (F.4.3), packed
 * as bit fields, most significant bit first.
 *
 * Each row of per-page or per-group items starts on a byte boundary, and the
 * values Annex F leaves to the writer are those Acrobat writes and qpdf
 * checks: content stream offsets 0 (Acrobat's implementation note 127), the
 * content length equal to the page length, no fractional positions of shared
 * objects (numerator width 0, denominator 4), one object per shared group, no
 * MD5 signatures, and no shared objects listed for the first page (they are
 * all in its own section).
 *
 * Offsets in the tables are those the file would have without the hint stream
 * (F.4, "as if the hint stream were not present"): the writer can therefore
 * build the stream before it knows the stream's own length.
 */
import { deflateSync } from 'node:zlib';
import { PDFName, PDFNumber, PDFRawStream, type PDFContext } from '@cantoo/pdf-lib';

export interface PageHint {
  /** Objects of the page's section (for the first page: all of part 6). */
  objects: number;
  /** Bytes of those objects. */
  length: number;
  /** Indexes, in the shared object table, of the shared objects the page uses. */
  shared: number[];
}

export interface HintTables {
  pages: PageHint[];
  /** Offset of the first page's page object. */
  firstPageOffset: number;
  /** Byte length of each shared object group: the first page's objects, then part 8's. */
  groupLengths: number[];
  /** How many of the groups are the first page's. */
  firstPageGroups: number;
  /** Object number and offset of part 8's first object (0 and 0 when part 8 is empty). */
  firstShared: { objectNumber: number; offset: number };
  outlines: { objectNumber: number; offset: number; objects: number; length: number } | null;
}

/** Smallest and largest of many values (a spread of 100,000 pages would overflow the call's arguments). */
const least = (values: number[]): number => values.reduce((a, b) => Math.min(a, b), Infinity);
const most = (values: number[]): number => values.reduce((a, b) => Math.max(a, b), 0);

/** Bits needed for `value` (0 for 0). */
function bitsFor(value: number): number {
  let bits = 0;
  for (let v = value; v > 0; v = Math.floor(v / 2)) bits++;
  return bits;
}

class BitWriter {
  readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  write(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      this.current = (this.current << 1) | (Math.floor(value / 2 ** i) % 2);
      if (++this.used === 8) this.flush();
    }
  }

  /** Pads the current byte with zero bits. */
  flush(): void {
    if (this.used === 0) return;
    this.bytes.push((this.current << (8 - this.used)) & 0xff);
    this.current = 0;
    this.used = 0;
  }

  /** One item for every entry, then a byte boundary. */
  row(values: number[], bits: number): void {
    for (const v of values) this.write(v, bits);
    this.flush();
  }
}

function pageOffsetTable(w: BitWriter, t: HintTables): void {
  const objects = t.pages.map((p) => p.objects);
  const lengths = t.pages.map((p) => p.length);
  const minObjects = least(objects);
  const minLength = least(lengths);
  const objectBits = bitsFor(most(objects) - minObjects);
  const lengthBits = bitsFor(most(lengths) - minLength);
  const sharedCountBits = bitsFor(most(t.pages.map((p) => p.shared.length)));
  const sharedIdBits = bitsFor(t.groupLengths.length);
  const header: [number, number][] = [
    [minObjects, 32], [t.firstPageOffset, 32], [objectBits, 16],
    [minLength, 32], [lengthBits, 16],
    [0, 32], [0, 16], // content stream offsets
    [minLength, 32], [lengthBits, 16], // content stream lengths: the page's
    [sharedCountBits, 16], [sharedIdBits, 16], [0, 16], [4, 16], // shared references, numerator bits, denominator
  ];
  for (const [value, bits] of header) w.write(value, bits);
  w.row(objects.map((n) => n - minObjects), objectBits);
  w.row(lengths.map((n) => n - minLength), lengthBits);
  w.row(t.pages.map((p) => p.shared.length), sharedCountBits);
  w.row(t.pages.flatMap((p) => p.shared), sharedIdBits);
  w.row([], 0); // numerators: 0 bits each
  w.row([], 0); // content offsets: 0 bits each
  w.row(lengths.map((n) => n - minLength), lengthBits);
}

function sharedObjectTable(w: BitWriter, t: HintTables): void {
  const minLength = least(t.groupLengths);
  const lengthBits = bitsFor(most(t.groupLengths) - minLength);
  const header: [number, number][] = [
    [t.firstShared.objectNumber, 32], [t.firstShared.offset, 32],
    [t.firstPageGroups, 32], [t.groupLengths.length, 32],
    [0, 16], // one object per group
    [minLength, 32], [lengthBits, 16],
  ];
  for (const [value, bits] of header) w.write(value, bits);
  w.row(t.groupLengths.map((n) => n - minLength), lengthBits);
  w.row(t.groupLengths.map(() => 0), 1); // no MD5 signatures
  w.row([], 0); // objects in each group less one: 0 bits each
}

/** The hint stream: the tables, Flate-compressed, with /S (and /O) giving where the shared object (and outline) table starts. */
export function hintStream(context: PDFContext, tables: HintTables, flateLevel: number): PDFRawStream {
  const w = new BitWriter();
  pageOffsetTable(w, tables);
  const shared = w.bytes.length;
  sharedObjectTable(w, tables);
  const outlines = w.bytes.length;
  if (tables.outlines) {
    const o = tables.outlines;
    for (const value of [o.objectNumber, o.offset, o.objects, o.length]) w.write(value, 32);
  }
  const data = deflateSync(Uint8Array.from(w.bytes), { level: flateLevel });
  const dict = context.obj({ Filter: 'FlateDecode', S: shared });
  if (tables.outlines) dict.set(PDFName.of('O'), PDFNumber.of(outlines));
  dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
  return PDFRawStream.of(dict, data);
}
