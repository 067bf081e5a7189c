/**
 * Interactive forms (PDF/A-1 6.9, A-2/3/4 6.4.1 and 6.4.2): a form must show
 * the appearances stored in the file, so the viewer may not be asked to
 * regenerate them (NeedAppearances), and dynamic XFA forms are not allowed.
 */
import { PDFBool } from '@cantoo/pdf-lib';
import { getDict, name } from '../../core/pdf-objects';
import { condition, type Rule } from '../rule';

export const FORM_RULES: readonly Rule[] = [
  {
    id: 'pdfa.forms.need-appearances',
    clauses: { 1: '6.9', 2: '6.4.1', 3: '6.4.1', 4: '6.4.1' },
    description: 'The NeedAppearances flag of the interactive form dictionary shall be absent or false.',
    test: (m) => {
      const v = getDict(m.catalog, 'AcroForm')?.lookup(name('NeedAppearances'));
      return condition(!(v instanceof PDFBool && v.asBoolean()), { context: 'AcroForm NeedAppearances is true' });
    },
  },
  {
    id: 'pdfa.forms.xfa',
    clauses: { 2: '6.4.2', 3: '6.4.2', 4: '6.4.2' },
    description: 'The interactive form dictionary shall not contain the XFA key (no XFA forms).',
    test: (m) => condition(!getDict(m.catalog, 'AcroForm')?.has(name('XFA')), { context: 'AcroForm has XFA' }),
  },
  {
    id: 'pdfa.forms.needs-rendering',
    clauses: { 2: '6.4.2', 3: '6.4.2', 4: '6.4.2' },
    description: 'The document catalog shall not contain the NeedsRendering key.',
    test: (m) => {
      const v = m.catalog.lookup(name('NeedsRendering'));
      // A NeedsRendering false asks for nothing; veraPDF reads a missing key as false too.
      return condition(!(v instanceof PDFBool && v.asBoolean()), { context: 'catalog NeedsRendering is true' });
    },
  },
];
