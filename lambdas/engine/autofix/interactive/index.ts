/** The implementations of the interactive fixes (fix-catalogue/interactive.ts describes them), by fix id. */
import type { Fix } from '../fix';

export const INTERACTIVE_FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {};
