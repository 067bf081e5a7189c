/**
 * pdfa.prepare: does what an archive copy needs beyond its content, so that a
 * file whose only PDF/A failures are declarations and structure becomes
 * PDF/A-1a/b, -2a/b/u, -3a/b/u or -4, -4e, -4f. The identification and
 * structural work is the same for every level of a part: levels a and u add
 * requirements on content (tagging, Unicode mappings) that this fix does not
 * touch and validation reports.
 *
 * - a signed file is left alone: rewriting it would break the signature
 *   (its ByteRange seals the bytes as signed), so nothing is changed and the
 *   outcome says to remove or re-sign it first;
 * - header: a version the part allows (%PDF-1.n for PDF/A-1, at most 1.7 for
 *   -2 and -3, %PDF-2.0 for -4), with the binary comment pdf-lib always writes
 *   after it; a catalog Version the part does not allow goes. A header line
 *   whose version is fine but whose form is not (text after the version, not
 *   at byte 0, no binary comment) is seen only in the file's bytes, which
 *   pdf-lib forgets: the caller passes the header as read from them, and the
 *   file is then written afresh (see `header`);
 * - trailer ID; a linearized file is written whole (its first-page trailer,
 *   which must carry the ID, cannot be judged from the objects); encryption:
 *   the engine always saves decrypted;
 * - actions, interactive leftovers and annotation flags (pdfa-structure.ts);
 * - an output intent GTS_PDFA1 with a usable profile (pdfa-output-intent.ts);
 * - annotation appearances where the part requires them
 *   (annotation-appearances.ts), before NeedAppearances goes;
 * - XMP: pdfaid:part and pdfaid:conformance (PDF/A-4: pdfaid:rev 2020, and a
 *   conformance only for 4e and 4f), Info and XMP in agreement
 *   (metadata.sync's code; PDF/A-4 keeps no Info, or only ModDate when the
 *   catalog has PieceInfo); for parts 1–3 the extension schema container
 *   repaired (xmp-extension-repair.ts) and the properties PDF/A rejects
 *   removed, judged by the validator's own helpers (xmp-allowed.ts) so that
 *   nothing the validator accepts goes. The properties metadata.sync writes
 *   are instead written again in their proper form.
 *
 * Content stays as it is: fonts, colour spaces, transparency (PDF/A-1), images,
 * layers and embedded files are not touched, and whatever of them breaks the
 * part remains a failure that validation reports. The fix never claims
 * compliance; it only writes the identification the standard asks for.
 *
 * Appearance: 'intended' — an annotation that did not print now prints, a
 * hidden one now shows (the standard leaves no other choice but removing it),
 * and one without an appearance gets one drawn from its properties.
 */
import { PDFDict, PDFRef, type PDFDocument } from '@cantoo/pdf-lib';
import { formFieldDicts } from '../../core/form-fields';
import { getName, has, name, resolve } from '../../core/pdf-objects';
import { NS } from '../../core/xmp/schemas';
import type { XmpPacket } from '../../core/xmp/xmp-model';
import { inheritedFieldType } from '../../core/form-fields';
import { pdfaLevelName, pdfaLevelProblem } from '../../fix-catalogue/standards';
import type { FileHeader } from '../../core/file-header';
import type { FixOutcome } from '../fix';
import { ensureAppearances } from './annotation-appearances';
import { ensureTrailerId, headerVersion, outputIntents, setHeaderVersion } from './document-parts';
import { isSyncOwned, readCatalogPacket, syncMetadata } from './metadata-sync';
import { ensureOutputIntent } from './pdfa-output-intent';
import { fixAnnotations, removeForbiddenActions, removeInteractiveLeftovers, type Note } from './pdfa-structure';
import { disallowedProperties, editionForPart } from './xmp-allowed';
import { repairExtensionSchemas } from './xmp-extension-repair';
import { xmpValue } from './xmp-writer';

export interface PdfaPrepareOptions {
  part: number;
  /** The level letter ('a', 'b', 'u'; 'e', 'f' or '' for PDF/A-4), any case. */
  conformance: string;
  now?: () => Date;
  /**
   * The header as the file's bytes have it (core/file-header), when the caller
   * has them. pdf-lib keeps only the version it parsed, so without this a
   * header such as "%PDF-2.0   " (trailing spaces) looks right and, if
   * nothing else changes, the file is not written again.
   */
  header?: FileHeader | null;
}

/** ISO 19005-4's year, its pdfaid:rev. */
const PDFA4_REVISION = '2020';

const levelName = pdfaLevelName;

export function preparePdfa(doc: PDFDocument, opts: PdfaPrepareOptions): FixOutcome {
  const part = opts.part;
  const level = String(opts.conformance).toLowerCase();
  const unknownLevel = pdfaLevelProblem(part, level);
  if (unknownLevel) return { count: 0, pages: [], detail: 'nothing prepared', skipReason: unknownLevel };
  const signed = signedFields(doc);
  if (signed > 0) {
    return {
      count: 0,
      pages: [],
      detail: 'nothing prepared',
      skipReason: `The file is digitally signed (${signed} signed signature field${signed === 1 ? '' : 's'}): preparing it for PDF/A rewrites the file, which would invalidate the signature. Remove the signature or prepare the file before signing it (then sign it again).`,
    };
  }
  const done: string[] = [];
  const pages = new Set<number>();
  const note: Note = Object.assign(
    (what: string, page?: number | null) => {
      done.push(what);
      if (page) pages.add(page);
    },
    { page: (page: number) => void pages.add(page) },
  );

  // Header: PDF/A-2 and -3 are based on ISO 32000-1 (PDF 1.7 at most), PDF/A-4 on ISO 32000-2; PDF/A-1 only asks for "%PDF-1.n".
  const [major, minor] = headerVersion(doc);
  const headerOk = part === 4 ? major === 2 : major === 1 && (part === 1 || minor <= 7);
  if (!headerOk) {
    if (part === 4) setHeaderVersion(doc, 2, 0);
    else setHeaderVersion(doc, 1, part === 1 ? 4 : 7);
    note('header version');
  } else {
    const problem = opts.header ? headerLineProblem(opts.header, part) : null;
    if (problem) {
      // Saving writes the header line afresh: "%PDF-x.y", one end-of-line marker, then the binary comment.
      setHeaderVersion(doc, major, minor);
      note(`header line rewritten (${problem})`);
    }
  }
  // The catalog's Version overrides the header's; one the part does not allow goes (PDF/A-4 6.1.12 checks it).
  const catalog = doc.catalog as PDFDict;
  const version = getName(catalog, 'Version');
  if (catalog.has(name('Version')) && !(version && (part === 4 ? /^2\.\d$/.test(version) : /^1\.\d$/.test(version) && (part === 1 || Number(version.slice(2)) <= 7)))) {
    catalog.delete(name('Version'));
    note('catalog Version removed');
  }
  if (ensureTrailerId(doc)) note('trailer ID');
  if (linearization(doc)) note('linearization dropped (the file is written whole, its one trailer carrying the ID)');

  removeForbiddenActions(doc, part, note);
  fixAnnotations(doc, part, note);
  for (const change of ensureOutputIntent(doc, part)) note(change);
  const space = outputIntents(doc).find((i) => i.subtype === 'GTS_PDFA1')?.header?.colourSpace ?? null;
  for (const c of ensureAppearances(doc, part, space)) note(`${c.subtype} annotation ${c.what === 'drawn' ? 'appearance drawn' : c.what === 'empty' ? 'given an empty appearance' : c.what}${c.why ? ` (${c.why})` : ''}`, c.page);
  removeInteractiveLeftovers(doc, part, note);
  prepareMetadata(doc, part, level, opts.now, note, done.length > 0);

  return {
    count: done.length,
    pages: [...pages].sort((a, b) => a - b),
    detail: done.length
      ? `${levelName(part, level)} declarations and structure: ${summarise(done)}. Content (fonts, colour, transparency, images, embedded files${level === 'a' || level === 'u' ? ', tagging, Unicode mappings' : ''}) is unchanged; validation reports what still fails.`
      : `already prepared for ${levelName(part, level)}`,
  };
}

/** The identification, Info and XMP agreement, and for parts 1–3 the XMP properties and extension schemas PDF/A accepts. */
function prepareMetadata(doc: PDFDocument, part: number, level: string, now: (() => Date) | undefined, note: Note, touched: boolean): void {
  const raw = readCatalogPacket(doc);
  // PDF/A-4 judges neither property types nor extension schemas (ISO 19005-4 leaves XMP to ISO 16684-1).
  const repair = part === 4 || !raw ? null : repairExtensionSchemas(raw);
  const repaired = repair ? { ...raw!, properties: [...raw!.properties.filter((p) => !isContainer(p)), ...(repair.container ? [repair.container] : [])] } : raw;
  // Judged on the packet as it will be: the sync changes only the properties it owns and pdfaid, which are not judged
  // here, and the repaired container. Keyed by namespace and name, as the sync keys them.
  const packet = part === 4 ? null : firstOccurrences(repaired);
  const rejected = packet ? disallowedProperties(packet, editionForPart(part)).filter((d) => !isSyncOwned(d.property)) : [];
  const rejectedKeys = new Set(rejected.map((d) => `${d.property.ns} ${d.property.name}`));
  const id = (local: string, value: string) => xmpValue.text(NS.pdfaid, 'pdfaid', local, value);
  const set = [id('part', String(part))];
  if (level !== '') set.push(id('conformance', level.toUpperCase()));
  if (part === 4) set.push(id('rev', PDFA4_REVISION));
  if (repair?.container) set.push(repair.container);
  const keep = new Set(set.filter((p) => p.ns === NS.pdfaid).map((p) => p.name));
  const metadata = syncMetadata(doc, {
    now,
    set,
    // Other identification properties (amd, corr, a stale rev or conformance) describe an earlier claim.
    remove: (p) => (p.ns === NS.pdfaid && !keep.has(p.name)) || rejectedKeys.has(`${p.ns} ${p.name}`) || (repair !== null && !repair.container && isContainer(p)),
    touched: touched || rejected.length > 0 || repair !== null,
    normalisePacket: true,
    infoDictionary: part === 4 ? (has(doc.catalog as PDFDict, 'PieceInfo') ? 'modDate' : 'none') : 'sync',
  });
  // The sync lists each removal; they are reported once, together, below.
  const removedNames = new Set(rejected.map((d) => `XMP ${d.property.prefix}:${d.property.name} removed`));
  for (const c of metadata.changes) if (!removedNames.has(c) && c !== 'XMP pdfaExtension:schemas' && c !== 'XMP pdfaExtension:schemas removed') note(c);
  if (repair) note(`extension schemas repaired: ${repair.changes.slice(0, 6).join('; ')}${repair.changes.length > 6 ? `; and ${repair.changes.length - 6} more` : ''}`);
  if (rejected.length) {
    const names = [...new Set(rejected.map((d) => `${d.property.prefix}:${d.property.name}`))];
    note(`removed ${names.length} XMP ${names.length === 1 ? 'property' : 'properties'} PDF/A does not allow: ${names.join(', ')}`);
  }
}

const isContainer = (p: { ns: string; name: string }) => p.ns === NS.pdfaExtension && p.name === 'schemas';

/** The packet as the sync keeps it: XMP allows a property once, and the sync keeps its first occurrence. */
function firstOccurrences(packet: XmpPacket | null): XmpPacket | null {
  if (!packet) return null;
  const seen = new Set<string>();
  return { ...packet, properties: packet.properties.filter((p) => !seen.has(`${p.ns} ${p.name}`) && !!seen.add(`${p.ns} ${p.name}`)) };
}

/** Signature fields whose value is a signature dictionary with a ByteRange and Contents: the file as signed. */
function signedFields(doc: PDFDocument): number {
  let count = 0;
  for (const field of formFieldDicts(doc.context, doc.catalog)) {
    if (inheritedFieldType(field) !== 'Sig') continue;
    const v = resolve(doc.context, field.get(name('V')));
    if (v instanceof PDFDict && v.has(name('ByteRange')) && v.has(name('Contents'))) count++;
  }
  return count;
}

/**
 * Whether the file is linearized (it has a linearization dictionary). The
 * engine writes the file whole, with one trailer carrying the ID, so the
 * linearization dictionary — which would now describe nothing — is deleted.
 */
function linearization(doc: PDFDocument): boolean {
  const found: PDFRef[] = [];
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) if (obj instanceof PDFDict && obj.has(name('Linearized'))) found.push(ref);
  for (const ref of found) doc.context.delete(ref);
  return found.length > 0;
}

/**
 * What is wrong with a header line whose version the part allows, as PDF/A
 * judges it (ISO 19005 6.1.2; the validator's pdfa.file.header and
 * pdfa.file.binary-comment): it starts at byte 0, is "%PDF-n.m" with nothing
 * after the version (PDF/A-1 asks only that it start so), and the next line is
 * a comment of at least four bytes above 127. Null when all holds.
 */
function headerLineProblem(header: FileHeader, part: number): string | null {
  if (header.offset < 0) return 'the file had none';
  if (header.offset !== 0) return `it started at byte ${header.offset}`;
  if (part !== 1 && !/^%PDF-\d\.\d$/.test(header.line)) return `"${header.line.replace(/[^\x20-\x7e]/g, '?')}" had more than the version`;
  if (!header.binaryComment) return 'no binary comment followed it';
  return null;
}

/** The notes, each once, with a count where it repeats ("annotation flags set ×3"). */
function summarise(done: string[]): string {
  const counts = new Map<string, number>();
  for (const d of done) counts.set(d, (counts.get(d) ?? 0) + 1);
  return [...counts].map(([d, c]) => (c > 1 ? `${d} ×${c}` : d)).join('; ');
}
