/**
 * The fix catalogue: every fix the autofix engine implements. The order the
 * engine applies them in, whatever order a request names them in, is derived
 * from what each fix declares it runs after (`runsAfter`, fix-order.ts); where
 * nothing is declared the catalogue's order stands: page geometry first (later
 * fixes see the final pages), boxes next, then the document's interactive
 * parts, content, and metadata and standards last (they describe the file as
 * the other fixes left it).
 *
 * Each area keeps its entries in its own file; an entry appears here only when
 * its implementation exists (autofix/registry.ts), so GET /profiles never
 * promises a fix the engine does not have (a test holds the two equal).
 */
import { BOX_FIXES } from './boxes';
import { CONTENT_FIXES } from './content';
import { DOCUMENT_FIXES } from './document';
import { IMAGE_FIXES } from './images';
import { INTERACTIVE_FIXES } from './interactive';
import { BLEED_FIXES, PAGE_FIXES } from './pages';
import { STANDARDS_FIXES } from './standards';
import { applicationOrder, inApplicationOrder } from './fix-order';
import type { FixInfo, FixParamValues } from './types';

export type { FixInfo, FixParamSpec, FixParamValues } from './types';

export const FIXES: readonly FixInfo[] = [...PAGE_FIXES, ...BOX_FIXES, ...BLEED_FIXES, ...DOCUMENT_FIXES, ...INTERACTIVE_FIXES, ...CONTENT_FIXES, ...IMAGE_FIXES, ...STANDARDS_FIXES];

export function findFix(id: string): FixInfo | undefined {
  return FIXES.find((f) => f.id === id);
}

let order: string[] | undefined;
/** Every fix id in the order of application (computed once: a catalogue mistake throws here). */
export const fixApplicationOrder = (): readonly string[] => (order ??= applicationOrder(FIXES));

/** Position in the order of application; an unknown id goes last. */
export function fixOrder(id: string): number {
  const i = fixApplicationOrder().indexOf(id);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

/** The given fix ids, once each, in the order of application. */
export const orderFixes = (ids: readonly string[]): string[] => inApplicationOrder(ids, fixApplicationOrder());

/**
 * A fix's parameters: the given values where they have the right type and range,
 * else the defaults. Submission already refused bad values (a 400); records
 * outlive deployments, so the engine stays lenient.
 */
export function fixParams(info: FixInfo, given: unknown): FixParamValues {
  const raw = givenObject(given);
  const set = givenParams(info, given);
  const out: FixParamValues = {};
  for (const p of info.params) out[p.name] = set.has(p.name) ? (raw[p.name] as number | boolean | string) : p.default;
  return info.relations?.defaults ? info.relations.defaults(out, raw) : out;
}

/** The parameters the request gave a valid value for (the rest take their defaults). */
export function givenParams(info: FixInfo, given: unknown): Set<string> {
  const raw = givenObject(given);
  return new Set(info.params.filter((p) => raw[p.name] !== undefined && paramProblem(p, raw[p.name]) === null).map((p) => p.name));
}

const givenObject = (given: unknown): Record<string, unknown> => (given && typeof given === 'object' && !Array.isArray(given) ? (given as Record<string, unknown>) : {});

/** Why this combination of (valid) parameters cannot be applied, or null. */
export function fixParamsProblem(info: FixInfo, given: unknown): string | null {
  return info.relations?.problem?.(fixParams(info, given)) ?? null;
}

/** Why a value is not acceptable for the parameter, or null when it is (or is absent). */
export function paramProblem(p: FixInfo['params'][number], v: unknown): string | null {
  if (v === undefined) return null;
  if (p.type === 'number') {
    if (typeof v !== 'number' || !Number.isFinite(v)) return `${p.name} must be a number`;
    if ((p.min !== undefined && v < p.min) || (p.max !== undefined && v > p.max)) return `${p.name} must be between ${p.min ?? '-∞'} and ${p.max ?? '∞'}`;
    return null;
  }
  if (p.type === 'boolean') return typeof v === 'boolean' ? null : `${p.name} must be true or false`;
  if (typeof v !== 'string') return `${p.name} must be a string`;
  if (p.values && !p.values.includes(v)) return `${p.name} must be one of ${p.values.join(', ')}`;
  return null;
}
