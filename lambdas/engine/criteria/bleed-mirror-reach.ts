/**
 * Which pages bleed.mirror can give bleed: those whose TrimBox lies within
 * their MediaBox. A TrimBox reaching beyond the MediaBox states a finished
 * size larger than the page (realworld/pdfjs/issue1155r.pdf: an A4 MediaBox
 * with a TrimBox eight times as large); growing the page to that TrimBox plus
 * bleed would change what prints as the finished page, so the fix leaves such
 * a page alone and the bleed.insufficient check does not offer it
 * (boxes.trimbox-outside-mediabox reports the contradiction).
 */
import { contains, type Rect } from '../core/page-boxes';

/** Within a tenth of a point, as the box checks judge containment. */
const TOLERANCE = 0.1;

export function bleedMirrorReaches(media: Rect, trim: Rect): boolean {
  return contains(media, trim, TOLERANCE);
}

/** What bleed.mirror says of a page it cannot reach. */
export const TRIM_BEYOND_MEDIA = 'its TrimBox extends beyond its MediaBox, so its finished size is unclear (boxes.trimbox-outside-mediabox)';
