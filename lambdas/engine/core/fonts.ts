/**
 * Font dictionaries (ISO 32000-1 9.5–9.10): what a font is, whether its program
 * travels with the file, and which pages can reach it through their resources
 * (resource-walk: page resources, form XObjects, patterns, Type 3 fonts and
 * annotation appearances, recursively). Which fonts really draw text comes from
 * content-scan.
 */
import { PDFDict, PDFStream, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import { resourceEntries, resourcesByPage, type ResourceMap } from './resource-walk';
import { getArray, getDict, getName, getStream, getText, has, name, resolve } from './pdf-objects';

export interface FontInfo {
  /** BaseFont without the subset prefix; Type 3 fonts often have no name. */
  name: string;
  /** BaseFont as written (`ABCDEF+Frutiger-Roman`). */
  baseFont: string | null;
  /** Subtype: Type1, MMType1, TrueType, Type3, Type0. */
  type: string;
  /** For Type0: the descendant's subtype (CIDFontType0 / CIDFontType2). */
  cidType: string | null;
  /** The font program is in the file (Type 3 glyphs always are). */
  embedded: boolean;
  /** Which FontFile entry holds the program (FontFile, FontFile2, FontFile3/Type1C…). */
  program: string | null;
  /** Only the used glyphs are embedded (`ABCDEF+` name prefix). */
  subset: boolean;
  /** One of the 14 standard fonts readers must supply themselves. */
  standard14: boolean;
  hasToUnicode: boolean;
  /** The Encoding name, or the BaseEncoding of an encoding dictionary; CMap name for Type0. */
  encoding: string | null;
  /** The encoding dictionary has a Differences array. */
  hasDifferences: boolean;
  /** CIDSystemInfo Registry-Ordering of a Type0 font's descendant. */
  cidOrdering: string | null;
}

const STANDARD_14 = new Set([
  'Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic',
  'Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique',
  'Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique',
  'Symbol', 'ZapfDingbats',
]);

const SUBSET_PREFIX = /^[A-Z]{6}\+/;

export function describeFont(context: PDFContext, font: PDFDict): FontInfo {
  const type = getName(font, 'Subtype') ?? 'Unknown';
  const baseFont = getName(font, 'BaseFont') ?? null;
  let descriptorHolder: PDFDict = font;
  let cidType: string | null = null;
  let cidOrdering: string | null = null;
  if (type === 'Type0') {
    const descendant = resolve(context, getArray(font, 'DescendantFonts')?.get(0));
    if (descendant instanceof PDFDict) {
      descriptorHolder = descendant;
      cidType = getName(descendant, 'Subtype') ?? null;
      const info = getDict(descendant, 'CIDSystemInfo');
      const reg = getText(info, 'Registry');
      const ord = getText(info, 'Ordering');
      if (reg && ord) cidOrdering = `${reg}-${ord}`;
    }
  }
  const descriptor = getDict(descriptorHolder, 'FontDescriptor');
  let program: string | null = null;
  for (const key of ['FontFile', 'FontFile2', 'FontFile3']) {
    const s = getStream(descriptor, key);
    if (s) {
      program = key === 'FontFile3' ? `FontFile3/${getName(s.dict, 'Subtype') ?? '?'}` : key;
      break;
    }
  }
  const enc = resolve(context, font.get(name('Encoding')));
  let encoding: string | null = null;
  let hasDifferences = false;
  if (enc instanceof PDFDict) {
    encoding = getName(enc, 'BaseEncoding') ?? null;
    hasDifferences = has(enc, 'Differences');
  } else if (enc instanceof PDFStream) {
    encoding = getName(enc.dict, 'CMapName') ?? 'embedded CMap';
  } else if (enc) {
    encoding = getName(font, 'Encoding') ?? null;
  }
  const cleanName = baseFont ? baseFont.replace(SUBSET_PREFIX, '') : getName(font, 'Name') ?? `${type} font`;
  return {
    name: cleanName,
    baseFont,
    type,
    cidType,
    embedded: type === 'Type3' || program !== null,
    program,
    subset: baseFont !== null && SUBSET_PREFIX.test(baseFont),
    standard14: type !== 'Type0' && type !== 'Type3' && baseFont !== null && STANDARD_14.has(baseFont),
    hasToUnicode: has(font, 'ToUnicode'),
    encoding,
    hasDifferences,
    cidOrdering,
  };
}

/** Fonts each page can reach through its resources: font dictionary → pages (1-based). */
export function fontsByPage(doc: PDFDocument, resources: ResourceMap = resourcesByPage(doc)): Map<PDFDict, Set<number>> {
  const out = new Map<PDFDict, Set<number>>();
  for (const [font, pages] of resourceEntries(doc.context, resources, 'Font')) {
    if (font instanceof PDFDict) out.set(font, pages);
  }
  return out;
}
