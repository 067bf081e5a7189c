/**
 * Lenient accessors over pdf-lib's object model. Real-world PDFs put the wrong
 * type behind a key surprisingly often (a number where a name belongs, a
 * reference to a deleted object, an array where a dictionary should be); pdf-lib's
 * own `lookupMaybe` throws on those. Every engine reads objects through these
 * helpers instead, so a malformed entry reads as "absent" and never aborts a check.
 */
import {
  PDFArray,
  PDFBool,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFContext,
} from '@cantoo/pdf-lib';
import { decodeStream } from './stream-decode';
import { nameText } from './name-text';

export { decodeStream, type DecodeResult, type UndecodableReason } from './stream-decode';
export { nameText } from './name-text';

const nameCache = new Map<string, PDFName>();
/** A PDFName by its text without the slash (`name('Type')`). */
export function name(text: string): PDFName {
  let n = nameCache.get(text);
  if (!n) {
    n = PDFName.of(text);
    nameCache.set(text, n);
  }
  return n;
}

/** Follows a reference (pdf-lib returns undefined for a dangling one). */
export function resolve(context: PDFContext, obj: PDFObject | undefined): PDFObject | undefined {
  if (obj instanceof PDFRef) return context.lookup(obj);
  return obj;
}

/** The dictionary of a dictionary or of a stream. */
export function asDict(obj: PDFObject | undefined): PDFDict | undefined {
  if (obj instanceof PDFDict) return obj;
  if (obj instanceof PDFStream) return obj.dict;
  return undefined;
}

export function getDict(dict: PDFDict | undefined, key: string): PDFDict | undefined {
  const v = dict?.lookup(name(key));
  return v instanceof PDFDict ? v : undefined;
}

export function getStream(dict: PDFDict | undefined, key: string): PDFStream | undefined {
  const v = dict?.lookup(name(key));
  return v instanceof PDFStream ? v : undefined;
}

export function getArray(dict: PDFDict | undefined, key: string): PDFArray | undefined {
  const v = dict?.lookup(name(key));
  return v instanceof PDFArray ? v : undefined;
}

export function getNumber(dict: PDFDict | undefined, key: string): number | undefined {
  const v = dict?.lookup(name(key));
  if (!(v instanceof PDFNumber)) return undefined;
  const n = v.asNumber();
  return Number.isFinite(n) ? n : undefined;
}

export function getBool(dict: PDFDict | undefined, key: string): boolean | undefined {
  const v = dict?.lookup(name(key));
  return v instanceof PDFBool ? v.asBoolean() : undefined;
}

/** A name value without its slash (`getName(font, 'Subtype')` → "TrueType"). */
export function getName(dict: PDFDict | undefined, key: string): string | undefined {
  return nameText(dict?.lookup(name(key)));
}

/** A text string (PDFDocEncoding or UTF-16BE with BOM), or undefined. */
export function getText(dict: PDFDict | undefined, key: string): string | undefined {
  return textOf(dict?.lookup(name(key)));
}

export function textOf(obj: PDFObject | undefined): string | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString) {
    try {
      return obj.decodeText();
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Raw bytes of a string object (file identifiers, ICC headers). */
export function bytesOf(obj: PDFObject | undefined): Uint8Array | undefined {
  if (obj instanceof PDFString || obj instanceof PDFHexString) return obj.asBytes();
  return undefined;
}

export function has(dict: PDFDict | undefined, key: string): boolean {
  return dict !== undefined && dict.has(name(key));
}

/** Elements of an array, each resolved; a lone object stands for a one-element array. */
export function resolvedItems(context: PDFContext, obj: PDFObject | undefined): PDFObject[] {
  const v = resolve(context, obj);
  if (v === undefined) return [];
  if (!(v instanceof PDFArray)) return [v];
  const out: PDFObject[] = [];
  for (let i = 0; i < v.size(); i++) {
    const item = resolve(context, v.get(i));
    if (item !== undefined) out.push(item);
  }
  return out;
}

/** Numbers of an array (non-numbers read as NaN so callers can reject the array). */
export function numbersOf(arr: PDFArray | undefined): number[] | undefined {
  if (!arr) return undefined;
  const out: number[] = [];
  for (let i = 0; i < arr.size(); i++) {
    const v = arr.lookup(i);
    out.push(v instanceof PDFNumber ? v.asNumber() : Number.NaN);
  }
  return out;
}

/** The object number behind a dictionary entry when it is an indirect reference. */
export function refNumber(dict: PDFDict | undefined, key: string): number | undefined {
  const raw = dict?.get(name(key));
  return raw instanceof PDFRef ? raw.objectNumber : undefined;
}

/**
 * Reverse index from objects to their object numbers, built lazily once per
 * document: failure examples name the object a reader can look up.
 */
export class ObjectNumbers {
  private index: Map<PDFObject, number> | undefined;
  constructor(private readonly context: PDFContext) {}
  of(obj: PDFObject | undefined): number | undefined {
    if (obj === undefined) return undefined;
    if (!this.index) {
      this.index = new Map();
      for (const [ref, o] of this.context.enumerateIndirectObjects()) {
        this.index.set(o, ref.objectNumber);
        if (o instanceof PDFStream) this.index.set(o.dict, ref.objectNumber);
      }
    }
    return this.index.get(obj);
  }
}

/**
 * A stream's decoded bytes, or null when its filters are not ones we decode
 * (DCT, JPX, JBIG2, CCITT: image data, never content we parse), the data is
 * corrupt, or decoding would pass a limit (a decompression bomb: see
 * stream-decode.ts, whose decodeStream also says which of these it was).
 */
export function streamBytes(stream: PDFStream): Uint8Array | null {
  return decodeStream(stream).bytes;
}

/** The filters a stream declares, in order (`['FlateDecode']`). */
export function streamFilters(stream: PDFStream): string[] {
  const f = stream.dict.lookup(name('Filter'));
  if (f instanceof PDFName) return [nameText(f)!];
  if (f instanceof PDFArray) {
    const out: string[] = [];
    for (let i = 0; i < f.size(); i++) {
      const n = nameText(f.lookup(i));
      if (n) out.push(n);
    }
    return out;
  }
  return [];
}
