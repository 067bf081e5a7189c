/**
 * Lays a page rendered onto a transparent bitmap onto its backdrop (the
 * preview's background colour), as a viewer lays a page on paper.
 *
 * Why PDFium does not draw onto the background itself: the page group is
 * treated as an isolated group, composited against a transparent backdrop,
 * and only its result is composited onto the medium (PDF Reference 1.7,
 * 7.3.6; ISO 32000-1 11.4.7: a page group's /I is ignored). PDFium instead
 * blends the page's content with what the bitmap already holds, so a shape
 * painted with /BM /Difference over the white fill came out in the inverse
 * of its colour: teal instead of crimson in transparency_group.pdf of the
 * pdf.js corpus (RMSE to the closest reference 0.149 → 0.008), and
 * issue18032.pdf moved likewise (0.047 → 0.025). poppler, MuPDF,
 * Ghostscript and pdf.js all draw these pages as the specification says.
 */

/**
 * `rows` of RGBA pixels (straight alpha, `stride` bytes a row) laid onto an
 * opaque `background` (0xAARRGGBB with alpha 255): packed RGBA rows, every
 * pixel opaque. A background that is not opaque (a transparent preview) gets
 * the pixels as they are.
 */
export function layOnBackdrop(rows: Uint8Array, stride: number, width: number, height: number, background: number): Buffer {
  const row = width * 4;
  // Not from Buffer's shared pool: the word view below needs the buffer to start on a 4-byte boundary.
  const out = Buffer.allocUnsafeSlow(row * height);
  if (background >>> 24 !== 0xff) {
    if (stride === row) out.set(rows.subarray(0, row * height));
    else for (let y = 0; y < height; y++) out.set(rows.subarray(y * stride, y * stride + row), y * row);
    return out;
  }
  const r0 = (background >>> 16) & 0xff;
  const g0 = (background >>> 8) & 0xff;
  const b0 = background & 0xff;
  // Whole pixels as little-endian words (R in the low byte, A in the high one): most pixels are either
  // opaque or untouched, and a word copy is several times faster than four byte copies on a 150 dpi page.
  const backdrop = (0xff000000 | (b0 << 16) | (g0 << 8) | r0) >>> 0;
  const words = new Uint32Array(out.buffer, out.byteOffset, width * height);
  const aligned = (rows.byteOffset & 3) === 0 && (stride & 3) === 0;
  const source = aligned ? new Uint32Array(rows.buffer, rows.byteOffset, (stride >>> 2) * (height - 1) + width) : null;
  for (let y = 0; y < height; y++) {
    let s = y * stride;
    let d = y * width;
    for (const end = d + width; d < end; s += 4, d++) {
      const a = rows[s + 3]!;
      if (a === 255) words[d] = source ? source[s >>> 2]! : (0xff000000 | (rows[s + 2]! << 16) | (rows[s + 1]! << 8) | rows[s]!) >>> 0;
      else if (a === 0) words[d] = backdrop;
      else {
        const rest = 255 - a;
        // The source over the backdrop (Porter-Duff "over"), rounded to the nearest value.
        const r = ((rows[s]! * a + r0 * rest + 127) / 255) | 0;
        const g = ((rows[s + 1]! * a + g0 * rest + 127) / 255) | 0;
        const b = ((rows[s + 2]! * a + b0 * rest + 127) / 255) | 0;
        words[d] = (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
      }
    }
  }
  return out;
}
