/** Fixes of page boxes (catalogue entries; implementations in autofix/). */
import { fix } from './types';

export const BOX_FIXES = [
  fix({
    id: 'boxes.normalize',
    name: 'Normalise page boxes',
    description:
      'Adds a missing TrimBox (from the ordered artwork size centred on the page, else the CropBox, the ArtBox when it lies on the page, or the MediaBox), sets the BleedBox to the TrimBox grown by the ordered bleed (or keeps it) within the MediaBox, and sets the CropBox to the MediaBox.',
    resolves: ['boxes.trimbox-missing', 'boxes.bleedbox-outside-mediabox', 'boxes.inconsistent', 'bleed.insufficient'],
    // The boxes it sets are those of the page as finally turned and scaled.
    runsAfter: ['pages.unrotate', 'pages.scale-to-trim'],
    appearance: 'none',
  }),
];
