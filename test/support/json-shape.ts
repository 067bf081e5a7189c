/**
 * Compares the shape of one of our JSON responses with a reference response of
 * the original service (docs/api.md §11 rule 1, "Superset"): every field path of
 * the reference must be in ours, with the same JSON type or null, and enum
 * fields must use the same spellings. Our own extra fields are fine.
 *
 * Paths name array elements `[]`. Arrays often mix kinds of element (a step's
 * outputs: files and result entries; a report's findings: one about fonts, one
 * about images), so two things must hold: every reference element is matched
 * by some element of ours (the one closest to it is reported when none is),
 * and every element of ours has the fields all reference elements share (when
 * the reference has several to tell them by). A
 * path under an array that is empty in ours cannot be compared; it is returned
 * as `unproven` for the caller to judge (a test keeps the list it accepts, with
 * why).
 */

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v as JsonType;
}

export interface ShapeOptions {
  /** Keys whose string values are enum spellings, with the values ours may take for each reference value. */
  enums?: Record<string, (referenceValue: string) => readonly string[]>;
  /** Paths (as reported) not to compare below or at, each a deliberate difference of §11 rule 2. */
  skip?: readonly string[];
  /** Paths the contract marks optional (`page?`): ours may lack them where the reference has them. */
  optional?: readonly string[];
}

export interface ShapeReport {
  /** "path: why" for each field of the reference ours lacks or types differently. */
  problems: string[];
  /** Reference paths below an array that is empty in ours. */
  unproven: string[];
}

export function compareShape(reference: unknown, ours: unknown, options: ShapeOptions = {}): ShapeReport {
  const { problems, unproven } = diff(reference, ours, '', '', options);
  return { problems: [...new Set(problems)].sort(), unproven: [...new Set(unproven)].sort() };
}

const matches = (path: string, pattern: string): boolean => path === pattern || path.endsWith(`.${pattern}`);
const below = (path: string, pattern: string): boolean => matches(path, pattern) || path.includes(`${pattern}.`) || path.includes(`${pattern}[]`);

/** The differences at and below `path` (full paths, so skip and optional patterns see where they are). */
function diff(ref: unknown, mine: unknown, path: string, key: string, options: ShapeOptions): { problems: string[]; unproven: string[] } {
  const problems: string[] = [];
  const unproven: string[] = [];
  if (options.skip?.some((s) => below(path, s))) return { problems, unproven };
  const refType = jsonType(ref);
  const myType = jsonType(mine);
  if (mine === undefined) {
    if (!options.optional?.some((o) => matches(path, o))) problems.push(`${path}: missing (the reference has ${refType})`);
    return { problems, unproven };
  }
  // null in the reference says nothing of the type; null in ours is allowed for any type.
  if (refType === 'null' || myType === 'null') return { problems, unproven };
  if (refType !== myType) return { problems: [`${path}: ${myType}, the reference has ${refType}`], unproven };
  if (refType === 'string' && options.enums?.[key]) {
    const allowed = options.enums[key]!(ref as string);
    if (!allowed.includes(mine as string)) problems.push(`${path}: "${String(mine)}" where the reference spells "${String(ref)}" (allowed: ${allowed.join(', ')})`);
    return { problems, unproven };
  }
  if (refType === 'array') {
    const refItems = ref as unknown[];
    const myItems = mine as unknown[];
    const at = `${path}[]`;
    if (refItems.length === 0) return { problems, unproven };
    if (myItems.length === 0) {
      for (const item of refItems) unproven.push(...pathsOf(item, at));
      return { problems, unproven };
    }
    for (const item of refItems) {
      const best = myItems.map((m) => diff(item, m, at, key, options)).reduce((a, b) => (b.problems.length < a.problems.length ? b : a));
      problems.push(...best.problems);
      unproven.push(...best.unproven);
    }
    // With one reference element, which of its fields every element has cannot be told.
    const shared = refItems.length > 1 ? sharedFields(refItems) : undefined;
    if (shared !== undefined) for (const m of myItems) problems.push(...diff(shared, m, at, key, options).problems);
    return { problems, unproven };
  }
  if (refType === 'object') {
    for (const [k, v] of Object.entries(ref as Record<string, unknown>)) {
      const d = diff(v, (mine as Record<string, unknown>)[k], path === '' ? k : `${path}.${k}`, k, options);
      problems.push(...d.problems);
      unproven.push(...d.unproven);
    }
  }
  return { problems, unproven };
}

/** The fields every element has, with their type; undefined unless all are objects. */
function sharedFields(items: unknown[]): Record<string, unknown> | undefined {
  if (!items.every((i) => jsonType(i) === 'object')) return undefined;
  const [first, ...rest] = items as Record<string, unknown>[];
  // Only presence and type are shared: what is inside (a step's outputs) differs from element to element.
  const bare = (v: unknown): unknown => (Array.isArray(v) ? [] : jsonType(v) === 'object' ? {} : v);
  return Object.fromEntries(Object.entries(first!).filter(([k, v]) => rest.every((r) => k in r && jsonType(r[k]) === jsonType(v))).map(([k, v]) => [k, bare(v)]));
}

/** Every field path of a value, as compareShape names them. */
export function pathsOf(value: unknown, prefix: string): string[] {
  const out = [prefix];
  if (Array.isArray(value)) for (const item of value) out.push(...pathsOf(item, `${prefix}[]`));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, prefix === '' ? k : `${prefix}.${k}`));
  return [...new Set(out)];
}
