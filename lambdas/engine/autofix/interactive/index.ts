/** The implementations of the interactive fixes (fix-catalogue/interactive.ts describes them), by fix id. */
import type { Fix } from '../fix';
import { flattenAnnotations } from './annotations-flatten';
import { removeAnnotations } from './annotations-remove';
import { removeAttachments } from './attachments-remove';
import { flattenForms } from './forms-flatten';
import { flattenLayers } from './layers-flatten';

export const INTERACTIVE_FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {
  'annotations.flatten': (doc, ctx) => flattenAnnotations(doc, { links: ctx.params.links === true }),
  'forms.flatten': (doc) => flattenForms(doc),
  'annotations.remove': (doc, ctx) => removeAnnotations(doc, { keepLinks: ctx.params.keepLinks !== false, forms: ctx.params.forms === true }),
  'attachments.remove': (doc) => removeAttachments(doc),
  'layers.flatten': (doc, ctx) => flattenLayers(doc, { use: ctx.params.use === 'print' ? 'print' : 'view' }),
};
