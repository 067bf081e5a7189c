/**
 * The pdf-lib objects the reader makes most often, made once: names, indirect
 * references of generation 0 and small integers. pdf-lib interns names and
 * references itself, but its `PDFName.of` runs a regular expression over every
 * name and `PDFRef.of` builds a string key for every reference, and
 * `PDFNumber.of` formats every number as text; on the 500-page file of
 * `bench:preflight` those three were an eighth of the preflight time.
 *
 * The objects handed out are pdf-lib's own (from its pools, or made by its
 * constructors), so identity comparisons with `PDFName.of(…)` hold as before.
 * Names and numbers are immutable in pdf-lib, which is what makes sharing a
 * number object between dictionaries safe.
 */
import { PDFName, PDFNumber, PDFRef } from '@cantoo/pdf-lib';

/** Name texts (as written, no `#` escapes) → their PDFName. Bounded: a file could hold millions of distinct names. */
const names = new Map<string, PDFName>();
const MAX_NAMES = 100_000;

/**
 * The PDFName of a name token's text as written (without the slash). pdf-lib's
 * parser decodes `#xx` escapes and `PDFName.of` decodes again; a name with an
 * escape still takes that path, so that it comes out as it always did.
 */
export function internedName(written: string, hasEscape: boolean): PDFName {
  if (hasEscape) return PDFName.of(written.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
  let name = names.get(written);
  if (name === undefined) {
    name = PDFName.of(written);
    if (names.size < MAX_NAMES) names.set(written, name);
  }
  return name;
}

/** Names seen, by a hash of their bytes: the parser finds a name without spelling it out as a string first. */
const byHash = new Map<number, { written: string; name: PDFName }>();

/** A hash of the bytes of a name token, as the parser accumulates it byte by byte. */
export const nextNameHash = (hash: number, byte: number): number => (Math.imul(hash, 31) + byte) | 0;

/**
 * The PDFName of the name token written at bytes[start, end) (no slash, no
 * `#` escape) whose bytes hash to `hash`: from the hash table when the bytes
 * match the name found there, else spelled out and interned.
 */
export function internedNameAt(bytes: Uint8Array, start: number, end: number, hash: number): PDFName {
  const hit = byHash.get(hash);
  if (hit !== undefined && hit.written.length === end - start) {
    const w = hit.written;
    let same = true;
    for (let i = 0; i < w.length; i++) {
      if (w.charCodeAt(i) !== bytes[start + i]) {
        same = false;
        break;
      }
    }
    if (same) return hit.name;
  }
  let written = '';
  for (let i = start; i < end; i++) written += String.fromCharCode(bytes[i]!);
  const name = internedName(written, false);
  if (hit === undefined && byHash.size < MAX_NAMES) byHash.set(hash, { written, name });
  return name;
}

/** References `N 0 R` by object number; larger numbers and other generations go to pdf-lib's pool. */
const refs: (PDFRef | undefined)[] = [];
const MAX_CACHED_REF = 1 << 22;

export function internedRef(objectNumber: number, generation: number): PDFRef {
  if (generation !== 0 || objectNumber < 0 || objectNumber >= MAX_CACHED_REF || !Number.isInteger(objectNumber)) return PDFRef.of(objectNumber, generation);
  let ref = refs[objectNumber];
  if (ref === undefined) {
    ref = PDFRef.of(objectNumber, 0);
    refs[objectNumber] = ref;
  }
  return ref;
}

/** Integers 0…4095 (widths, lengths, counts, box corners), made on first use. */
const smallInts: (PDFNumber | undefined)[] = new Array(4096);

export function numberObject(value: number): PDFNumber {
  if (value >= 0 && value < 4096 && (value | 0) === value && !Object.is(value, -0)) {
    let n = smallInts[value];
    if (n === undefined) {
      n = PDFNumber.of(value);
      smallInts[value] = n;
    }
    return n;
  }
  return PDFNumber.of(value);
}
