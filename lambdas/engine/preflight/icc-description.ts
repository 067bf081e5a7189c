/**
 * The human-readable name of an ICC profile ("sRGB IEC61966-2.1", "Coated
 * FOGRA39 (ISO 12647-2:2004)"): its `desc` tag (ICC.1 9.2.41), stored as a
 * textDescriptionType in version 2 profiles and a multiLocalizedUnicodeType
 * (first record) in version 4. Null when the data is not a readable profile.
 */
export function iccDescription(icc: Uint8Array | undefined): string | null {
  if (!icc || icc.length < 132) return null;
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength);
  const ascii = (at: number, n: number) => String.fromCharCode(...icc.subarray(at, at + n));
  if (ascii(36, 4) !== 'acsp') return null;
  const tags = Math.min(view.getUint32(128), 1000);
  for (let i = 0; i < tags; i++) {
    const entry = 132 + i * 12;
    if (entry + 12 > icc.length) return null;
    if (ascii(entry, 4) !== 'desc') continue;
    const offset = view.getUint32(entry + 4);
    const size = view.getUint32(entry + 8);
    if (offset + Math.min(size, 12) > icc.length || size < 12) return null;
    const type = ascii(offset, 4);
    if (type === 'desc') {
      const count = view.getUint32(offset + 8);
      const text = ascii(offset + 12, Math.max(0, Math.min(count, icc.length - offset - 12)));
      return clean(text);
    }
    if (type === 'mluc') {
      const records = view.getUint32(offset + 8);
      if (records < 1 || offset + 28 > icc.length) return null;
      const length = view.getUint32(offset + 20);
      const start = offset + view.getUint32(offset + 24);
      if (start + length > icc.length) return null;
      let text = '';
      for (let j = 0; j + 1 < length; j += 2) text += String.fromCharCode(view.getUint16(start + j));
      return clean(text);
    }
    return null;
  }
  return null;
}

function clean(text: string): string | null {
  // Trailing NULs are part of the stored count; control characters are never part of a name.
  const t = text.replace(/[\u0000-\u001f]+/g, ' ').trim();
  return t.length > 0 ? t.slice(0, 200) : null;
}
