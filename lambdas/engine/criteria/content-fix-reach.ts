/**
 * What the content fixes (autofix/content/, through content-edit.ts) can
 * rewrite: the page's own content and the form XObjects it paints. Annotation
 * appearances, tiling patterns, Type 3 glyph procedures and soft masks are
 * never edited (a soft mask's gray is luminosity, not ink; a glyph's colour is
 * the text's). A check whose finding recommends a content fix calls a case in
 * them not fixable, so the finding never promises what the fix cannot do.
 */
import type { Within } from '../core/interpret/types';

export function contentFixReaches(within: Within): boolean {
  return within === 'page' || within === 'form';
}
