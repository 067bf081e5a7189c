/**
 * A document written linearized ("fast web view", ISO 32000-1 Annex F): a
 * viewer reading the file over the network shows the first page from the
 * file's first bytes and finds any other page through the hint tables. In
 * file order: the header, the linearization parameter dictionary, the first
 * page's cross-reference section and trailer (its /Prev pointing at the main
 * section), the catalog and what opening the document needs, the hint stream,
 * the first page and everything it uses, then each other page with the
 * objects only it uses, the objects pages share, everything else, and the
 * main cross-reference section, whose `startxref` points back at the first.
 * Which object goes where is linearization-parts.ts; the hint stream is
 * linearization-hints.ts.
 *
 * Objects are numbered anew in that order, as Annex F asks (the first page's
 * section last, so its cross-reference section starts at its own numbers, and
 * each page's objects consecutively from its page object). Every offset and
 * length the parameter dictionary and the hint tables hold is exact: each
 * object is serialised once to measure it, the layout is computed from the
 * sizes, and the file is then written front to back through the sink, one
 * object at a time, as the other writers do. The parameter dictionary and the
 * first cross-reference section are padded to a size fixed before the numbers
 * they hold are known, as qpdf does.
 *
 * With `objectStreams`, objects other than streams after the first page's
 * section are packed into object streams and both cross-reference sections
 * are streams (as `qpdf --linearize --object-streams=generate`, except that
 * the first page's objects are never packed: it reads without inflating any);
 * without, classic tables. Documents reach the writer decrypted and unsigned.
 */
import { PDFArray, PDFDict, PDFInvalidObject, PDFName, PDFNull, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { trailerEntries, trailerText, xrefStream, xrefTable, type XrefEntry } from './cross-reference';
import { FileSink } from './file-sink';
import { indirectObjectBytes, indirectObjectSize } from './indirect-object';
import { hintStream, type HintTables } from './linearization-hints';
import { linearizationParts, target, type LinearizationParts, type Unit } from './linearization-parts';
import { objectStream } from './object-stream-writer';
import { pushInheritedAttributesToPages } from './page-attributes';
import { prepareForSave } from './prepare';
import { BINARY_COMMENT } from './whole-file-writer';

export interface LinearizeOptions {
  /** Pack objects after the first page's section in object streams (PDF 1.5), compressed at this zlib level; else classic tables. */
  objectStreams?: { flateLevel: number };
}

/** Wider than any offset, length or object number a file written here holds. */
const PLACEHOLDER = 9_999_999_999;
const HINT_FLATE_LEVEL = 9;

/** Why the document cannot be linearized here, in a sentence for the customer, or null. */
export function linearizationRefusal(doc: PDFDocument): string | null {
  const pages = doc.getPages().map((p) => p.ref);
  if (pages.length === 0) return 'The file has no pages, so it has no first page to put first.';
  if (new Set(pages).size !== pages.length) return 'The page tree lists one page object more than once, which a linearized file cannot describe.';
  // Objects our reader could not parse are copied byte for byte: references inside them could not be renumbered.
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFInvalidObject && /\d\s+\d+\s+R\b/.test(Buffer.from(bytesOf(object)).toString('latin1'))) {
      return 'The file holds an object our reader could not parse that refers to others: its objects cannot be renumbered, as linearization requires.';
    }
  }
  return null;
}

export async function writeLinearizedPdf(doc: PDFDocument, outPath: string, options: LinearizeOptions = {}): Promise<void> {
  await prepareForSave(doc);
  const refusal = linearizationRefusal(doc);
  if (refusal) throw new Error(`linearize: ${refusal}`);
  pushInheritedAttributesToPages(doc);
  outlinesIndirect(doc);
  const { context } = doc;
  const pack = options.objectStreams;
  const parts = linearizationParts(doc, pack !== undefined);
  const n = numberObjects(parts, pack !== undefined);
  const secondHalf = [...parts.part7.flat(), ...parts.part8, ...parts.part9];

  // Each unit serialised once to measure it (object streams are kept: they are compressed here, and small).
  const built = new Map<Unit, PDFObject>();
  const unitObject = (unit: Unit): PDFObject => {
    if (!unit.packed) return renumbered(context, target(context, unit.refs[0]!)!, n.objects);
    const members = unit.refs.map((ref): [PDFRef, PDFObject] => [PDFRef.of(n.objects.get(ref)!), renumbered(context, target(context, ref)!, n.objects)]);
    return objectStream(context, members, pack!.flateLevel);
  };
  const size = new Map<Unit, number>();
  for (const unit of [...parts.part4, ...parts.part6, ...secondHalf]) {
    const object = unitObject(unit);
    if (unit.packed) built.set(unit, object);
    size.set(unit, indirectObjectSize(PDFRef.of(n.units.get(unit)!), object));
  }
  const sum = (units: Unit[]): number => units.reduce((s, u) => s + size.get(u)!, 0);

  // Where everything goes as if there were no hint stream: the offsets the hint tables hold (F.4).
  const header = Buffer.concat([Buffer.from(`%PDF-${context.header.getVersionString()}\n`, 'latin1'), BINARY_COMMENT]);
  const dictSize = linearizationDict(n.lindict, Array(7).fill(PLACEHOLDER)).length + 1;
  const firstEntries = (offsets: Map<Unit, number> | null, hintAt: number): XrefEntry[] => [
    { objectNumber: n.lindict, generation: 0, offset: header.length },
    ...[...parts.part4, ...parts.part6].map((u) => ({ objectNumber: n.units.get(u)!, generation: 0, offset: offsets?.get(u) ?? 0 })),
    { objectNumber: n.hint, generation: 0, offset: hintAt },
  ];
  const firstSection = (entries: XrefEntry[], at: number, prev: number): Uint8Array => {
    const trailer = Object.fromEntries(Object.entries(trailerEntries(context, n.size, prev)).map(([k, v]) => [k, renumbered(context, v, n.objects)]));
    if (n.firstXref === undefined) return Buffer.from(`${xrefTable(entries, false)}${trailerText(context, trailer)}startxref\n0\n%%EOF\n`, 'latin1');
    return indirectObjectBytes(PDFRef.of(n.firstXref), xrefStream(context, entries, trailer, { objectNumber: n.firstXref, offset: at }));
  };
  const firstAt = header.length + dictSize;
  const firstSize = firstSection(firstEntries(null, 0), firstAt, PLACEHOLDER).length + 1;
  const at0 = new Map<Unit, number>();
  let at = firstAt + firstSize;
  for (const unit of parts.part4) at = place(at0, unit, at, size);
  const hintAt = at;
  for (const unit of [...parts.part6, ...secondHalf]) at = place(at0, unit, at, size);

  const hint = indirectObjectBytes(PDFRef.of(n.hint), hintStream(context, hintTables(parts, n, at0, sum), HINT_FLATE_LEVEL));
  const offsets = new Map([...at0].map(([u, o]) => [u, parts.part4.includes(u) ? o : o + hint.length]));
  const mainAt = at + hint.length;
  const main = mainSection(context, secondHalf, n, offsets, mainAt, pack?.flateLevel);
  const tail = `startxref\n${firstAt}\n%%EOF\n`;
  const lastOfPart6 = parts.part6[parts.part6.length - 1]!;
  const dict = linearizationDict(n.lindict, [
    mainAt + main.length + tail.length, // L
    hintAt, hint.length, // H
    n.units.get(parts.part6[0]!)!, // O
    offsets.get(lastOfPart6)! + size.get(lastOfPart6)!, // E
    parts.pages.length, // N
    n.firstXref === undefined ? mainAt + `xref\n0 ${n.secondHalfSize}`.length : mainAt - 1, // T
  ]);

  const sink = await FileSink.create(outPath);
  try {
    await sink.write(header);
    await sink.writeText(padded(dict, dictSize));
    await sink.write(padBytes(firstSection(firstEntries(offsets, hintAt), firstAt, mainAt), firstSize));
    const write = async (unit: Unit): Promise<void> => {
      if (sink.offset !== offsets.get(unit)) throw new Error(`linearize: object ${n.units.get(unit)} is at ${sink.offset}, laid out at ${offsets.get(unit)}`);
      await sink.write(indirectObjectBytes(PDFRef.of(n.units.get(unit)!), built.get(unit) ?? unitObject(unit)));
      built.delete(unit);
    };
    for (const unit of parts.part4) await write(unit);
    await sink.write(hint);
    for (const unit of [...parts.part6, ...secondHalf]) await write(unit);
    await sink.write(main);
    await sink.writeText(tail);
  } finally {
    await sink.close();
  }
}

interface Numbers {
  /** New object number of each unit (an object stream's own number for a packed one). */
  units: Map<Unit, number>;
  /** New object number of each object written. */
  objects: Map<PDFRef, number>;
  lindict: number;
  hint: number;
  firstXref?: number;
  mainXref?: number;
  /** One past the last number of the main section (its /Size): the first number of the first page's section. */
  secondHalfSize: number;
  size: number;
}

/**
 * Numbers as qpdf gives them: the main section's objects first (from 1, its
 * object streams' members after its own cross-reference stream, so no entry
 * of an object written plainly follows a packed one), then the first page's
 * section: the parameter dictionary, its cross-reference stream, part 4, the
 * hint stream, part 6.
 */
function numberObjects(parts: LinearizationParts, streams: boolean): Numbers {
  const units = new Map<Unit, number>();
  const objects = new Map<PDFRef, number>();
  const secondHalf = [...parts.part7.flat(), ...parts.part8, ...parts.part9];
  let next = 1;
  for (const unit of secondHalf) units.set(unit, next++);
  const mainXref = streams ? next++ : undefined;
  for (const unit of secondHalf) if (unit.packed) for (const ref of unit.refs) objects.set(ref, next++);
  const secondHalfSize = next;
  const lindict = next++;
  const firstXref = streams ? next++ : undefined;
  for (const unit of parts.part4) units.set(unit, next++);
  const hint = next++;
  for (const unit of parts.part6) units.set(unit, next++);
  for (const [unit, number] of units) if (!unit.packed) objects.set(unit.refs[0]!, number);
  return { units, objects, lindict, hint, firstXref, mainXref, secondHalfSize, size: next };
}

function hintTables(parts: LinearizationParts, n: Numbers, at0: Map<Unit, number>, sum: (units: Unit[]) => number): HintTables {
  const groups = [...parts.part6, ...parts.part8];
  const index = new Map(groups.map((u, i) => [u, i]));
  const first8 = parts.part8[0];
  const outlines = parts.outlines[0];
  return {
    pages: [parts.part6, ...parts.part7].map((units, i) => ({ objects: units.length, length: sum(units), shared: parts.shared[i]!.map((u) => index.get(u)!) })),
    firstPageOffset: at0.get(parts.part6[0]!)!,
    groupLengths: groups.map((u) => sum([u])),
    firstPageGroups: parts.part6.length,
    firstShared: first8 ? { objectNumber: n.units.get(first8)!, offset: at0.get(first8)! } : { objectNumber: 0, offset: 0 },
    outlines: outlines ? { objectNumber: n.units.get(outlines)!, offset: at0.get(outlines)!, objects: parts.outlines.length, length: sum(parts.outlines) } : null,
  };
}

/** The main cross-reference section: a table and trailer, or a compressed stream listing the packed objects too. */
function mainSection(context: PDFContext, units: Unit[], n: Numbers, offsets: Map<Unit, number>, at: number, flateLevel: number | undefined): Uint8Array {
  const { ID } = context.trailerInfo;
  const trailer: Record<string, PDFObject> = { Size: PDFNumber.of(n.secondHalfSize), ...(ID ? { ID } : {}) };
  const entries: XrefEntry[] = units.map((u) => ({ objectNumber: n.units.get(u)!, generation: 0, offset: offsets.get(u)! }));
  if (n.mainXref === undefined) return Buffer.from(`${xrefTable(entries, true)}${trailerText(context, trailer)}`, 'latin1');
  entries.unshift({ objectNumber: 0, generation: 65535, offset: null });
  for (const unit of units) {
    if (unit.packed) unit.refs.forEach((ref, index) => entries.push({ objectNumber: n.objects.get(ref)!, generation: 0, offset: null, inStream: { streamNumber: n.units.get(unit)!, index } }));
  }
  return indirectObjectBytes(PDFRef.of(n.mainXref), xrefStream(context, entries, trailer, { objectNumber: n.mainXref, offset: at }, flateLevel));
}

/** The object with every reference renumbered (one to an object not written becomes null); a stream keeps its data and gets its /Length anew. */
function renumbered(context: PDFContext, object: PDFObject, numbers: Map<PDFRef, number>): PDFObject {
  if (object instanceof PDFRef) {
    const number = numbers.get(object);
    return number === undefined ? PDFNull : PDFRef.of(number);
  }
  if (object instanceof PDFArray) {
    const out = PDFArray.withContext(context);
    for (const value of object.asArray()) out.push(renumbered(context, value, numbers));
    return out;
  }
  if (object instanceof PDFDict) {
    const out = PDFDict.withContext(context);
    for (const [key, value] of object.entries()) out.set(key, renumbered(context, value, numbers));
    return out;
  }
  if (object instanceof PDFStream) return PDFRawStream.of(renumbered(context, object.dict, numbers) as PDFDict, object.getContents());
  return object;
}

/** The outline root is located by its own object in the hint tables: a direct one is made indirect. */
function outlinesIndirect(doc: PDFDocument): void {
  const key = PDFName.of('Outlines');
  const outlines = doc.catalog.get(key);
  if (outlines instanceof PDFDict) doc.catalog.set(key, doc.context.register(outlines));
}

function linearizationDict(number: number, [l, h, hl, o, e, pages, t]: number[]): string {
  return `${number} 0 obj\n<< /Linearized 1 /L ${l} /H [ ${h} ${hl} ] /O ${o} /E ${e} /N ${pages} /T ${t} >>\nendobj\n`;
}

function place(at0: Map<Unit, number>, unit: Unit, at: number, size: Map<Unit, number>): number {
  at0.set(unit, at);
  return at + size.get(unit)!;
}

/** Text padded with spaces and an end of line to `size` bytes. */
function padded(text: string, size: number): string {
  return `${text}${' '.repeat(size - text.length - 1)}\n`;
}

function padBytes(bytes: Uint8Array, size: number): Uint8Array {
  return Buffer.concat([bytes, Buffer.from(padded('', size - bytes.length), 'latin1')]);
}

function bytesOf(object: PDFObject): Uint8Array {
  const out = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(out, 0);
  return out;
}
