/** Fixes of page geometry, applied before the boxes are normalised (catalogue entries; implementations in autofix/pages/). */
import type { FixInfo } from './types';

export const PAGE_FIXES: FixInfo[] = [];

/** Fixes that need the final TrimBox and BleedBox, so run after boxes.normalize. */
export const BLEED_FIXES: FixInfo[] = [];
