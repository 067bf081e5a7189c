/**
 * The W array of a CIDFont (ISO 32000-1 9.7.4.3): widths per CID, in the
 * font's 1000-unit glyph space, as written (callers scale them). Two forms
 * alternate: `c [w1 w2 …]` gives consecutive CIDs from c, and
 * `cfirst clast w` one width for a range.
 *
 * Read leniently up to the first entry that makes no sense (a missing number),
 * and bounded: CIDs are 16-bit, so a wider range or more entries than
 * maxEntries (checked before each entry) is junk and ends the reading.
 */
import { PDFArray, PDFNumber } from '@cantoo/pdf-lib';

export function readCidWidths(w: PDFArray | undefined, maxEntries: number): Map<number, number> {
  const out = new Map<number, number>();
  if (!w) return out;
  const n = w.size();
  const num = (i: number): number | undefined => {
    const v = w.lookup(i);
    return v instanceof PDFNumber ? v.asNumber() : undefined;
  };
  for (let i = 0; i < n && out.size <= maxEntries; ) {
    const first = num(i);
    const next = w.lookup(i + 1);
    if (first === undefined) break;
    if (next instanceof PDFArray) {
      for (let j = 0; j < next.size(); j++) {
        const v = next.lookup(j);
        if (v instanceof PDFNumber) out.set(first + j, v.asNumber());
      }
      i += 2;
    } else {
      const last = num(i + 1);
      const width = num(i + 2);
      if (last === undefined || width === undefined || last - first > 65535) break;
      for (let c = first; c <= last; c++) out.set(c, width);
      i += 3;
    }
  }
  return out;
}
