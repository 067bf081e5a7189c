/**
 * Content streams (PDF/A-1 6.2.10, PDF/A-2/3/4 6.2.2): only operators ISO
 * 32000 defines, even inside BX/EX compatibility sections; from PDF/A-2 on,
 * a stream that uses named resources has them in its own Resources (the
 * "explicitly associated" dictionary of ISO 32000 7.8.3): no nested stream
 * borrowing the page's, no page borrowing the page tree's; PDF/A-4 also
 * requires every name used to be defined.
 */
import { collected } from '../content-pass';
import type { ValidationModel } from '../model';
import { type Rule } from '../rule';
import { operatorUse, type ResourceUse } from './operator-use';

const where = (u: ResourceUse, m: ValidationModel) => {
  const n = u.stream ? m.objectNumbers.of(u.stream) : undefined;
  return { page: u.page, ...(n !== undefined ? { objectNumber: n } : {}) };
};

export const CONTENT_RULES: readonly Rule[] = [
  {
    id: 'pdfa.content.undefined-operator',
    clauses: { 1: '6.2.10', 2: '6.2.2', 3: '6.2.2', 4: '6.2.2' },
    description: 'A content stream shall not contain operators that ISO 32000 does not define, even between BX and EX.',
    test: (f) => {
      const unknown = collected(f, operatorUse).unknownOperators;
      return { checked: 1, failures: unknown.map((u) => ({ page: u.page, context: `operator ${JSON.stringify(u.operator)} in ${u.within} content` })) };
    },
  },
  {
    id: 'pdfa.content.inherited-resources',
    clauses: { 2: '6.2.2', 3: '6.2.2', 4: '6.2.2' },
    description: 'A content stream that uses named resources shall have them in its own Resources dictionary (a form, pattern, glyph or appearance stream shall not rely on the page\'s, nor a page on the page tree\'s).',
    test: (f) => {
      const uses = collected(f, operatorUse).inheritedResources;
      return {
        checked: 1,
        failures: uses.map((u) => ({
          ...where(u, f),
          context: u.stream ? `${u.category} /${u.name} used in a ${u.within} stream whose own Resources do not define it` : `${u.category} /${u.name} used by the page from Resources inherited through the page tree`,
        })),
      };
    },
  },
  {
    id: 'pdfa.content.undefined-resource',
    clauses: { 4: '6.2.2' },
    description: 'Every named resource a content stream uses shall be defined in the resource dictionary in effect.',
    test: (f) => {
      const uses = collected(f, operatorUse).undefinedResources;
      return { checked: 1, failures: uses.map((u) => ({ ...where(u, f), context: `${u.category} /${u.name} is not defined` })) };
    },
  },
];
