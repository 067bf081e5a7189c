/** Fixes of page geometry, applied before the boxes are normalised (catalogue entries; implementations in autofix/pages/). */
import { fix, type FixInfo } from './types';

export const PAGE_FIXES: FixInfo[] = [
  fix({
    id: 'pages.unrotate',
    name: 'Bake page rotation in',
    description:
      'Turns the content, page boxes and annotations of a page with a /Rotate entry so the page looks the same without one; an invalid rotation (not a multiple of 90) is removed, as viewers ignore it.',
    resolves: [],
    appearance: 'none',
  }),
  fix({
    id: 'pages.scale-to-trim',
    name: 'Scale pages to the ordered size',
    description:
      'Scales each page whose finished size (TrimBox, else CropBox) differs from the ordered artwork size, uniformly and centred, so the whole artwork fits the ordered size in the page\'s orientation; the boxes are scaled with it and the TrimBox set to the ordered size. Needs the order\'s artwork size.',
    resolves: ['artwork.size-mismatch'],
    params: [
      { name: 'tolerance_mm', type: 'number', default: 1, min: 0, max: 20, description: 'Pages within this many millimetres of the ordered size (either orientation) are left alone.' },
      { name: 'maxScalePercent', type: 'number', default: 200, min: 100, max: 1000, description: 'Largest enlargement allowed, in percent; the same ratio bounds reduction (200: between 50% and 200%). Pages needing more are left alone.' },
    ],
    // It scales the page as it is shown, which pages.unrotate makes the page's own geometry.
    runsAfter: ['pages.unrotate'],
    appearance: 'intended',
  }),
  fix({
    id: 'pages.pad-to-multiple',
    name: 'Pad the page count',
    description:
      'Appends blank pages with the size and boxes of the last page until the page count is a multiple of the given number (4 for booklets). The ordered page-count range is a different matter, so this resolves no check.',
    resolves: [],
    params: [{ name: 'multiple', type: 'number', default: 4, min: 2, max: 64, description: 'The page count becomes a multiple of this.' }],
    // Blank pages copy the last page's size and boxes, so those must be final first.
    runsAfter: ['pages.unrotate', 'pages.scale-to-trim', 'boxes.normalize', 'bleed.mirror'],
    appearance: 'intended',
  }),
];

/** Fixes that need the final TrimBox and BleedBox, so run after boxes.normalize. */
export const BLEED_FIXES: FixInfo[] = [
  fix({
    id: 'bleed.mirror',
    name: 'Add mirrored bleed',
    description:
      'Paints the page mirrored across the trim edge into the bleed area on each side where no content reaches beyond the TrimBox (glyphs left out); with the ordered bleed (else bleed_mm) the page grows to hold it when it has no room. Inside the TrimBox the page prints as before.',
    resolves: ['bleed.insufficient'],
    printsSameInsideTrim: true,
    params: [{ name: 'bleed_mm', type: 'number', default: 3, min: 0, max: 20, description: 'Bleed to make room for, in mm, when the order states none (the preflight profiles require 3 mm).' }],
    // It mirrors across the final TrimBox into the final BleedBox.
    runsAfter: ['pages.unrotate', 'pages.scale-to-trim', 'boxes.normalize'],
    appearance: 'intended',
  }),
];
