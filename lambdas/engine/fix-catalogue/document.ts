/** Fixes of the document's interactive parts: actions (catalogue entries; implementations in autofix/). */
import { fix } from './types';

export const DOCUMENT_FIXES = [
  fix({
    id: 'actions.remove',
    name: 'Remove JavaScript and launch actions',
    description:
      'Removes document JavaScript, open actions and additional actions that run JavaScript or launch programs, and such actions on annotations, form fields and bookmarks; with uri, web links too.',
    resolves: ['document.javascript'],
    params: [{ name: 'uri', type: 'boolean', default: false, description: 'Also remove web links (URI actions) from links and bookmarks.' }],
    appearance: 'none',
    output: 'whole-file',
  }),
];
