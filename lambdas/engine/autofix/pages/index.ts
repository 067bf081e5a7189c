/** The implementations of the pages fixes (fix-catalogue/pages.ts describes them), by fix id. */
import type { Fix } from '../fix';

export const PAGE_FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {};
