/**
 * Requirements on particular structure types: the document root, figures and
 * formulas (alternative text), notes (IDs), headings (nesting, H versus Hn), lists
 * and links (PDF/UA-1 7.3–7.9, PDF/UA-2 8.2.5).
 */
import { PDFArray, PDFDict, PDFName } from '@cantoo/pdf-lib';
import { getDict, getName, name, resolve } from '../../core/pdf-objects';
import { condition, eachOf, type Example, type Rule } from '../rule';
import type { ValidationModel } from '../model';
import { describeElem, elemExample, NS_PDF20, structTree, type StructElem } from './struct-tree';

const ofType = (m: ValidationModel, ...types: string[]) => structTree(m).elements.filter((e) => e.standardType !== undefined && types.includes(e.standardType));

/** Heading level of a standard Hn type, or undefined. */
const headingLevel = (e: StructElem) => {
  const t = e.standardType;
  return t && /^H[1-9][0-9]*$/.test(t) ? Number(t.slice(1)) : undefined;
};

/** An attribute of an owner (`Table`, `List`, …), from A or the ClassMap, A winning. */
export function attribute(e: StructElem, owner: string, key: string) {
  for (const a of e.attributes) {
    if (a.owner !== owner) continue;
    const v = a.dict.lookup(name(key));
    if (v !== undefined) return v;
  }
  return undefined;
}

export const ELEMENT_RULES: readonly Rule[] = [
  {
    id: 'pdfua.structure.document-root',
    clauses: { ua2: '8.2.5.2' },
    description: 'The structure tree root shall contain a single Document structure element as its only child.',
    test: (m) => {
      const t = structTree(m);
      if (!t.root) return { checked: 0, failures: [] };
      const kids = t.topLevel.map(describeElem);
      return condition(t.topLevel.length === 1 && t.topLevel[0]!.standardType === 'Document', { context: kids.length ? `structure root children: ${kids.join(', ')}` : 'structure root has no children' });
    },
  },
  {
    id: 'pdfua.structure.document-namespace',
    clauses: { ua2: '8.2.5.2' },
    description: 'The Document element at the root of the structure tree shall be in the PDF 2.0 namespace.',
    test: (m) => {
      const t = structTree(m);
      const doc = t.topLevel.length === 1 && t.topLevel[0]!.standardType === 'Document' ? t.topLevel[0]! : undefined;
      if (!doc) return { checked: 0, failures: [] };
      return condition(doc.standardNamespace === NS_PDF20, elemExample(doc, `namespace is ${doc.standardNamespace ?? 'not given'}, not PDF 2.0`));
    },
  },
  {
    id: 'pdfua.figure.alt',
    clauses: { ua1: '7.3', ua2: '8.2.5.28.2' },
    description: 'Every Figure structure element shall have alternative text (Alt) or replacement text (ActualText).',
    test: (m, p) => eachOf(ofType(m, 'Figure'), (e) => hasAlternative(e, p.part === 1), (e) => elemExample(e, e.alt === '' ? 'Alt is empty' : 'no Alt or ActualText')),
  },
  {
    id: 'pdfua.formula.alt',
    clauses: { ua1: '7.7' },
    description: 'Every Formula structure element shall have alternative text (Alt) or replacement text (ActualText).',
    test: (m) => eachOf(ofType(m, 'Formula'), (e) => hasAlternative(e, true), (e) => elemExample(e, e.alt === '' ? 'Alt is empty' : 'no Alt or ActualText')),
  },
  {
    id: 'pdfua.note.id',
    clauses: { ua1: '7.9' },
    description: 'Every Note structure element shall have a non-empty ID entry.',
    test: (m) => eachOf(ofType(m, 'Note'), (e) => !!e.id, (e) => elemExample(e, 'no ID')),
  },
  {
    id: 'pdfua.note.unique-id',
    clauses: { ua1: '7.9' },
    description: 'The ID of every Note structure element shall be unique.',
    test: (m) => {
      const notes = ofType(m, 'Note').filter((e) => !!e.id);
      const count = new Map<string, number>();
      for (const e of notes) count.set(e.id!, (count.get(e.id!) ?? 0) + 1);
      return eachOf(notes, (e) => count.get(e.id!) === 1, (e) => elemExample(e, `ID "${e.id}" is used by ${count.get(e.id!)} notes`));
    },
  },
  {
    id: 'pdfua.headings.nesting',
    clauses: { ua1: '7.4.2' },
    description: 'Numbered headings shall not skip levels: the first is H1 and each Hn is at most one level deeper than the heading before it.',
    test: (m) => {
      const headings = structTree(m).elements.filter((e) => headingLevel(e) !== undefined);
      const failures: Example[] = [];
      let previous = 0;
      for (const h of headings) {
        const level = headingLevel(h)!;
        if (level > previous + 1) failures.push(elemExample(h, previous === 0 ? 'first heading is not H1' : `follows H${previous}`));
        previous = level;
      }
      return { checked: headings.length, failures };
    },
  },
  {
    id: 'pdfua.headings.one-h-per-node',
    clauses: { ua1: '7.4.4' },
    description: 'A node of the structure tree shall contain at most one H (unnumbered heading) child.',
    test: (m) => {
      const t = structTree(m);
      const parents = [...t.elements.filter((e) => e.children.length > 1)];
      const topH = t.topLevel.filter((e) => e.standardType === 'H').length;
      const out = eachOf(parents, (e) => e.children.filter((c) => c.standardType === 'H').length <= 1, (e) => elemExample(e, `${e.children.filter((c) => c.standardType === 'H').length} H children`));
      if (topH > 1) out.failures.push({ context: `structure root has ${topH} H children` });
      return out;
    },
  },
  {
    id: 'pdfua.headings.h-or-hn',
    clauses: { ua1: '7.4.4' },
    description: 'A document shall use either unnumbered headings (H) or numbered headings (H1–H6), not both.',
    test: (m) => {
      const els = structTree(m).elements;
      const h = els.filter((e) => e.standardType === 'H');
      const hn = els.filter((e) => headingLevel(e) !== undefined);
      if (!h.length || !hn.length) return { checked: h.length + hn.length, failures: [] };
      return { checked: h.length + hn.length, failures: [...h, ...hn].map((e) => elemExample(e, 'H and Hn headings are mixed')) };
    },
  },
  {
    id: 'pdfua.headings.no-h',
    clauses: { ua2: '8.2.5.12' },
    description: 'The unnumbered heading type H shall not be used; headings are H1, H2, … .',
    test: (m) => eachOf(ofType(m, 'H'), () => false, (e) => elemExample(e, 'H used')),
  },
  {
    id: 'pdfua.list.numbering',
    clauses: { ua2: '8.2.5.25' },
    description: 'A list (L) whose items have labels (Lbl) shall have a ListNumbering attribute other than None.',
    test: (m) => {
      const lists = ofType(m, 'L').filter((l) => l.children.some((li) => li.standardType === 'LI' && li.children.some((c) => c.standardType === 'Lbl')));
      return eachOf(
        lists,
        (l) => {
          const v = attribute(l, 'List', 'ListNumbering');
          return v instanceof PDFName && v.decodeText() !== 'None';
        },
        (l) => elemExample(l, 'labelled list without ListNumbering (or None)'),
      );
    },
  },
  {
    id: 'pdfua.link.one-target',
    clauses: { ua2: '8.2.5.20' },
    description: 'Link annotations that go to different targets shall be in separate Link or Reference structure elements.',
    test: (m) => {
      const links = ofType(m, 'Link', 'Reference');
      const targets = (e: StructElem) => {
        const set = new Set<string>();
        for (const k of e.kids) {
          if (k.kind !== 'objr' || !(k.object instanceof PDFDict) || getName(k.object, 'Subtype') !== 'Link') continue;
          set.add(linkTarget(m, k.object));
        }
        return set;
      };
      return eachOf(links, (e) => targets(e).size <= 1, (e) => elemExample(e, `link annotations to ${targets(e).size} different targets`));
    },
  },
];

/** UA-1 (after veraPDF and ISO 14289-1 7.3) does not accept an empty Alt; UA-2 asks only that one be present. */
function hasAlternative(e: StructElem, nonEmptyAlt: boolean): boolean {
  if (e.actualText !== undefined) return true;
  return e.alt !== undefined && (!nonEmptyAlt || e.alt !== '');
}

/** A comparable description of where a link annotation goes (URI, named or explicit destination). */
function linkTarget(m: ValidationModel, annot: PDFDict): string {
  const a = getDict(annot, 'A');
  const dest = resolve(m.context, (a ? a.get(name('D')) : undefined) ?? annot.get(name('Dest')));
  const uri = a?.lookup(name('URI'));
  if (uri !== undefined) return `uri:${String(uri)}`;
  // A structure destination (PDF 2.0 SD) names the target more precisely than the page destination beside it.
  const sd = resolve(m.context, a?.get(name('SD')));
  if (sd instanceof PDFArray) return `sd:${sd.asArray().map(String).join(' ')}`;
  if (dest instanceof PDFArray) {
    const page = dest.get(0);
    return `dest:${String(page)}:${dest.asArray().slice(1).map(String).join(' ')}`;
  }
  if (dest !== undefined) return `named:${String(dest)}`;
  if (a) return `action:${getName(a, 'S') ?? '?'}:${a.toString()}`;
  return 'none';
}
