/**
 * File structure: header, trailer, cross-reference and stream syntax,
 * implementation limits, filters, names, permissions and content stream
 * operators. Each rule is data (id, clause per standard part, levels,
 * description) plus one predicate over the model; the rules live in one file
 * per concept and are gathered here for the registry.
 */
import type { Rule } from '../rule';
import { CONTENT_RULES } from './content-rules';
import { DOCUMENT_RULES } from './document-rules';
import { FILTER_RULES } from './filter-rules';
import { LIMIT_RULES } from './limit-rules';
import { SYNTAX_RULES } from './syntax-rules';

export const FILE_STRUCTURE_RULES: readonly Rule[] = [...SYNTAX_RULES, ...LIMIT_RULES, ...FILTER_RULES, ...DOCUMENT_RULES, ...CONTENT_RULES];
