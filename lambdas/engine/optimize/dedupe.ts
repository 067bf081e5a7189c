/**
 * objects.dedupe: identical objects stored more than once become one object,
 * and every reference to a copy is pointed at it. A file assembled from
 * several (imposition, merged documents, the same logo placed by each page's
 * export) often carries the same image, font program or form many times.
 *
 * What counts as identical is strict: the same stored bytes and the same
 * dictionary, entry for entry in the same order (its /Length aside, which
 * follows from the bytes). Merged are:
 * - streams (images, soft masks, font programs, forms, content streams, ICC
 *   profiles): sharing one between pages or resources is what PDF is made for;
 * - font, font descriptor, encoding and graphics state dictionaries, and
 *   ICCBased colour space arrays: resources a page names, never objects whose
 *   identity means something (pages, annotations, fields and structure
 *   elements are never merged: the page tree or a form would break).
 * Merging runs again until nothing changes, so that fonts whose programs were
 * copies, then descriptors that named those copies, then the fonts, all merge.
 */
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { getName } from '../core/pdf-objects';
import { isStructuralStream } from '../core/writer/indirect-object';
import { unreferencedRefs } from '../autofix/unreferenced';

const MERGED_DICT_TYPES = new Set(['Font', 'FontDescriptor', 'Encoding', 'ExtGState']);
const LENGTH = PDFName.of('Length');
/** Rounds of merging; each round can only merge what the one before made identical. */
const MAX_ROUNDS = 6;

export interface DedupeOutcome {
  /** Objects that were copies of another and now point to it. */
  merged: number;
}

export function dedupeObjects(doc: PDFDocument): DedupeOutcome {
  const { context } = doc;
  const replaced = new Set<PDFRef>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const firstOf = new Map<string, PDFRef>();
    const replacements = new Map<PDFRef, PDFRef>();
    for (const [ref, obj] of context.enumerateIndirectObjects()) {
      const key = identityKey(obj);
      if (key === null) continue;
      const first = firstOf.get(key);
      if (first) replacements.set(ref, first);
      else firstOf.set(key, ref);
    }
    if (replacements.size === 0) break;
    redirect(doc, replacements);
    for (const ref of replacements.keys()) replaced.add(ref);
  }
  if (replaced.size === 0) return { merged: 0 };
  // The copies are unreferenced now, unless an object we could not parse names them in its bytes.
  let merged = 0;
  for (const ref of unreferencedRefs(doc)) {
    if (!replaced.has(ref)) continue;
    context.delete(ref);
    merged++;
  }
  return { merged };
}

/** What makes the object identical to another, or null when it is never merged. */
function identityKey(obj: PDFObject): string | null {
  if (obj instanceof PDFRawStream) {
    if (isStructuralStream(obj)) return null;
    const bytes = obj.contents;
    const digest = createHash('sha256').update(bytes).digest('base64');
    return `S${bytes.length}:${digest}:${dictText(obj.dict)}`;
  }
  if (obj instanceof PDFDict) {
    const type = getName(obj, 'Type');
    return type !== undefined && MERGED_DICT_TYPES.has(type) ? `D${dictText(obj)}` : null;
  }
  if (obj instanceof PDFArray && obj.size() === 2 && obj.get(0) === PDFName.of('ICCBased')) return `A${obj.toString()}`;
  return null;
}

/** The dictionary's entries in their order, without /Length. */
function dictText(dict: PDFDict): string {
  let out = '';
  for (const [key, value] of dict.entries()) if (key !== LENGTH) out += `${key.toString()} ${value.toString()}\n`;
  return out;
}

/** Points every reference to a copy, anywhere in the document and its trailer, at the object it copies. */
function redirect(doc: PDFDocument, replacements: Map<PDFRef, PDFRef>): void {
  const { context } = doc;
  const swap = (obj: PDFObject | undefined): PDFObject | undefined => (obj instanceof PDFRef ? replacements.get(obj) : undefined);
  const visit = (obj: PDFObject): void => {
    if (obj instanceof PDFStream) visit(obj.dict);
    else if (obj instanceof PDFDict) {
      for (const [key, value] of obj.entries()) {
        const to = swap(value);
        if (to) obj.set(key, to);
        else visit(value);
      }
    } else if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) {
        const value = obj.get(i);
        const to = swap(value);
        if (to) obj.set(i, to);
        else visit(value);
      }
    }
  };
  for (const [, obj] of context.enumerateIndirectObjects()) visit(obj);
  const trailer = context.trailerInfo as Record<string, PDFObject | undefined>;
  for (const key of ['Root', 'Info']) {
    const to = swap(trailer[key]);
    if (to) trailer[key] = to;
  }
}
