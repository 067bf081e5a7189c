/**
 * What JSON.parse accepts but a request body must not carry (docs/api.md §7),
 * found by one pass over the text JSON.parse has already accepted, without
 * recursion, so no nesting depth can overflow the stack here:
 *
 * - nesting deeper than MAX_JSON_DEPTH levels: DynamoDB refuses items nested
 *   deeper than 32 levels, and the schema code recurses once per level (5,000
 *   levels of metaData overflowed its stack: a 500);
 * - a key given twice in one object: JSON.parse keeps the last, another parser
 *   the first, so the two sides of an integration could read different bodies;
 * - the keys `__proto__`, `constructor` and `prototype`: JavaScript gives them
 *   meaning on plain objects (a `__proto__` key was silently dropped, a
 *   `constructor` key ended in a 503);
 * - numbers that cannot be kept as sent: beyond a double (`1e400`), integers
 *   beyond 2^53 that lose digits (`9007199254740993`), and magnitudes outside
 *   what DynamoDB stores (`1e200`, `1e-200`), which failed only at the write,
 *   as a 503 inviting a retry that could never succeed.
 *
 * Each is a 400 naming the field, decided before anything is written.
 */

/** DynamoDB's limit for nested attributes; a body's root object is level 1. */
export const MAX_JSON_DEPTH = 32;

/** Keys with a meaning of their own on JavaScript objects. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** DynamoDB stores numbers with magnitudes from 1E-130 up to (not including) 1E126. */
const STORE_MIN = 1e-130;
const STORE_MAX = 1e126;

export interface JsonHazard {
  /** The field at fault, as validation errors name it (`metaData.a[2].b`); undefined for the body itself. */
  param: string | undefined;
  message: string;
}

interface Frame {
  array: boolean;
  /** Keys seen so far (objects). */
  keys: Set<string> | null;
  /** The current key (objects) or index (arrays). */
  at: string | number | null;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** The first hazard in `text`, which must be JSON that JSON.parse accepted; null when there is none. */
export function findJsonHazard(text: string): JsonHazard | null {
  const stack: Frame[] = [];
  let expectKey = false;
  const param = (): string | undefined => {
    let out = '';
    for (const f of stack) {
      if (f.at === null) break;
      out += typeof f.at === 'number' ? `[${f.at}]` : out === '' ? f.at : `.${f.at}`;
    }
    return out === '' ? undefined : out;
  };
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= MAX_JSON_DEPTH) return { param: param(), message: `is nested too deeply: at most ${MAX_JSON_DEPTH} levels of objects and arrays in a body` };
      const array = c === 0x5b;
      stack.push({ array, keys: array ? null : new Set(), at: array ? 0 : null });
      expectKey = !array;
      i++;
      // An empty array has no element 0.
      if (array && nextNonSpace(text, i) === 0x5d) stack[stack.length - 1]!.at = null;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
      i++;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]!;
      if (top.array) top.at = (top.at as number) + 1;
      else expectKey = true;
      i++;
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (expectKey) {
        const top = stack[stack.length - 1]!;
        const raw = text.slice(i, end);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        top.at = key;
        if (RESERVED_KEYS.has(key)) return { param: param(), message: `is a reserved key: ${key} has a meaning of its own in JavaScript; use another name` };
        if (top.keys!.has(key)) return { param: param(), message: 'is given twice in the same object; send each key once' };
        top.keys!.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text)!;
      const problem = numberProblem(m[0], m[1] === undefined && m[2] === undefined);
      if (problem) return { param: param(), message: problem };
      i += m[0].length;
    } else {
      // White space, ':', true, false, null.
      i++;
    }
  }
  return null;
}

function numberProblem(literal: string, integer: boolean): string | null {
  const value = Number(literal);
  if (!Number.isFinite(value)) return `is too large for a number (${literal}); send it as a string`;
  if (integer && !Number.isSafeInteger(value)) return `is an integer beyond ±9007199254740991, which would lose digits (${literal}); send it as a string`;
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < STORE_MIN || magnitude >= STORE_MAX)) return `is outside the range of numbers that can be stored, 1E-130 to 1E126 in magnitude (${literal}); send it as a string`;
  if (magnitude === 0 && /[1-9]/.test(literal.split(/[eE]/)[0]!)) return `is too small to be told from 0 (${literal}); send it as a string`;
  return null;
}

/** The index just past the string literal that starts at `start` (a quote). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i + 1;
  }
  return text.length;
}

function nextNonSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return text.charCodeAt(i);
}
