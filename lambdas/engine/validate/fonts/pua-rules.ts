/**
 * The Unicode Private Use Area in PDF/UA-2. Code points there (U+E000–U+F8FF,
 * planes 15 and 16) mean nothing to assistive technology, so:
 *   - 8.4.3: real content whose glyphs map to private-use values needs an
 *     ActualText or Alt (on an enclosing marked-content sequence or on the
 *     structure element owning it, or an ancestor) saying what it is, and
 *     ActualText and Alt themselves hold no private-use values;
 *   - 8.6: text strings meant to be read by people (the catalog Lang,
 *     document information, outline titles, annotation and field texts, structure element Alt,
 *     ActualText, E and T, optional content names) hold no private-use
 *     values either.
 */
import { PDFArray, PDFDict, PDFHexString, PDFString, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, name, resolve } from '../../core/pdf-objects';
import { collected } from '../content-pass';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import type { Example, Rule } from '../rule';
import { structTree } from '../structure/struct-tree';
import { fontExample, fontFacts, unicodeOfName } from './font-model';
import { decodeTextString, glyphUse, NO_ALTERNATIVE } from './glyph-use';
import { unicodeSource } from './to-unicode';

export const isPrivateUse = (cp: number): boolean => (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);

export function hasPrivateUse(s: string): boolean {
  for (const ch of s) if (isPrivateUse(ch.codePointAt(0)!)) return true;
  return false;
}

/** A text string object decoded from its bytes (UTF-16BE or UTF-8 with BOM, else PDFDocEncoding); undefined for anything else. */
function textString(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString) return decodeTextString(obj.asBytes());
  return undefined;
}

/** A string for an example, private-use characters spelled out (they have no visible form). */
function quote(s: string): string {
  let out = '';
  for (const ch of [...s].slice(0, 40)) {
    const cp = ch.codePointAt(0)!;
    out += isPrivateUse(cp) ? `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>` : ch;
  }
  return `"${out}${[...s].length > 40 ? '…' : ''}"`;
}

/** Whatever structure elements say in a text entry, with where. */
function structureTexts(m: ValidationModel, key: 'Alt' | 'ActualText' | 'E' | 'T'): { text: string; example: Example }[] {
  const out: { text: string; example: Example }[] = [];
  for (const e of structTree(m).elements) {
    const text = textString(e.dict.lookup(name(key)));
    if (text === undefined) continue;
    out.push({ text, example: { ...(e.objectNumber !== undefined ? { objectNumber: e.objectNumber } : {}), context: `structure element ${e.type ?? '?'} ${key} ${quote(text)}` } });
  }
  return out;
}

function stringsWithPua(items: { text: string; example: Example }[]): { checked: number; failures: Example[] } {
  return { checked: items.length, failures: items.filter((i) => hasPrivateUse(i.text)).map((i) => i.example) };
}

/** The Unicode text of a code shown: its ToUnicode entry, else the Unicode its glyph name stands for (simple fonts). */
const privateUseGlyphs = fact('private-use-glyphs-without-alternative', (m): Example[] => {
  const failures: Example[] = [];
  for (const f of fontFacts(m)) {
    let source;
    try {
      source = unicodeSource(m.context, f);
    } catch {
      continue;
    }
    for (const [code, bits] of f.use.codes) {
      if (!(bits & NO_ALTERNATIVE)) continue;
      try {
        let text = source.toUnicode(code);
        if (text === undefined && f.info.type !== 'Type0') {
          const n = f.glyph(code).name;
          const u = n !== undefined ? unicodeOfName(n) : undefined;
          if (u !== undefined) text = String.fromCodePoint(u);
        }
        if (text !== undefined && hasPrivateUse(text)) {
          const cp = [...text].map((c) => c.codePointAt(0)!).find(isPrivateUse)!;
          failures.push(fontExample(f, `code ${code} maps to U+${cp.toString(16).toUpperCase().padStart(4, '0')} with no ActualText or Alt`, f.use.firstPage.get(code)));
          break;
        }
      } catch {
        // A code whose glyph cannot be resolved has no Unicode value to judge.
      }
    }
  }
  return failures;
});

/** Human-readable text strings of the document outside content streams (ISO 32000-2 text strings a person reads). */
const readableStrings = fact('readable-text-strings', (m): { text: string; example: Example }[] => {
  const out: { text: string; example: Example }[] = [];
  const ctx = m.context;
  const add = (obj: PDFObject | undefined, where: string, example: Example = {}): void => {
    const text = textString(obj);
    if (text !== undefined) out.push({ text, example: { ...example, context: `${where} ${quote(text)}` } });
  };
  const objectNumber = (d: PDFDict): Example => {
    const n = m.objectNumbers.of(d);
    return n !== undefined ? { objectNumber: n } : {};
  };

  // The document's language: a text string like the others, and one a screen reader announces.
  add(m.catalog.lookup(name('Lang')), 'catalog Lang');

  // Document information dictionary.
  const info = resolve(ctx, ctx.trailerInfo.Info);
  if (info instanceof PDFDict) for (const key of ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer']) add(info.lookup(name(key)), `document information ${key}`);

  // Outline item titles (bounded walk; outlines may be cyclic).
  const seen = new Set<PDFDict>();
  const outline = getDict(m.catalog, 'Outlines');
  const stack: (PDFDict | undefined)[] = [getDict(outline, 'First')];
  while (stack.length > 0 && seen.size < 100000) {
    const item = stack.pop();
    if (!item || seen.has(item)) continue;
    seen.add(item);
    add(item.lookup(name('Title')), 'outline item Title', objectNumber(item));
    stack.push(getDict(item, 'Next'), getDict(item, 'First'));
  }

  // Annotations: their Contents, T (the title of a markup annotation, the partial name of a widget that is also its field) and TU.
  m.doc.getPages().forEach((page, i) => {
    const annots = resolve(ctx, page.node.get(name('Annots')));
    if (!(annots instanceof PDFArray)) return;
    for (let k = 0; k < annots.size() && k < 10000; k++) {
      const a = resolve(ctx, annots.get(k));
      if (!(a instanceof PDFDict)) continue;
      const where = { page: i + 1, ...objectNumber(a) };
      add(a.lookup(name('Contents')), 'annotation Contents', where);
      add(a.lookup(name('T')), 'annotation T', where);
      add(a.lookup(name('TU')), 'field TU', where);
    }
  });

  // Form fields (T, the partial name, and TU, the name shown to the user), through the field tree.
  const fields = resolve(ctx, getDict(m.catalog, 'AcroForm')?.get(name('Fields')));
  const fieldStack: PDFObject[] = fields instanceof PDFArray ? fields.asArray() : [];
  const fieldSeen = new Set<PDFDict>();
  while (fieldStack.length > 0 && fieldSeen.size < 100000) {
    const f = resolve(ctx, fieldStack.pop());
    if (!(f instanceof PDFDict) || fieldSeen.has(f)) continue;
    fieldSeen.add(f);
    add(f.lookup(name('T')), 'field T', objectNumber(f));
    add(f.lookup(name('TU')), 'field TU', objectNumber(f));
    const kids = resolve(ctx, f.get(name('Kids')));
    if (kids instanceof PDFArray) fieldStack.push(...kids.asArray());
  }

  // Structure elements.
  for (const key of ['Alt', 'ActualText', 'E', 'T'] as const) out.push(...structureTexts(m, key));

  // Optional content group names.
  const ocgs = resolve(ctx, getDict(m.catalog, 'OCProperties')?.get(name('OCGs')));
  if (ocgs instanceof PDFArray) {
    for (let k = 0; k < ocgs.size() && k < 10000; k++) {
      const g = resolve(ctx, ocgs.get(k));
      if (g instanceof PDFDict) add(g.lookup(name('Name')), 'optional content group Name', objectNumber(g));
    }
  }

  return out;
});

export const PUA_RULES: readonly Rule[] = [
  {
    id: 'pdfua.fonts.private-use-alternative',
    clauses: { ua2: '8.4.3' },
    description: 'Real content whose glyphs map to Unicode Private Use Area values shall have an ActualText or Alt entry (on the marked-content sequence or the structure element that encloses it).',
    test: (m) => ({ checked: fontFacts(m).length, failures: privateUseGlyphs(m) }),
  },
  {
    id: 'pdfua.fonts.actual-text-private-use',
    clauses: { ua2: '8.4.3' },
    description: 'ActualText entries shall not contain Unicode Private Use Area values.',
    test: (m) => {
      const marked = (collected(m, glyphUse)?.actualTexts ?? []).map((a) => ({ text: a.text, example: { page: a.page, context: `marked-content ActualText ${quote(a.text)}` } }));
      return stringsWithPua([...marked, ...structureTexts(m, 'ActualText')]);
    },
  },
  {
    id: 'pdfua.fonts.alt-private-use',
    clauses: { ua2: '8.4.3' },
    description: 'Alt entries shall not contain Unicode Private Use Area values.',
    test: (m) => {
      const marked = (collected(m, glyphUse)?.altTexts ?? []).map((a) => ({ text: a.text, example: { page: a.page, context: `marked-content Alt ${quote(a.text)}` } }));
      return stringsWithPua([...marked, ...structureTexts(m, 'Alt')]);
    },
  },
  {
    id: 'pdfua.text-strings.private-use',
    clauses: { ua2: '8.6' },
    description:
      'Text strings meant to be read by people (the document language, document information, outline titles, annotation and field texts, structure element Alt, ActualText, E and T, optional content names) shall not use Unicode Private Use Area values.',
    test: (m) => stringsWithPua(readableStrings(m)),
  },
];
