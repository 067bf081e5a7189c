/**
 * Natural language, part 1: where Lang entries are and whether their values are
 * language tags (ISO 32000-1 14.9.2). A Lang may sit on the catalog, on any
 * structure element and on any marked-content property list; PDF/A level a and
 * PDF/UA judge every one of them, not only the catalog's.
 */
import { collected } from '../content-pass';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Example, type Rule } from '../rule';
import { markedContent } from './marked-content';
import { elemExample, structTree } from './struct-tree';

/** RFC 3066 / BCP 47 language tag shape: primary subtag of letters, subtags of letters and digits. */
export const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/;
/** PDF/A-1 cites RFC 1766, whose subtags are letters only. */
export const RFC1766_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z]{1,8})*$/;

export interface LangEntry {
  value: string;
  example: Example;
}

/** Every Lang value of the catalog, structure elements and property lists met in content. */
export const langEntries = fact('lang-entries', (m): LangEntry[] => {
  const out: LangEntry[] = [];
  if (m.facts.lang !== null) out.push({ value: m.facts.lang, example: { context: `catalog Lang "${m.facts.lang}"` } });
  for (const e of structTree(m).elements) if (e.lang !== undefined) out.push({ value: e.lang, example: elemExample(e, `Lang "${e.lang}"`) });
  for (const p of collected(m, markedContent).propertyLangs) out.push({ value: p.value, example: p.example });
  return out;
});

/** The catalog declares a default language (a non-empty Lang). */
export const catalogLang = (m: ValidationModel): boolean => !!m.facts.lang;

export const LANG_VALUE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.lang.valid',
    clauses: { 1: '6.8.4', 2: '6.7.4', 3: '6.7.4' },
    levels: ['a'],
    description: (p) =>
      `Every Lang entry (document catalog, structure elements, marked-content property lists) shall be a language identifier as defined by ${p.part === 1 ? 'RFC 1766' : 'RFC 3066'}, or empty for an unknown language.`,
    test: (m, p) => {
      const shape = p.part === 1 ? RFC1766_TAG : LANGUAGE_TAG;
      return eachOf(langEntries(m), (l) => l.value === '' || shape.test(l.value), (l) => l.example);
    },
  },
  {
    id: 'pdfua.lang.valid',
    clauses: { ua1: '7.2', ua2: '8.4.4' },
    description: 'Every Lang entry (document catalog, structure elements, marked-content property lists) shall be a language tag as defined by BCP 47 (RFC 3066).',
    test: (m) => eachOf(langEntries(m), (l) => LANGUAGE_TAG.test(l.value), (l) => l.example),
  },
  {
    id: 'pdfua.lang.catalog',
    clauses: { ua2: '8.4.4' },
    description: 'The default natural language shall be given by a non-empty Lang entry in the document catalog.',
    test: (m) => ({ checked: 1, failures: catalogLang(m) ? [] : [{ context: m.facts.lang === '' ? 'catalog Lang is empty' : 'catalog has no Lang' }] }),
  },
];
