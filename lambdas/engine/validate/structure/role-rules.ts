/**
 * Structure types and role mapping (PDF/A level a 6.8.3.4 / 6.7.3.4, PDF/UA-1 7.1,
 * PDF/UA-2 8.2.4), and the structure elements' parent links (UA-1 7.1, UA-2 8.2.1).
 * Reads the tree from struct-tree.ts.
 */
import { name } from '../../core/pdf-objects';
import { eachOf, type Rule } from '../rule';
import { elemExample, isStandardIn, NS_PDF17, structTree, type StructElem } from './struct-tree';

const chainText = (e: StructElem) => e.mapping.chain.join(' → ') || '(no S)';

/** Non-standard elements: their own type is not a standard type (of their namespace). */
const nonStandard = (e: StructElem) => e.type !== undefined && !isStandardIn(e.namespace ?? NS_PDF17, e.type);

export const ROLE_RULES: readonly Rule[] = [
  {
    id: 'structure.types.mapped',
    clauses: { 1: '6.8.3.4', 2: '6.7.3.4', 3: '6.7.3.4', ua1: '7.1' },
    levels: ['a', ''],
    description: 'Every structure type that is not a standard structure type shall be role-mapped, through the structure tree root\'s RoleMap, to a standard structure type (ISO 32000-1 14.8.4).',
    test: (m) => {
      const els = structTree(m).elements.filter((e) => e.type !== undefined && nonStandard(e));
      return eachOf(els, (e) => e.standardType !== undefined || e.mapping.circular, (e) => elemExample(e, `${chainText(e)} does not reach a standard type`));
    },
  },
  {
    id: 'structure.types.namespace',
    clauses: { ua2: '8.2.4' },
    description: 'Every structure element shall belong to, or be role-mapped to, the PDF 1.7, PDF 2.0 or MathML namespace; an element that names the PDF 1.7 or PDF 2.0 namespace shall use one of that namespace\'s types.',
    test: (m) => {
      const els = structTree(m).elements.filter((e) => e.type !== undefined);
      return eachOf(els, (e) => e.standardType !== undefined || e.mapping.circular, (e) => elemExample(e, `${chainText(e)} does not reach a standard namespace`));
    },
  },
  {
    id: 'structure.types.circular',
    clauses: { 1: '6.8.3.4', 2: '6.7.3.4', 3: '6.7.3.4', ua1: '7.1', ua2: '8.2.4' },
    levels: ['a', ''],
    description: 'Role mapping shall not be circular: following the role map from a structure type shall never lead back to a type already visited.',
    test: (m, p) => {
      // PDF/A judges circularity for non-standard types only; PDF/UA for every element.
      const els = structTree(m).elements.filter((e) => e.type !== undefined && (p.family === 'pdfua' || nonStandard(e)));
      return eachOf(els, (e) => !e.mapping.circular, (e) => elemExample(e, `circular role mapping ${chainText(e)}`));
    },
  },
  {
    id: 'structure.types.standard-remapped',
    clauses: { 2: '6.7.3.4', 3: '6.7.3.4', ua1: '7.1', ua2: '8.2.4' },
    levels: ['a', ''],
    description: 'A standard structure type shall not be role-mapped to another type.',
    test: (m) => eachOf(structTree(m).elements, (e) => !e.mapping.remapsStandard, (e) => elemExample(e, `standard type remapped: ${chainText(e)}`)),
  },
  {
    id: 'pdfua.structure.same-namespace-mapping',
    clauses: { ua2: '8.2.4' },
    description: 'Within an explicitly given namespace, a structure type shall not be role-mapped to another type of the same namespace.',
    test: (m) => eachOf(structTree(m).elements, (e) => !e.mapping.sameNamespace, (e) => elemExample(e, `maps within its own namespace: ${chainText(e)}`)),
  },
  {
    id: 'pdfua.structure.parent-entry',
    clauses: { ua1: '7.1', ua2: '8.2.1' },
    description: 'Every structure element dictionary shall contain the P (parent) entry.',
    test: (m) => eachOf(structTree(m).elements, (e) => e.dict.has(name('P')), (e) => elemExample(e, 'no P (parent) entry')),
  },
];
