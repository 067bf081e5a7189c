/**
 * Which white objects set to overprint overprint.white-knockout turns back
 * to knockout, the one answer the fix and preflight's overprint.white check
 * (whether its finding offers the fix) read: white paths and text (white being
 * PaintSummary.white, no ink at all) in content the content fixes rewrite
 * (content-fix-reach.ts). White images and shadings are a matter of pixels and
 * are left. The fix also needs to add an ExtGState where the object is painted,
 * which a form without its own /Resources cannot take.
 */
import type { ObjectKind, Within } from '../core/interpret/types';
import { contentFixReaches } from './content-fix-reach';

export function whiteKnockoutReaches(kind: ObjectKind, within: Within): boolean {
  return (kind === 'text' || kind === 'vector') && contentFixReaches(within);
}
