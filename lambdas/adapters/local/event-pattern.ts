/**
 * EventBridge event-pattern matching for the local event bus, so a rule's
 * pattern (step-definitions/events.ts) routes events locally exactly as the
 * cloud rule does. Covers the subset of the pattern language a rule of ours may
 * use: exact values (strings, numbers, booleans, null), nested objects, and the
 * `prefix`, `suffix`, `anything-but` (value, list, or `{ prefix }`/`{ suffix }`),
 * `exists` and `numeric` matchers. Anything else is refused when the rule is
 * registered, so a pattern can never silently match differently here than in
 * the cloud.
 *
 * Semantics follow EventBridge (and its event-ruler library):
 * - every field named by the pattern must match (AND); the values listed for one
 *   field are alternatives (OR);
 * - a pattern field matches leaf values only: an event field that is an object
 *   offers no value (so `exists: false` matches it, `exists: true` does not);
 * - when the event value is an array, the field matches when any element does;
 *   a nested pattern under an array of objects must match within one element;
 * - `anything-but`, `prefix`, `numeric` never match an absent field; `null` and
 *   `""` are different values; numbers compare by value (`300` = `3.0e2`).
 */
export type EventPattern = { [field: string]: EventPattern | readonly PatternValue[] };
export type PatternValue = string | number | boolean | null | PatternMatcher;
export type PatternMatcher =
  | { prefix: string }
  | { suffix: string }
  | { 'anything-but': string | number | readonly (string | number)[] | { prefix: string } | { suffix: string } }
  | { exists: boolean }
  | { numeric: readonly (string | number)[] };

type Leaf = string | number | boolean | null;

export class InvalidEventPatternError extends Error {
  constructor(message: string) {
    super(`Invalid event pattern: ${message}`);
    this.name = 'InvalidEventPatternError';
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws InvalidEventPatternError unless the pattern uses only what matchEventPattern understands. */
export function validateEventPattern(pattern: unknown, path = ''): asserts pattern is EventPattern {
  if (!isPlainObject(pattern)) throw new InvalidEventPatternError(`${path || 'the pattern'} must be an object`);
  const fields = Object.entries(pattern);
  if (fields.length === 0) throw new InvalidEventPatternError(`${path || 'the pattern'} is empty`);
  for (const [field, value] of fields) {
    const at = path ? `${path}.${field}` : field;
    if (field.startsWith('$')) throw new InvalidEventPatternError(`${at}: operator ${field} is not supported locally`);
    if (Array.isArray(value)) {
      if (value.length === 0) throw new InvalidEventPatternError(`${at} has an empty list of values`);
      value.forEach((v) => validatePatternValue(v, at));
    } else {
      validateEventPattern(value, at);
    }
  }
}

function validatePatternValue(v: unknown, at: string): void {
  if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return;
  if (!isPlainObject(v)) throw new InvalidEventPatternError(`${at}: values must be strings, numbers, booleans, null or matchers`);
  const keys = Object.keys(v);
  if (keys.length !== 1) throw new InvalidEventPatternError(`${at}: a matcher has exactly one operator`);
  const op = keys[0]!;
  const arg = v[op];
  switch (op) {
    case 'prefix':
    case 'suffix':
      if (typeof arg !== 'string') throw new InvalidEventPatternError(`${at}: ${op} takes a string`);
      return;
    case 'exists':
      if (typeof arg !== 'boolean') throw new InvalidEventPatternError(`${at}: exists takes true or false`);
      return;
    case 'anything-but':
      if (typeof arg === 'string' || typeof arg === 'number') return;
      if (Array.isArray(arg) && arg.length > 0 && (arg.every((x) => typeof x === 'string') || arg.every((x) => typeof x === 'number'))) return;
      if (isPlainObject(arg) && Object.keys(arg).length === 1 && (typeof arg.prefix === 'string' || typeof arg.suffix === 'string')) return;
      throw new InvalidEventPatternError(`${at}: anything-but takes a string, a number, a list of strings or numbers, or { prefix } / { suffix }`);
    case 'numeric':
      parseNumericConditions(arg, at);
      return;
    default:
      throw new InvalidEventPatternError(`${at}: matcher ${op} is not supported locally`);
  }
}

type Comparison = { op: '=' | '<' | '<=' | '>' | '>='; value: number };

function parseNumericConditions(arg: unknown, at: string): Comparison[] {
  if (!Array.isArray(arg) || arg.length === 0 || arg.length % 2 !== 0) {
    throw new InvalidEventPatternError(`${at}: numeric takes operator/number pairs`);
  }
  const out: Comparison[] = [];
  for (let i = 0; i < arg.length; i += 2) {
    const op = arg[i];
    const value = arg[i + 1];
    if (!['=', '<', '<=', '>', '>='].includes(op as string) || typeof value !== 'number') {
      throw new InvalidEventPatternError(`${at}: numeric takes operator/number pairs`);
    }
    out.push({ op: op as Comparison['op'], value });
  }
  return out;
}

/** True when the event matches every field of the pattern. */
export function matchEventPattern(pattern: EventPattern, event: unknown): boolean {
  const obj = isPlainObject(event) ? event : {};
  return Object.entries(pattern).every(([field, expected]) => {
    const actual = obj[field];
    if (isPatternList(expected)) return matchField(expected, leavesOf(actual));
    // A nested pattern: the event offers an object there, or an array of objects
    // of which one must match as a whole; anything else behaves as an empty object
    // (so `exists: false` inside still matches).
    if (Array.isArray(actual)) {
      const objects = actual.filter(isPlainObject);
      return objects.length > 0 ? objects.some((o) => matchEventPattern(expected, o)) : matchEventPattern(expected, {});
    }
    return matchEventPattern(expected, isPlainObject(actual) ? actual : {});
  });
}

const isPatternList = (v: EventPattern | readonly PatternValue[]): v is readonly PatternValue[] => Array.isArray(v);

/** The leaf values an event field offers: none when absent or an object. */
function leavesOf(value: unknown): Leaf[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => (Array.isArray(v) ? leavesOf(v) : isLeaf(v) ? [v] : []));
  return isLeaf(value) ? [value] : [];
}

const isLeaf = (v: unknown): v is Leaf => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function matchField(expected: readonly PatternValue[], leaves: Leaf[]): boolean {
  return expected.some((want) => {
    if (!isPlainObject(want)) return leaves.some((leaf) => leaf === want);
    const m = want as Record<string, unknown>;
    if ('exists' in m) return m.exists === leaves.length > 0;
    if ('prefix' in m) return leaves.some((l) => typeof l === 'string' && l.startsWith(m.prefix as string));
    if ('suffix' in m) return leaves.some((l) => typeof l === 'string' && l.endsWith(m.suffix as string));
    if ('numeric' in m) {
      const conditions = parseNumericConditions(m.numeric, 'numeric');
      return leaves.some((l) => typeof l === 'number' && conditions.every((c) => compare(l, c)));
    }
    if ('anything-but' in m) return leaves.some((l) => !excludedBy(m['anything-but'], l));
    return false;
  });
}

function excludedBy(rule: unknown, leaf: Leaf): boolean {
  if (Array.isArray(rule)) return rule.includes(leaf);
  if (isPlainObject(rule)) {
    if (typeof rule.prefix === 'string') return typeof leaf === 'string' && leaf.startsWith(rule.prefix);
    if (typeof rule.suffix === 'string') return typeof leaf === 'string' && leaf.endsWith(rule.suffix);
    return false;
  }
  return rule === leaf;
}

function compare(n: number, c: Comparison): boolean {
  switch (c.op) {
    case '=': return n === c.value;
    case '<': return n < c.value;
    case '<=': return n <= c.value;
    case '>': return n > c.value;
    case '>=': return n >= c.value;
  }
}
