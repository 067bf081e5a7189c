/**
 * An sRGB ICC profile built in code (the repository ships no profile as a
 * runtime asset): a version 2.1 display-class (mntr) matrix/TRC profile, the
 * form every PDF/A part accepts for its output intent (PDF/A-1 needs ICC
 * version 2), with the tags ICC.1:2001-04 requires of it: desc, cprt, wtpt,
 * rXYZ/gXYZ/bXYZ and rTRC/gTRC/bTRC.
 *
 * The numbers are IEC 61966-2-1's: the primaries' colorants adapted to the
 * D50 connection space with the Bradford transform (the values published with
 * the standard), and the transfer curve sampled from the sRGB decoding function
 * (linear below 0.04045, a 2.4 power segment above) at 1024 points.
 */

const DESCRIPTION = 'sRGB IEC61966-2.1 (Proofline)';
const COPYRIGHT = 'No copyright, use freely';

/** s15Fixed16 values (X, Y, Z). */
const D50: readonly number[] = [0.9642, 1.0, 0.8249];
const RED: readonly number[] = [0.4360747, 0.2225045, 0.0139322];
const GREEN: readonly number[] = [0.3850649, 0.7168786, 0.0971045];
const BLUE: readonly number[] = [0.1430804, 0.0606169, 0.7141733];
const CURVE_POINTS = 1024;

let cached: Uint8Array | undefined;

/** The profile's bytes (built once). */
export function srgbProfile(): Uint8Array {
  cached ??= build();
  return cached;
}

/** The OutputConditionIdentifier and Info an output intent with this profile carries. */
export const SRGB_CONDITION = 'sRGB IEC61966-2.1';

function build(): Uint8Array {
  const curve = curveTag();
  const tags: [string, Uint8Array][] = [
    ['desc', descTag(DESCRIPTION)],
    ['cprt', textTag(COPYRIGHT)],
    ['wtpt', xyzTag(D50)],
    ['rXYZ', xyzTag(RED)],
    ['gXYZ', xyzTag(GREEN)],
    ['bXYZ', xyzTag(BLUE)],
    ['rTRC', curve],
    ['gTRC', curve],
    ['bTRC', curve],
  ];

  // Tag data after the header and tag table, each element 4-byte aligned; the three TRCs share one element.
  const tableSize = 4 + tags.length * 12;
  let offset = align(128 + tableSize);
  const placed = new Map<Uint8Array, number>();
  const entries: { sig: string; offset: number; size: number }[] = [];
  for (const [sig, data] of tags) {
    let at = placed.get(data);
    if (at === undefined) {
      at = offset;
      placed.set(data, at);
      offset = align(offset + data.length);
    }
    entries.push({ sig, offset: at, size: data.length });
  }
  const size = offset;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);

  // Header (ICC.1 7.2).
  view.setUint32(0, size);
  view.setUint32(8, 0x02100000); // version 2.1.0
  ascii(out, 12, 'mntr');
  ascii(out, 16, 'RGB ');
  ascii(out, 20, 'XYZ ');
  // A fixed creation date keeps the bytes (and so the output files) reproducible.
  [2024, 1, 1, 0, 0, 0].forEach((v, i) => view.setUint16(24 + i * 2, v));
  ascii(out, 36, 'acsp');
  view.setUint32(64, 0); // perceptual rendering intent
  D50.forEach((v, i) => view.setInt32(68 + i * 4, s15f16(v)));

  view.setUint32(128, tags.length);
  entries.forEach((e, i) => {
    const at = 132 + i * 12;
    ascii(out, at, e.sig);
    view.setUint32(at + 4, e.offset);
    view.setUint32(at + 8, e.size);
  });
  for (const [data, at] of placed) out.set(data, at);
  return out;
}

const align = (n: number) => (n + 3) & ~3;
const s15f16 = (v: number) => Math.round(v * 65536);

function ascii(out: Uint8Array, at: number, s: string): void {
  for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i) & 0x7f;
}

function xyzTag(xyz: readonly number[]): Uint8Array {
  const out = new Uint8Array(20);
  const view = new DataView(out.buffer);
  ascii(out, 0, 'XYZ ');
  xyz.forEach((v, i) => view.setInt32(8 + i * 4, s15f16(v)));
  return out;
}

/** curveType: the sRGB decoding function sampled at CURVE_POINTS evenly spaced inputs. */
function curveTag(): Uint8Array {
  const out = new Uint8Array(12 + CURVE_POINTS * 2);
  const view = new DataView(out.buffer);
  ascii(out, 0, 'curv');
  view.setUint32(8, CURVE_POINTS);
  for (let i = 0; i < CURVE_POINTS; i++) {
    const v = i / (CURVE_POINTS - 1);
    const linear = v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    view.setUint16(12 + i * 2, Math.round(linear * 65535));
  }
  return out;
}

/** textType: ASCII, NUL-terminated. */
function textTag(text: string): Uint8Array {
  const out = new Uint8Array(8 + text.length + 1);
  ascii(out, 0, 'text');
  ascii(out, 8, text);
  return out;
}

/** textDescriptionType (ICC v2): ASCII part, an empty Unicode part and an empty ScriptCode part. */
function descTag(text: string): Uint8Array {
  const asciiLength = text.length + 1;
  const out = new Uint8Array(8 + 4 + asciiLength + 4 + 4 + 2 + 1 + 67);
  const view = new DataView(out.buffer);
  ascii(out, 0, 'desc');
  view.setUint32(8, asciiLength);
  ascii(out, 12, text);
  // Unicode language code and count (0), ScriptCode code and count (0), and the 67 reserved ScriptCode bytes stay zero.
  return out;
}
