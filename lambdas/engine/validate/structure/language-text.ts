/**
 * Natural language, part 2 (ISO 14289-1 7.2): the language of every text a
 * reader speaks shall be determinable. The catalog's Lang is the default for
 * all of it; without one, each text must find a Lang closer to it:
 *   - text shown in page content: an enclosing marked-content sequence or the
 *     structure element owning it (or that element's ancestors);
 *   - ActualText, Alt and E of a structure element: the element or an ancestor;
 *   - ActualText, Alt and E of a Span sequence: the sequence, an enclosing one,
 *     or the owning structure element;
 *   - annotation Contents and form field TU: the annotation / field itself;
 *   - outline titles and XMP language alternatives: only the catalog can say.
 */
import { PDFDict, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, getNumber, getStream, getText, has, name, resolve, resolvedItems, streamBytes } from '../../core/pdf-objects';
import { collected } from '../content-pass';
import { fact } from '../fact';
import { annotations } from '../interactive/annotations';
import type { ValidationModel } from '../model';
import { condition, eachOf, type Example, type Rule } from '../rule';
import { catalogLang } from './language-values';
import { markedContent } from './marked-content';
import { findingOutcome } from './tagged-content';
import { elemExample, structTree, type StructElem } from './struct-tree';

/** An element, or one of its ancestors, has a Lang. */
function elementHasLang(e: StructElem | undefined): boolean {
  for (let cur = e, n = 0; cur && n < 10_000; cur = cur.parent, n++) if (cur.lang !== undefined) return true;
  return false;
}

const ALTERNATE_TEXTS = [
  ['ActualText', (e: StructElem) => e.actualText],
  ['Alt', (e: StructElem) => e.alt],
  ['E', (e: StructElem) => e.expansion],
] as const;

/** Field dictionaries of the AcroForm tree (cycle-safe, bounded). */
const formFields = fact('language-form-fields', (m): PDFDict[] => {
  const ctx = m.context;
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const stack: { d: PDFObject; depth: number }[] = resolvedItems(ctx, getDict(m.catalog, 'AcroForm')?.get(name('Fields'))).map((d) => ({ d, depth: 0 }));
  while (stack.length && out.length < 100_000) {
    const { d, depth } = stack.pop()!;
    if (!(d instanceof PDFDict) || seen.has(d) || depth > 32) continue;
    seen.add(d);
    out.push(d);
    for (const kid of resolvedItems(ctx, d.get(name('Kids')))) stack.push({ d: kid, depth: depth + 1 });
  }
  return out;
});

/**
 * The XMP packet has a language alternative (dc:title, dc:description, …) whose
 * only language is x-default: its text has no language of its own. An
 * alternative that also lists a real language (x-default plus en-US) declares it.
 */
const xmpDefaultOnlyAlternative = fact('xmp-x-default-only', (m): boolean => {
  const stream = getStream(m.catalog, 'Metadata');
  const bytes = stream ? streamBytes(stream) : null;
  if (!bytes) return false;
  const xml = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  for (const alt of xml.matchAll(/<([\w-]+:)?Alt\b[^>]*>([\s\S]*?)<\/([\w-]+:)?Alt>/g)) {
    const langs = [...alt[2]!.matchAll(/xml:lang\s*=\s*["']([^"']*)["']/g)].map((l) => l[1]!.toLowerCase());
    if (langs.includes('x-default') && langs.every((l) => l === 'x-default')) return true;
  }
  return false;
});

export const TEXT_LANGUAGE_RULES: readonly Rule[] = [
  {
    id: 'pdfua.lang.content-text',
    clauses: { ua1: '7.2' },
    description:
      'The natural language of text in page content shall be determinable: from the catalog Lang, or from a Lang on an enclosing marked-content sequence or on the structure element that owns the text.',
    test: (m) => {
      const mc = collected(m, markedContent);
      if (catalogLang(m)) return { checked: 1, failures: [] };
      return findingOutcome(mc.textWithoutLang, mc.contentItems);
    },
  },
  {
    id: 'pdfua.lang.alternate-text',
    clauses: { ua1: '7.2' },
    description:
      'The natural language of ActualText, Alt and E texts shall be determinable: from the catalog Lang, or from a Lang on the structure element (or an ancestor) or marked-content sequence carrying them.',
    test: (m) => {
      if (catalogLang(m)) return { checked: 1, failures: [] };
      const failures: Example[] = [];
      let checked = 0;
      for (const e of structTree(m).elements) {
        for (const [key, read] of ALTERNATE_TEXTS) {
          if (read(e) === undefined) continue;
          checked++;
          if (!elementHasLang(e)) failures.push(elemExample(e, `${key} with no Lang on the element or its ancestors`));
        }
      }
      const spans = collected(m, markedContent).spanTextWithoutLang;
      for (const f of [spans.ActualText, spans.Alt, spans.E]) {
        const o = findingOutcome(f, 0);
        checked += o.checked;
        failures.push(...o.failures);
      }
      return { checked, failures };
    },
  },
  {
    id: 'pdfua.lang.annotation-contents',
    clauses: { ua1: '7.2' },
    description: 'The natural language of an annotation\'s Contents shall be determinable: from a Lang on the annotation, on its structure element, or in the catalog.',
    test: (m) => {
      if (catalogLang(m)) return { checked: 1, failures: [] };
      const tree = structTree(m);
      const withContents = annotations(m).filter((a) => has(a.dict, 'Contents'));
      return eachOf(
        withContents,
        (a) => {
          if (has(a.dict, 'Lang')) return true;
          // The structure element the annotation belongs to (StructParent) may carry the language.
          const sp = getNumber(a.dict, 'StructParent');
          return sp !== undefined && elementHasLang(tree.parentTree.forObject(sp));
        },
        (a) => ({ page: a.page, ...(a.objectNumber !== undefined ? { objectNumber: a.objectNumber } : {}), context: `${a.subtype ?? 'annotation'} annotation Contents with no Lang` }),
      );
    },
  },
  {
    id: 'pdfua.lang.field-tooltip',
    clauses: { ua1: '7.2' },
    description: 'The natural language of a form field\'s alternate name (TU) shall be determinable: from a Lang on the field, on the structure element of its widget, or in the catalog.',
    test: (m) => {
      if (catalogLang(m)) return { checked: 1, failures: [] };
      const tree = structTree(m);
      // A field's widgets (the field itself when merged) belong to structure elements through StructParent.
      const elementLang = (d: PDFDict): boolean => {
        const sp = getNumber(d, 'StructParent');
        return sp !== undefined && elementHasLang(tree.parentTree.forObject(sp));
      };
      const fields = formFields(m).filter((f) => has(f, 'TU'));
      return eachOf(
        fields,
        (f) => has(f, 'Lang') || elementLang(f) || resolvedItems(m.context, f.get(name('Kids'))).some((k) => k instanceof PDFDict && elementLang(k)),
        (f) => ({ ...objectOf(m, f), context: `field ${getText(f, 'T') ?? '(unnamed)'} TU with no Lang` }),
      );
    },
  },
  {
    id: 'pdfua.lang.outline',
    clauses: { ua1: '7.2' },
    description: 'The natural language of outline (bookmark) titles shall be determinable: the catalog shall have a Lang when the document has outline items.',
    test: (m) => {
      const first = resolve(m.context, getDict(m.catalog, 'Outlines')?.get(name('First')));
      if (!(first instanceof PDFDict)) return { checked: 0, failures: [] };
      return condition(catalogLang(m), { ...objectOf(m, first), context: `outline item "${getText(first, 'Title') ?? ''}" and no catalog Lang` });
    },
  },
  {
    id: 'pdfua.lang.metadata',
    clauses: { ua1: '7.2' },
    description: 'The natural language of document metadata shall be determinable: the catalog shall have a Lang when an XMP language alternative has only an x-default item.',
    test: (m) => {
      if (!xmpDefaultOnlyAlternative(m)) return { checked: 0, failures: [] };
      return condition(catalogLang(m), { context: 'XMP language alternative with only x-default and no catalog Lang' });
    },
  },
];

function objectOf(m: ValidationModel, d: PDFDict): Example {
  const n = m.objectNumbers.of(d);
  return n !== undefined ? { objectNumber: n } : {};
}
