/** Fixes of annotations, forms, attachments and layers (catalogue entries; implementations in autofix/interactive/). */
import type { FixInfo } from './types';

export const INTERACTIVE_FIXES: FixInfo[] = [];
