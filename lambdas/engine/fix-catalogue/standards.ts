/** Fixes of metadata and of PDF/A and PDF/X conformance, applied last (catalogue entries; implementations in autofix/standards/). */
import type { FixInfo } from './types';

export const STANDARDS_FIXES: FixInfo[] = [];
