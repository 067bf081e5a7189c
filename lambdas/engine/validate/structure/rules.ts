/**
 * Logical structure: tagging, structure types and role maps, alternative text, headings, tables, natural language (PDF/A level a, PDF/UA).
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 */
import { PDFArray, PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import { getDict, getName, name, resolve, resolvedItems } from '../../core/pdf-objects';
import { condition, type Rule } from '../rule';

const LANG_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/;

export const STRUCTURE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.tagged.marked',
    clauses: { 1: '6.8.2.2', 2: '6.7.2.2', 3: '6.7.2.2' },
    levels: ['a'],
    description: 'The document catalog shall include a MarkInfo dictionary whose Marked entry is true.',
    test: (f) => condition(f.facts.markInfo?.marked === true, { context: f.facts.markInfo ? 'MarkInfo Marked is not true' : 'catalog has no MarkInfo' }),
  },
  {
    id: 'pdfa.tagged.structure',
    clauses: { 1: '6.8.3.3', 2: '6.7.3.3', 3: '6.7.3.3' },
    levels: ['a'],
    description: 'The logical structure shall be described by a structure hierarchy rooted in the catalog\'s StructTreeRoot.',
    test: (f) => condition(f.facts.structTreeRoot, { context: 'catalog has no StructTreeRoot' }),
  },
  {
    id: 'pdfa.lang.valid',
    clauses: { 1: '6.8.4', 2: '6.7.4', 3: '6.7.4' },
    levels: ['a'],
    description: 'A Lang entry in the document catalog shall be a language identifier (RFC 3066 / BCP 47). (Proofline checks the catalog\'s Lang only.)',
    test: (f) => condition(f.facts.lang === null || f.facts.lang === '' || /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/.test(f.facts.lang), { context: `Lang is "${f.facts.lang}"` }),
  },
  {
    id: 'pdfua.tagged.marked',
    clauses: { ua1: '6.2', ua2: '6.2' },
    description: 'The document catalog shall include a MarkInfo dictionary whose Marked entry is true.',
    test: (f) => condition(f.facts.markInfo?.marked === true, { context: f.facts.markInfo ? 'MarkInfo Marked is not true' : 'catalog has no MarkInfo' }),
  },
  {
    id: 'pdfua.tagged.suspects',
    clauses: { ua1: '7.1' },
    description: 'The MarkInfo Suspects entry shall not be true.',
    test: (f) => condition(f.facts.markInfo?.suspects !== true, { context: 'MarkInfo Suspects is true' }),
  },
  {
    id: 'pdfua.tagged.structure',
    clauses: { ua1: '7.1', ua2: '8.2.1' },
    description: 'The logical structure shall be described by a structure hierarchy rooted in the catalog\'s StructTreeRoot.',
    test: (f) => condition(f.facts.structTreeRoot, { context: 'catalog has no StructTreeRoot' }),
  },
  {
    id: 'pdfua.structure.document-root',
    clauses: { ua2: '8.2.5.2' },
    description: 'The structure tree root shall contain a single Document structure element as its only child.',
    test: (f) => {
      const kids = rootKidTypes(f.doc);
      return condition(kids.length === 1 && kids[0] === 'Document', { context: kids.length ? `structure root children: ${kids.join(', ')}` : 'structure root has no children' });
    },
  },
  {
    id: 'pdfua.display-doc-title',
    clauses: { ua1: '7.1', ua2: '8.11.2' },
    description: 'The catalog\'s ViewerPreferences shall contain DisplayDocTitle with the value true.',
    test: (f) => condition(f.facts.displayDocTitle === true, { context: f.facts.displayDocTitle === null ? 'DisplayDocTitle is not set' : 'DisplayDocTitle is false' }),
  },
  {
    id: 'pdfua.lang.present',
    clauses: { ua1: '7.2', ua2: '8.4.4' },
    description: 'The default natural language shall be given by a non-empty Lang entry in the document catalog. (Proofline does not yet accept languages set only on structure elements.)',
    test: (f) => condition(!!f.facts.lang, { context: 'catalog has no Lang' }),
  },
  {
    id: 'pdfua.lang.valid',
    clauses: { ua1: '7.2', ua2: '8.4.4' },
    description: 'A Lang entry in the document catalog shall be a language identifier (BCP 47). (Proofline checks the catalog\'s Lang only.)',
    test: (f) => condition(f.facts.lang === null || LANG_TAG.test(f.facts.lang), { context: `Lang is "${f.facts.lang}"` }),
  },
];

/** Standard types of the structure root's children (RoleMap applied once). */
function rootKidTypes(doc: PDFDocument): string[] {
  const ctx = doc.context;
  const root = getDict(doc.catalog as PDFDict, 'StructTreeRoot');
  if (!root) return [];
  const roleMap = getDict(root, 'RoleMap');
  const k = resolve(ctx, root.get(name('K')));
  const kids = k instanceof PDFArray ? resolvedItems(ctx, k) : k ? [k] : [];
  return kids
    .filter((kid): kid is PDFDict => kid instanceof PDFDict)
    .map((kid) => {
      const s = getName(kid, 'S') ?? '?';
      return getName(roleMap, s) ?? s;
    });
}
