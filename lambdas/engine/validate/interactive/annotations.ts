/**
 * Annotations as the rules see them: every annotation dictionary listed in a
 * page's Annots array, once, with the entries PDF/A and PDF/UA judge (subtype,
 * flags, rectangle, appearance dictionary, the field type a widget inherits).
 * Read once per document (`annotations(m)`), nothing decoded.
 */
import { PDFArray, PDFDict, PDFNumber, PDFStream } from '@cantoo/pdf-lib';
import { inheritedFieldType } from '../../core/form-fields';
import { getName, getNumber, name, resolvedItems } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { Example } from '../rule';

/** Annotation flag bits (ISO 32000-1 Table 165). */
export const FLAG = { invisible: 1, hidden: 2, print: 4, noView: 32, toggleNoView: 256 } as const;

export interface AnnotationInfo {
  dict: PDFDict;
  page: number;
  pageDict: PDFDict;
  objectNumber: number | undefined;
  /** Subtype as written; null when missing or not a name. */
  subtype: string | null;
  /** F as an integer; null when absent or not a number (read as absent, like an unset key). */
  flags: number | null;
  /** Rect as four numbers; null when missing or malformed. */
  rect: [number, number, number, number] | null;
  /** FT of the widget's field, inherited through Parent; null for other annotations. */
  fieldType: string | null;
  /**
   * The AP dictionary, when present and a dictionary. An AP of another type is
   * read as no AP, as veraPDF reads it (its annotation's AP is the dictionary
   * or nothing): the rules that want an AP fail it, the rules on an AP's
   * entries have nothing to judge.
   */
  ap: PDFDict | undefined;
  /** AP is present but not a dictionary: only to say so in a failure. */
  apMalformed: boolean;
}

export const annotations = fact('annotations', (m): AnnotationInfo[] => {
  const ctx = m.context;
  const out: AnnotationInfo[] = [];
  const seen = new Set<PDFDict>();
  let pages;
  try {
    pages = m.doc.getPages();
  } catch {
    return out; // a broken page tree: no annotation can be reached
  }
  pages.forEach((p, i) => {
    for (const a of resolvedItems(ctx, p.node.get(name('Annots')))) {
      if (!(a instanceof PDFDict) || seen.has(a)) continue;
      seen.add(a);
      const subtype = getName(a, 'Subtype') ?? null;
      const f = a.lookup(name('F'));
      const ap = a.lookup(name('AP'));
      out.push({
        dict: a,
        page: i + 1,
        pageDict: p.node,
        objectNumber: m.objectNumbers.of(a),
        subtype,
        flags: f instanceof PDFNumber && Number.isInteger(f.asNumber()) ? f.asNumber() : null,
        rect: rectOf(a),
        fieldType: subtype === 'Widget' ? inheritedFieldType(a) : null,
        ap: ap instanceof PDFDict ? ap : undefined,
        apMalformed: ap !== undefined && !(ap instanceof PDFDict),
      });
    }
  });
  return out;
});

function rectOf(a: PDFDict): [number, number, number, number] | null {
  const r = a.lookup(name('Rect'));
  if (!(r instanceof PDFArray) || r.size() < 4) return null;
  const n = [0, 1, 2, 3].map((i) => r.lookup(i));
  if (!n.every((x) => x instanceof PDFNumber)) return null;
  return n.map((x) => (x as PDFNumber).asNumber()) as [number, number, number, number];
}

/** Width and height are both zero: a point annotation, which needs no appearance. */
export function isZeroSize(a: AnnotationInfo): boolean {
  return a.rect !== null && a.rect[0] === a.rect[2] && a.rect[1] === a.rect[3];
}

export function hasFlag(a: AnnotationInfo, bit: number): boolean {
  return a.flags !== null && (a.flags & bit) === bit;
}

/** A numeric entry of the annotation (CA), or undefined. */
export function annotNumber(a: AnnotationInfo, key: string): number | undefined {
  return getNumber(a.dict, key);
}

/** The N entry of the appearance dictionary, resolved. */
export function normalAppearance(a: AnnotationInfo): PDFDict | PDFStream | undefined {
  const n = a.ap?.lookup(name('N'));
  return n instanceof PDFStream || n instanceof PDFDict ? n : undefined;
}

/**
 * Keys of the appearance dictionary (`N`, `R`, `D`). A key whose value is
 * written as null is no entry (ISO 32000-1 7.3.7), and veraPDF drops it when
 * it reads the dictionary: `/AP << /N … /D null >>` holds only N.
 */
export function appearanceKeys(a: AnnotationInfo): string[] {
  return a.ap ? a.ap.keys().filter((k) => a.ap!.get(k) !== undefined).map((k) => k.decodeText()) : [];
}

/**
 * An appearance subdictionary (one appearance stream per state) that holds
 * at least one appearance stream. veraPDF's test (containsAppearances) asks
 * no more: entries of other types beside the streams are passed over.
 */
export function holdsAppearanceStreams(d: PDFDict): boolean {
  return d.values().some((v) => d.context.lookup(v) instanceof PDFStream);
}

export function annotationExample(a: AnnotationInfo, what?: string): Example {
  const label = `${a.subtype ?? '(no Subtype)'} annotation`;
  return {
    page: a.page,
    ...(a.objectNumber !== undefined ? { objectNumber: a.objectNumber } : {}),
    context: what ? `${label}: ${what}` : label,
  };
}
