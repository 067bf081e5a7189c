/**
 * Graphics other than colour: transparency, images, XObjects, ExtGState
 * (rendering intents, halftones, transfer functions), content operators.
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 */
import type { ValidationModel } from '../model';
import { eachOf, type Rule } from '../rule';

export const GRAPHICS_RULES: readonly Rule[] = [
  {
    id: 'pdfa.transparency.soft-mask',
    clauses: { 1: '6.4' },
    description: 'Soft masks shall not be used: an ExtGState SMask shall be None and XObjects shall not have an SMask.',
    test: (f) => transparencyCheck(f, (t) => t.softMask === null || t.softMask === 'None', (t) => `${t.kind === 'extgstate' ? 'graphics state' : 'XObject'} uses a soft mask`),
  },
  {
    id: 'pdfa.transparency.group',
    clauses: { 1: '6.4' },
    description: 'No form XObject or page shall have a transparency group (Group with S Transparency).',
    test: (f) => transparencyCheck(f, (t) => t.group !== 'Transparency', (t) => `${t.kind === 'page-group' ? 'page' : 'form XObject'} has a transparency group`),
  },
  {
    id: 'pdfa.transparency.alpha',
    clauses: { 1: '6.4' },
    description: 'Constant alpha (CA and ca in an ExtGState) shall be 1.0.',
    test: (f) =>
      transparencyCheck(f, (t) => t.kind !== 'extgstate' || ((t.fillAlpha ?? 1) === 1 && (t.strokeAlpha ?? 1) === 1), (t) => `graphics state sets alpha (ca ${t.fillAlpha ?? 1}, CA ${t.strokeAlpha ?? 1})`),
  },
  {
    id: 'pdfa.transparency.blend-mode',
    clauses: { 1: '6.4' },
    description: 'A blend mode (BM in an ExtGState) shall be Normal or Compatible.',
    test: (f) => transparencyCheck(f, (t) => t.blendModes.every((m) => m === 'Normal' || m === 'Compatible'), (t) => `graphics state uses blend mode ${t.blendModes.join(', ')}`),
  },
];


function transparencyCheck(f: ValidationModel, ok: (t: ValidationModel['transparency'][number]) => boolean, context: (t: ValidationModel['transparency'][number]) => string) {
  return eachOf(f.transparency, ok, (t) => ({ page: t.pages[0], ...(t.objectNumber ? { objectNumber: t.objectNumber } : {}), context: context(t) }));
}
