/** The implementations of the standards fixes (fix-catalogue/standards.ts describes them), by fix id. */
import type { Fix } from '../fix';

export const STANDARDS_FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {};
