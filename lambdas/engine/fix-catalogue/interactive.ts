/** Fixes of annotations, forms, attachments and layers (catalogue entries; implementations in autofix/interactive/). */
import { fix, type FixInfo } from './types';

export const INTERACTIVE_FIXES: FixInfo[] = [
  fix({
    id: 'annotations.flatten',
    name: 'Flatten annotations',
    description:
      'Draws each annotation that prints (Print flag set, not Hidden or NoView) into the page content from its own appearance, placed where readers place it, and removes it; annotations that never print are removed. Printing annotations without an appearance, print-only ones and NoRotate ones on rotated pages are left and counted. Links stay unless links is set; form fields are left to forms.flatten.',
    resolves: ['annotations.in-trim'],
    params: [{ name: 'links', type: 'boolean', default: false, description: 'Also remove link annotations (drawing their appearance when they have one that prints).' }],
    appearance: 'intended',
    output: 'whole-file',
  }),
  fix({
    id: 'forms.flatten',
    name: 'Flatten form fields',
    description:
      "Draws what each printing form field shows (its existing appearance) into the page content, then removes the widgets, the form (and any XFA form) and the usage rights that covered it. Nothing is regenerated; the detail says when the form asked readers to regenerate appearances or a field had none.",
    resolves: ['document.forms'],
    appearance: 'intended',
    output: 'whole-file',
  }),
  fix({
    id: 'annotations.remove',
    name: 'Remove annotations',
    description:
      'Removes annotations without drawing them, with the references to them (page annotation lists, structure tree). Links stay unless keepLinks is false; form fields stay unless forms is true, in which case the field tree is pruned to match.',
    resolves: ['annotations.in-trim'],
    params: [
      { name: 'keepLinks', type: 'boolean', default: true, description: 'Keep link annotations (they print nothing and keep the file navigable).' },
      { name: 'forms', type: 'boolean', default: false, description: 'Also remove form field widgets and the fields left without them (forms.flatten keeps what they show instead).' },
    ],
    appearance: 'intended',
    output: 'whole-file',
  }),
  fix({
    id: 'attachments.remove',
    name: 'Remove embedded files',
    description:
      'Removes embedded files: the document attachment list, file attachment annotations and associated files (AF) of the document, pages and other objects. A file attachment icon that prints is drawn into the page first, so the page prints as before; icons that only show on screen go with their annotation.',
    resolves: ['document.embedded-files'],
    appearance: 'none',
    output: 'whole-file',
  }),
  fix({
    id: 'layers.flatten',
    name: 'Flatten layers',
    description:
      'Keeps what the default layer configuration shows and removes the rest: content of hidden layers comes out of the content streams, objects and annotations in hidden layers are dropped, and the layer definitions and references go. The page looks as it did in the default view.',
    resolves: ['document.layers'],
    params: [
      { name: 'use', type: 'string', default: 'view', values: ['view', 'print'], description: 'Which default state decides: what readers show (view) or what they print (print), where a layer says they differ.' },
    ],
    appearance: 'none',
    output: 'whole-file',
  }),
];
