/**
 * Finding numbers drawn as stroked seven-segment paths. SVG text would need
 * fonts that librsvg finds through fontconfig, and a Lambda image has none:
 * the numbers would vanish silently. Paths need nothing.
 */

/** Segments a–g: top, upper right, lower right, bottom, lower left, upper left, middle. */
const SEGMENTS: Record<string, [number, number, number, number]> = {
  a: [0, 0, 1, 0],
  b: [1, 0, 1, 1],
  c: [1, 1, 1, 2],
  d: [0, 2, 1, 2],
  e: [0, 1, 0, 2],
  f: [0, 0, 0, 1],
  g: [0, 1, 1, 1],
};

const DIGITS: Record<string, string> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abged',
  '3': 'abgcd',
  '4': 'fgbc',
  '5': 'afgcd',
  '6': 'afgedc',
  '7': 'abc',
  '8': 'abcdefg',
  '9': 'abcdfg',
};

/** A digit is 1 unit wide and 2 high; digits are this far apart (in units). */
const ADVANCE = 1.6;

/** Size of `text` (digits) drawn at `digitHeight` pixels, without the stroke's overhang. */
export function numberSize(text: string, digitHeight: number): { width: number; height: number } {
  const unit = digitHeight / 2;
  return { width: (text.length === 0 ? 0 : (text.length - 1) * ADVANCE + 1) * unit, height: digitHeight };
}

/** SVG path data for `text` (digits only; anything else is left out) with its top left at (x, y). */
export function numberPath(text: string, x: number, y: number, digitHeight: number): string {
  const unit = digitHeight / 2;
  const parts: string[] = [];
  [...text].forEach((ch, i) => {
    const ox = x + i * ADVANCE * unit;
    for (const s of DIGITS[ch] ?? '') {
      const [ax, ay, bx, by] = SEGMENTS[s]!;
      parts.push(`M${fmt(ox + ax * unit)} ${fmt(y + ay * unit)}L${fmt(ox + bx * unit)} ${fmt(y + by * unit)}`);
    }
  });
  return parts.join('');
}

const fmt = (n: number): string => String(Math.round(n * 100) / 100);
