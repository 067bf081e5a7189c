/**
 * The text of a PDF name, decoded once per name. pdf-lib interns names (one
 * PDFName object per name) but its decodeText() rebuilds the text on every
 * call, through a byte array and a spread; the interpreter asks for the same
 * few names (Subtype, Filter, ColorSpace…) for every object it reads.
 */
import { PDFName, type PDFObject } from '@cantoo/pdf-lib';

const texts = new WeakMap<PDFName, string>();

/** A name value without its slash (`/DeviceRGB` → "DeviceRGB"); undefined for anything else. */
export function nameText(obj: PDFObject | undefined): string | undefined {
  if (!(obj instanceof PDFName)) return undefined;
  let text = texts.get(obj);
  if (text === undefined) {
    text = obj.decodeText();
    texts.set(obj, text);
  }
  return text;
}
