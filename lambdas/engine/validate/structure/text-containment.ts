/**
 * ISO 14289-1 7.2 asks that text be tagged so its logical reading is clear,
 * which ISO 32000-1 14.8.4.3 spells out for tables, lists and tables of
 * contents: which standard types may contain which. The relations are data
 * here; the rules read the structure tree's standard types (role maps applied).
 */
import { type Example, type Rule } from '../rule';
import { elemExample, structTree, type StructElem } from './struct-tree';

/** The element types a standard type must be a child of. */
const ALLOWED_PARENTS: Readonly<Record<string, readonly string[]>> = {
  TR: ['Table', 'THead', 'TBody', 'TFoot'],
  THead: ['Table'],
  TBody: ['Table'],
  TFoot: ['Table'],
  TH: ['TR'],
  TD: ['TR'],
  LI: ['L'],
  LBody: ['LI'],
  TOCI: ['TOC'],
};

/** The element types a standard type may have as children (elements only; content and objects are not judged). */
const ALLOWED_CHILDREN: Readonly<Record<string, readonly string[]>> = {
  Table: ['TR', 'THead', 'TBody', 'TFoot', 'Caption'],
  TR: ['TH', 'TD'],
  THead: ['TR'],
  TBody: ['TR'],
  TFoot: ['TR'],
  L: ['L', 'LI', 'Caption'],
  LI: ['Lbl', 'LBody'],
  TOC: ['TOC', 'TOCI', 'Caption'],
};

/** Standard types of an element's element children, in order (children without a standard type are left out). */
const childTypes = (e: StructElem): string[] => e.children.map((c) => c.standardType).filter((t): t is string => t !== undefined);
const count = (types: string[], t: string): number => types.filter((x) => x === t).length;

/** What is wrong with the sections and caption of a Table, L or TOC element (empty when nothing). */
function arrangementProblems(e: StructElem): string[] {
  const kids = childTypes(e);
  const out: string[] = [];
  const captions = kids.flatMap((t, i) => (t === 'Caption' ? [i] : []));
  if (e.standardType === 'Table') {
    if (count(kids, 'THead') > 1) out.push('more than one THead');
    if (count(kids, 'TFoot') > 1) out.push('more than one TFoot');
    if ((count(kids, 'THead') > 0 || count(kids, 'TFoot') > 0) && count(kids, 'TBody') === 0) out.push('THead or TFoot without any TBody');
    if (captions.length > 1) out.push('more than one Caption');
    if (captions.some((i) => i !== 0 && i !== kids.length - 1)) out.push('a Caption that is neither the first nor the last child');
  } else if (e.standardType === 'L' || e.standardType === 'TOC') {
    if (captions.some((i) => i !== 0)) out.push('a Caption that is not the first child');
  }
  return out;
}

export const TEXT_CONTAINMENT_RULES: readonly Rule[] = [
  {
    id: 'pdfua.nesting.parent',
    clauses: { ua1: '7.2' },
    description:
      'Table, list and table-of-contents parts shall sit in their containers: TR in Table, THead, TBody or TFoot; THead, TBody and TFoot in Table; TH and TD in TR; LI in L; LBody in LI; TOCI in TOC.',
    test: (m) => {
      const failures: Example[] = [];
      let checked = 0;
      for (const e of structTree(m).elements) {
        const allowed = e.standardType !== undefined ? ALLOWED_PARENTS[e.standardType] : undefined;
        if (!allowed) continue;
        checked++;
        const parentType = e.parent?.standardType;
        if (parentType === undefined || !allowed.includes(parentType)) {
          failures.push(elemExample(e, `inside ${e.parent ? (parentType ?? e.parent.type ?? 'an element without a standard type') : 'the structure tree root'}`));
        }
      }
      return { checked, failures };
    },
  },
  {
    id: 'pdfua.nesting.children',
    clauses: { ua1: '7.2' },
    description:
      'Tables, lists and tables of contents shall contain only their parts: Table only TR, THead, TBody, TFoot and Caption; THead, TBody and TFoot only TR; TR only TH and TD; L only L, LI and Caption; LI only Lbl and LBody; TOC only TOC, TOCI and Caption.',
    test: (m) => {
      const failures: Example[] = [];
      let checked = 0;
      for (const e of structTree(m).elements) {
        const allowed = e.standardType !== undefined ? ALLOWED_CHILDREN[e.standardType] : undefined;
        if (!allowed) continue;
        checked++;
        const wrong = [...new Set(childTypes(e).filter((t) => !allowed.includes(t)))];
        if (wrong.length) failures.push(elemExample(e, `contains ${wrong.join(', ')}`));
      }
      return { checked, failures };
    },
  },
  {
    id: 'pdfua.nesting.arrangement',
    clauses: { ua1: '7.2' },
    description:
      'A Table shall have at most one THead, one TFoot and one Caption, a TBody whenever it has a THead or TFoot, and its Caption first or last; the Caption of a list or table of contents shall be its first child.',
    test: (m) => {
      const failures: Example[] = [];
      let checked = 0;
      for (const e of structTree(m).elements) {
        if (e.standardType !== 'Table' && e.standardType !== 'L' && e.standardType !== 'TOC') continue;
        checked++;
        const problems = arrangementProblems(e);
        if (problems.length) failures.push(elemExample(e, problems.join('; ')));
      }
      return { checked, failures };
    },
  },
];
