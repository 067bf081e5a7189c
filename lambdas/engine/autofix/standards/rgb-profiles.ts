/**
 * RGB ICC profiles built in code (the repository ships no profile as a runtime
 * asset): version 2.1 display-class (mntr) matrix/TRC profiles, the form every
 * PDF/A part accepts for its output intent (PDF/A-1 needs ICC version 2), with
 * the tags ICC.1:2001-04 requires of them: desc, cprt, wtpt, rXYZ/gXYZ/bXYZ and
 * rTRC/gTRC/bTRC.
 *
 * A space is described by what its standard publishes: the chromaticities of
 * its primaries and white point, and its transfer function. The colorant tags
 * are derived from them: the RGB-to-XYZ matrix of the primaries scaled so that
 * RGB 1,1,1 is the white point, then adapted to the D50 profile connection
 * space with the linearised Bradford transform (ICC.1 Annex E; the values
 * published with IEC 61966-2-1 are computed the same way). wtpt is the space's
 * own white (D65 for all three), as ICC version 2 display profiles record it.
 *
 * Three spaces, the RGB conditions PDF/A output intents declare: sRGB (IEC
 * 61966-2-1), Adobe RGB (1998) (Adobe's specification; the same space as IEC
 * 61966-2-5 opRGB) and Apple RGB (the Macintosh display space: Trinitron
 * primaries, gamma 1.8).
 */

export type Xy = readonly [number, number];
export type Xyz = readonly [number, number, number];

export interface RgbSpace {
  /** How the fix names the space in its outcome ("sRGB", "Adobe RGB (1998)"). */
  label: string;
  /** The profile's description tag. */
  description: string;
  /** Condition texts (OutputConditionIdentifier, OutputCondition, Info) that name this space. */
  names: RegExp;
  /** CIE 1931 xy chromaticities of the red, green and blue primaries. */
  primaries: readonly [Xy, Xy, Xy];
  white: Xy;
  /**
   * The transfer function: a pure power (written as one u8Fixed8 gamma, so
   * rounded to 1/256), or a decoding function sampled at 1024 points.
   */
  trc: { gamma: number } | { decode: (v: number) => number };
}

const D65: Xy = [0.3127, 0.329];

export const SRGB: RgbSpace = {
  label: 'sRGB',
  description: 'sRGB IEC61966-2.1 (Proofline)',
  names: /\bs-?rgb\b/i,
  primaries: [
    [0.64, 0.33],
    [0.3, 0.6],
    [0.15, 0.06],
  ],
  white: D65,
  // Linear below 0.04045, a 2.4 power segment above.
  trc: { decode: (v) => (v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)) },
};

export const ADOBE_RGB: RgbSpace = {
  label: 'Adobe RGB (1998)',
  description: 'Adobe RGB (1998) compatible (Proofline)',
  // "AdobeRGB1998" and IEC 61966-2-5's name for the same space as well.
  names: /\badobe\s*rgb|\bop\s*rgb\b/i,
  primaries: [
    [0.64, 0.33],
    [0.21, 0.71],
    [0.15, 0.06],
  ],
  white: D65,
  // 2 51/256, the specification's own value, exact in u8Fixed8.
  trc: { gamma: 563 / 256 },
};

export const APPLE_RGB: RgbSpace = {
  label: 'Apple RGB',
  description: 'Apple RGB compatible (Proofline)',
  names: /\bapple\s*rgb\b/i,
  primaries: [
    [0.625, 0.34],
    [0.28, 0.595],
    [0.155, 0.07],
  ],
  white: D65,
  // 1.8 has no exact u8Fixed8 form; it is written as 461/256 = 1.80078125 (within 0.0002 of 1.8 in linear light).
  trc: { gamma: 1.8 },
};

/** The spaces a declared condition can name, sRGB first (the default where nothing is named). */
export const RGB_SPACES: readonly RgbSpace[] = [SRGB, ADOBE_RGB, APPLE_RGB];

/** The OutputConditionIdentifier and Info an output intent with the sRGB profile carries. */
export const SRGB_CONDITION = 'sRGB IEC61966-2.1';

/** The ICC profile connection space's illuminant, D50 (ICC.1 7.2.16), as s15Fixed16 values allow. */
export const PCS_D50: Xyz = [0.9642, 1.0, 0.8249];

const COPYRIGHT = 'No copyright, use freely';
const CURVE_POINTS = 1024;

const cache = new Map<RgbSpace, Uint8Array>();

/** The space's profile bytes (built once per space). */
export function rgbProfile(space: RgbSpace): Uint8Array {
  let bytes = cache.get(space);
  if (!bytes) {
    bytes = build(space);
    cache.set(space, bytes);
  }
  return bytes;
}

/** The built-in sRGB profile. */
export const srgbProfile = (): Uint8Array => rgbProfile(SRGB);

/** XYZ of a chromaticity at luminance 1. */
export function xyToXyz([x, y]: Xy): Xyz {
  return [x / y, 1, (1 - x - y) / y];
}

/** The red, green and blue colorants (XYZ of each primary at full intensity) adapted to D50: rXYZ, gXYZ, bXYZ. */
export function colorantsD50(space: RgbSpace): [Xyz, Xyz, Xyz] {
  const p = space.primaries.map(xyToXyz);
  // Columns are the primaries; scale each so that their sum is the white point.
  const primaries = [0, 1, 2].map((row) => p.map((c) => c[row]!)) as unknown as Matrix;
  const white = xyToXyz(space.white);
  const scale = apply(invert(primaries), white);
  const adapt = bradford(white, PCS_D50);
  return [0, 1, 2].map((i) => apply(adapt, p[i]!.map((v) => v * scale[i]!) as unknown as Xyz)) as [Xyz, Xyz, Xyz];
}

type Matrix = [Xyz, Xyz, Xyz];

/** ICC.1 Annex E: the linearised Bradford cone response matrix. */
const BRADFORD: Matrix = [
  [0.8951, 0.2664, -0.1614],
  [-0.7502, 1.7135, 0.0367],
  [0.0389, -0.0685, 1.0296],
];

/** The matrix that adapts XYZ seen under `from` to XYZ under `to`. */
function bradford(from: Xyz, to: Xyz): Matrix {
  const src = apply(BRADFORD, from);
  const dst = apply(BRADFORD, to);
  const gain: Matrix = [
    [dst[0] / src[0], 0, 0],
    [0, dst[1] / src[1], 0],
    [0, 0, dst[2] / src[2]],
  ];
  return multiply(invert(BRADFORD), multiply(gain, BRADFORD));
}

function apply(m: Matrix, v: Xyz): Xyz {
  return [0, 1, 2].map((r) => m[r]![0] * v[0] + m[r]![1] * v[1] + m[r]![2] * v[2]) as unknown as Xyz;
}

function multiply(a: Matrix, b: Matrix): Matrix {
  return [0, 1, 2].map((r) => [0, 1, 2].map((c) => a[r]![0] * b[0]![c]! + a[r]![1] * b[1]![c]! + a[r]![2] * b[2]![c]!)) as unknown as Matrix;
}

function invert(m: Matrix): Matrix {
  const [[a, b, c], [d, e, f], [g, h, i]] = m;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
  ];
}

function build(space: RgbSpace): Uint8Array {
  const [red, green, blue] = colorantsD50(space);
  const curve = curveTag(space.trc);
  const tags: [string, Uint8Array][] = [
    ['desc', descTag(space.description)],
    ['cprt', textTag(COPYRIGHT)],
    ['wtpt', xyzTag(xyToXyz(space.white))],
    ['rXYZ', xyzTag(red)],
    ['gXYZ', xyzTag(green)],
    ['bXYZ', xyzTag(blue)],
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
  PCS_D50.forEach((v, i) => view.setInt32(68 + i * 4, s15f16(v)));

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

function xyzTag(xyz: Xyz): Uint8Array {
  const out = new Uint8Array(20);
  const view = new DataView(out.buffer);
  ascii(out, 0, 'XYZ ');
  xyz.forEach((v, i) => view.setInt32(8 + i * 4, s15f16(v)));
  return out;
}

/** curveType: one entry is a gamma (u8Fixed8Number); more are the curve sampled at evenly spaced inputs. */
function curveTag(trc: RgbSpace['trc']): Uint8Array {
  if ('gamma' in trc) {
    const out = new Uint8Array(14);
    const view = new DataView(out.buffer);
    ascii(out, 0, 'curv');
    view.setUint32(8, 1);
    view.setUint16(12, Math.round(trc.gamma * 256));
    return out;
  }
  const out = new Uint8Array(12 + CURVE_POINTS * 2);
  const view = new DataView(out.buffer);
  ascii(out, 0, 'curv');
  view.setUint32(8, CURVE_POINTS);
  for (let i = 0; i < CURVE_POINTS; i++) view.setUint16(12 + i * 2, Math.round(trc.decode(i / (CURVE_POINTS - 1)) * 65535));
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
