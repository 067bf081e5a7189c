/**
 * Which spot colours color.spot-to-process converts, the one answer both the
 * fix and preflight's colour.spot check (whether its finding offers the fix)
 * read: a Separation or DeviceN space whose alternate is DeviceCMYK (as
 * written, not replaced by a DefaultCMYK), not registration (`All`) and not
 * only `None`, used by text or vectors in content the content fixes rewrite
 * (content-fix-reach.ts). The fix also needs a tint transform it can evaluate
 * (autofix/content/pdf-function.ts), which only the PDF object tells.
 */
import type { ColourSpaceInfo, ColourUse } from '../core/interpret/types';
import { contentFixReaches } from './content-fix-reach';

/** Why the fix leaves a Separation or DeviceN space as it is; null when it converts it. */
export function spotLeftBecause(space: ColourSpaceInfo): string | null {
  const colorants = space.colorants ?? [];
  if (colorants.includes('All')) return 'registration colour';
  if (colorants.length > 0 && colorants.every((c) => c === 'None')) return 'paints nothing';
  if (space.base?.family !== 'DeviceCMYK' || space.base.defaulted) return `alternate space is ${space.base?.label ?? 'unknown'}, not DeviceCMYK`;
  return null;
}

/** Whether the fix converts this use of a space: a spot space it converts, painting text or vectors where it edits. */
export function spotUseConverted(use: ColourUse): boolean {
  const spot = use.space.family === 'Separation' || use.space.family === 'DeviceN';
  return spot && (use.kind === 'text' || use.kind === 'vector') && use.within.every(contentFixReaches) && spotLeftBecause(use.space) === null;
}

/** Whether a space puts down a colorant: its own colorants, or those of an Indexed space's base (an alternate does not print). */
export function usesColorant(space: ColourSpaceInfo, colorant: string): boolean {
  for (let s: ColourSpaceInfo | undefined = space, depth = 0; s && depth < 8; s = s.base, depth++) {
    if (s.colorants?.includes(colorant)) return true;
    if (s.family === 'Separation' || s.family === 'DeviceN') return false;
  }
  return false;
}
