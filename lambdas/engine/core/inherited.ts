/**
 * Inheritable entries (ISO 32000-1 7.7.3.4 for page attributes such as
 * Resources, MediaBox, CropBox and Rotate; 12.7.3.1 for field entries such as
 * FT, V and DA): the value is the dictionary's own, else that of the nearest
 * ancestor through Parent that has one.
 *
 * Parent chains in real files can loop (a node that is its own grandparent) or
 * run absurdly deep, so the walk stops at a dictionary it has already seen and
 * after maxDepth dictionaries. Each caller keeps the cap its rule was written
 * with; a cap does not change the answer for any chain shorter than it.
 */
import { PDFDict, PDFName, type PDFObject } from '@cantoo/pdf-lib';
import { resolve } from './pdf-objects';

export interface InheritedOptions<T extends PDFObject> {
  /** Most dictionaries examined, the starting one included; Infinity to stop only where the chain ends or repeats. */
  maxDepth: number;
  /**
   * Which values count. An entry of another kind (Resources that is not a
   * dictionary, FT that is not a name) is passed over as if absent, and the
   * walk goes on up. Without it any value counts, a reference to a null
   * object included.
   */
  accept?: (value: PDFObject) => value is T;
}

const PARENT = PDFName.of('Parent');

export function inherited<T extends PDFObject = PDFObject>(dict: PDFDict, key: string, options: InheritedOptions<T>): T | undefined {
  const k = PDFName.of(key);
  const seen = new Set<PDFDict>();
  let node: PDFDict | undefined = dict;
  for (let depth = 0; node && !seen.has(node) && depth < options.maxDepth; depth++) {
    seen.add(node);
    // resolve, not lookup: an entry that refers to a null object is a value here (it ends the walk when any value counts); pdf-lib's lookup reads it as absent.
    const value = resolve(node.context, node.get(k));
    if (value !== undefined && (!options.accept || options.accept(value))) return value as T;
    const parent = resolve(node.context, node.get(PARENT));
    node = parent instanceof PDFDict ? parent : undefined;
  }
  return undefined;
}

export const isDict = (value: PDFObject): value is PDFDict => value instanceof PDFDict;
