/** Fixes of page content: colour and overprint (catalogue entries; implementations in autofix/content/). */
import { fix, type FixInfo } from './types';

export const CONTENT_FIXES: FixInfo[] = [
  fix({
    id: 'color.spot-to-process',
    name: 'Convert spot colours to CMYK',
    description:
      "Paints Separation and DeviceN colours whose alternate space is DeviceCMYK in that alternate, each tint converted through the colour space's own tint transform (PDF function types 0, 2, 3 and 4), in the page content and the forms it paints, so no extra plate is needed. Spaces with another alternate (RGB, Lab, ICC-based), registration (All) and None are left and named in the detail, as are spot colours in images, shadings, patterns and annotation appearances.",
    resolves: ['colour.spot'],
    appearance: 'intended',
  }),
  fix({
    id: 'color.gray-to-k',
    name: 'Convert gray to black ink',
    description:
      'Rewrites DeviceGray fill and stroke colours in the page content and the forms it paints as DeviceCMYK black only (gray level v becomes 0/0/0/(1 − v)), which prints the same since gray is the black plate. Images, shadings, annotation appearances, patterns and soft masks are left as they are, as is gray replaced by a DefaultGray colour space. On screen the black may look slightly different, since viewers convert CMYK to RGB their own way.',
    resolves: [],
    appearance: 'intended',
  }),
  fix({
    id: 'color.richblack-small-text-to-k',
    name: 'Small rich-black text to 100 % K',
    description:
      'Paints text smaller than maxTextPt whose colour is a rich black (DeviceCMYK with K at least minK and some C, M or Y; the rule of the text.rich-black check) in 100 % K, setting the original colour again right after it, so small type prints sharp on one plate. Large text, other objects, and rich blacks in Separation, DeviceN or ICC-based spaces are left as they are.',
    resolves: ['text.rich-black'],
    params: [
      { name: 'maxTextPt', type: 'number', default: 12, min: 1, max: 72, description: 'Text smaller than this effective size (pt) is changed.' },
      { name: 'minK', type: 'number', default: 0.95, min: 0.5, max: 1, description: 'The black (K) from which a colour with some C, M or Y counts as rich black.' },
    ],
    // A spot black converted to process can become the rich black it corrects.
    runsAfter: ['color.spot-to-process'],
    appearance: 'intended',
  }),
  fix({
    id: 'overprint.white-knockout',
    name: 'Knock out white objects set to overprint',
    description:
      'Turns overprint off for white paths and text (no ink: CMYK 0/0/0/0, gray 1, RGB 1/1/1, tint 0) that are set to overprint, which would make them vanish in print, by setting an ExtGState just before each and restoring the previous state just after. White images and shadings, and annotation appearances, patterns and soft masks, are left. Screen previews do not simulate overprint and look the same; the printed page changes: the white objects appear.',
    resolves: ['overprint.white'],
    appearance: 'none',
  }),
  fix({
    id: 'overprint.black-text',
    name: 'Overprint small black text and thin black lines',
    description:
      'Sets overprint (OP, op and overprint mode 1, through an ExtGState set just before the object and the previous state restored just after) for text in 100 % K (DeviceCMYK 0/0/0/1) smaller than maxTextPt and for strokes in 100 % K thinner than maxLinePt, so misregistration leaves no white fringe around them. Screen previews look the same (they do not simulate overprint) but the separations change: the other inks are no longer knocked out under these objects. DeviceGray black is not changed; color.gray-to-k, applied first, makes it K.',
    resolves: [],
    params: [
      { name: 'maxTextPt', type: 'number', default: 12, min: 1, max: 72, description: 'Text smaller than this effective size (pt) overprints.' },
      { name: 'maxLinePt', type: 'number', default: 2, min: 0, max: 20, description: 'Strokes thinner than this width as drawn (pt) overprint.' },
    ],
    // The 100 % K text it sets to overprint includes what those fixes made 100 % K.
    runsAfter: ['color.spot-to-process', 'color.gray-to-k', 'color.richblack-small-text-to-k'],
    appearance: 'none',
  }),
];
