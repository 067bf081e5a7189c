/**
 * The rules of the tagged-content and natural-language area (PDF/A level a,
 * PDF/UA), gathered for the registry (rules.ts imports LANGUAGE_RULES):
 *   language-values.ts   Lang values are language tags; UA-2 catalog Lang
 *   language-text.ts     the language of every text is determinable (UA-1 7.2)
 *   tagged-content.ts    content is tagged or an artifact (UA-1 7.1, UA-2 8.2.2)
 *   text-containment.ts  UA-1 7.2 table, list and TOC nesting
 */
import type { Rule } from '../rule';
import { TEXT_LANGUAGE_RULES } from './language-text';
import { LANG_VALUE_RULES } from './language-values';
import { TAGGED_CONTENT_RULES } from './tagged-content';
import { TEXT_CONTAINMENT_RULES } from './text-containment';

export const LANGUAGE_RULES: readonly Rule[] = [...LANG_VALUE_RULES, ...TEXT_LANGUAGE_RULES, ...TAGGED_CONTENT_RULES, ...TEXT_CONTAINMENT_RULES];
