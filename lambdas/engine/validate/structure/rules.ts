/**
 * Logical structure: tagging, structure types and role maps, alternative text, headings, tables, natural language (PDF/A level a, PDF/UA).
 * The tree itself is read once by struct-tree.ts; rules are split by concept
 * (role-rules, element-rules, table-rules) and gathered here.
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 */
import { condition, type Rule } from '../rule';
import { ELEMENT_RULES } from './element-rules';
import { ROLE_RULES } from './role-rules';
import { TABLE_RULES } from './table-rules';
import { UA2_ELEMENT_RULES } from './ua2-element-rules';

const DOCUMENT_RULES: readonly Rule[] = [
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
    id: 'pdfua.display-doc-title',
    clauses: { ua1: '7.1', ua2: '8.11.2' },
    description: 'The catalog\'s ViewerPreferences shall contain DisplayDocTitle with the value true.',
    test: (f) => condition(f.facts.displayDocTitle === true, { context: f.facts.displayDocTitle === null ? 'DisplayDocTitle is not set' : 'DisplayDocTitle is false' }),
  },
];

export const STRUCTURE_RULES: readonly Rule[] = [...DOCUMENT_RULES, ...ROLE_RULES, ...ELEMENT_RULES, ...TABLE_RULES, ...UA2_ELEMENT_RULES];
