/**
 * Which pages bleed.mirror can give bleed: those whose TrimBox lies within
 * their MediaBox. A TrimBox reaching beyond the MediaBox states a finished
 * size larger than the page (realworld/pdfjs/issue1155r.pdf: an A4 MediaBox
 * with a TrimBox eight times as large); growing the page to that TrimBox plus
 * bleed would change what prints as the finished page, so the fix leaves such
 * a page alone and the bleed.insufficient check does not offer it
 * (boxes.trimbox-outside-mediabox reports the contradiction). Nor can it
 * give bleed to a page whose own content streams do not decode: it rewrites
 * them to draw the mirrored copies (realworld/pdfjs/PDFBOX-4352-0.pdf,
 * bomb_giant.pdf).
 */
import type { PageInventory } from '../core/interpret/types';
import { contains, type Rect } from '../core/page-boxes';

/** Within a tenth of a point, as the box checks judge containment. */
const TOLERANCE = 0.1;

export function bleedMirrorReaches(media: Rect, trim: Rect): boolean {
  return contains(media, trim, TOLERANCE);
}

/** Whether the content interpreter could decode the page's own content streams (interpret-document.ts names them so). */
export function pageContentDecodes(limits: PageInventory['limits']): boolean {
  return !limits.some((l) => l.limit === 'undecodable-content' && l.detail.startsWith('the page content stream'));
}

/** What bleed.mirror says of a page it cannot reach. */
export const TRIM_BEYOND_MEDIA = 'its TrimBox extends beyond its MediaBox, so its finished size is unclear (boxes.trimbox-outside-mediabox)';
