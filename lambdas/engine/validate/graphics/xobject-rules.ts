/**
 * Form, reference and PostScript XObjects (PDF/A-1 6.2.5–6.2.7, PDF/A-2/3
 * 6.2.9.1–6.2.9.3, PDF/A-4 6.2.8.1–6.2.8.2, PDF/UA-1 7.20): a form shall not
 * carry OPI or PostScript (PS, Subtype2 PS), no form shall be a reference
 * XObject (Ref), and no XObject shall be a PostScript XObject (Subtype PS).
 */
import { name, getName } from '../../core/pdf-objects';
import { eachOf, type Example, type Rule } from '../rule';
import type { StandardProfile } from '../profiles';
import { graphicsObjects, type Found } from './graphics-objects';
import { collected } from '../content-pass';
import { graphicsUse } from './graphics-use';

const ex = (f: Found<unknown>, context: string): Example => ({ ...(f.pages[0] !== undefined ? { page: f.pages[0] } : {}), ...(f.objectNumber !== undefined ? { objectNumber: f.objectNumber } : {}), context });
const formName = (f: Found<unknown>) => `form XObject${f.objectNumber !== undefined ? ` ${f.objectNumber}` : ''}`;

export const XOBJECT_RULES: readonly Rule[] = [
  {
    id: 'pdfa.form.postscript',
    clauses: { 1: '6.2.5', 2: '6.2.9.1', 3: '6.2.9.1' },
    description: (p: StandardProfile) =>
      p.part === 1
        ? 'A form XObject shall not contain PostScript: no PS key and no Subtype2 with the value PS.'
        : 'A form XObject shall not contain OPI, PostScript (PS) or a Subtype2 with the value PS.',
    test: (m, p) =>
      eachOf(
        graphicsObjects(m).forms,
        (f) => {
          const d = f.obj.dict;
          // PDF/A-1 judges OPI on forms with images (6.2.4, pdfa.image.opi).
          return !d.has(name('PS')) && getName(d, 'Subtype2') !== 'PS' && (p.part === 1 || !d.has(name('OPI')));
        },
        (f) => {
          const d = f.obj.dict;
          const what = [d.has(name('OPI')) && p.part !== 1 ? 'OPI' : '', d.has(name('PS')) ? 'PS' : '', getName(d, 'Subtype2') === 'PS' ? 'Subtype2 PS' : ''].filter(Boolean).join(', ');
          return ex(f, `${formName(f)} has ${what}`);
        },
      ),
  },
  {
    id: 'pdfa.form.opi',
    clauses: { 4: '6.2.8.1' },
    description: 'A form XObject shall not contain OPI.',
    test: (m) => eachOf(graphicsObjects(m).forms, (f) => !f.obj.dict.has(name('OPI')), (f) => ex(f, `${formName(f)} has OPI`)),
  },
  {
    id: 'graphics.reference-xobject',
    clauses: { 1: '6.2.6', 2: '6.2.9.2', 3: '6.2.9.2', 4: '6.2.8.2', ua1: '7.20' },
    description: 'The file shall not contain reference XObjects (a form XObject with a Ref entry).',
    test: (m) => eachOf(graphicsObjects(m).forms, (f) => !f.obj.dict.has(name('Ref')), (f) => ex(f, `${formName(f)} is a reference XObject`)),
  },
  {
    id: 'pdfua.form.unique-structure-parent',
    clauses: { ua1: '7.20' },
    description:
      'A form XObject whose content belongs to the structure tree (it has StructParents) shall be painted only once, so each of its marked-content sequences has one structure parent (ISO 32000-1 14.7.2).',
    test: (m) => {
      const counts = collected(m, graphicsUse).paintCounts;
      return eachOf(
        graphicsObjects(m).forms.filter((f) => f.obj.dict.has(name('StructParents'))),
        (f) => (counts.get(f.obj) ?? 0) <= 1,
        (f) => ex(f, `${formName(f)} with StructParents is painted ${counts.get(f.obj)} times`),
      );
    },
  },
  {
    id: 'pdfa.postscript-xobject',
    clauses: { 1: '6.2.7', 2: '6.2.9.3', 3: '6.2.9.3' },
    description: 'The file shall not contain PostScript XObjects (Subtype PS).',
    test: (m) =>
      eachOf(
        graphicsObjects(m).otherXObjects,
        (f) => getName(f.obj.dict, 'Subtype') !== 'PS',
        (f) => ex(f, `PostScript XObject${f.objectNumber !== undefined ? ` ${f.objectNumber}` : ''}`),
      ),
  },
];
