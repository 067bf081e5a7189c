/**
 * Separation and DeviceN colour spaces (ISO 19005-2/-3/-4 6.2.4.4): every
 * spot colorant of a DeviceN space needs an entry in its Colorants dictionary,
 * and all Separation arrays of one colorant name (those inside Colorants
 * dictionaries included) shall have the same alternate space and tint
 * transform, compared as PDF objects (direct or indirect and compression do
 * not matter).
 */
import { PDFArray, PDFDict } from '@cantoo/pdf-lib';
import { getArray, getDict, nameText, resolve } from '../../core/pdf-objects';
import { collected } from '../content-pass';
import { eachOf, type Rule } from '../rule';
import { sameObject } from './colour-objects';
import { colourUse } from './colour-use';
import { decodedBytes } from './icc-profile';
import type { ValidationModel } from '../model';

/** Process colorants of a DeviceN space and `None`: no Colorants entry is needed for them. */
const PROCESS = new Set(['Cyan', 'Magenta', 'Yellow', 'Black', 'None']);

interface MissingColorants {
  array: PDFArray;
  page: number;
  missing: string[];
}

function missingColorants(m: ValidationModel, array: PDFArray, page: number): MissingColorants {
  const names = resolve(m.context, array.get(1));
  const attributes = resolve(m.context, array.get(4));
  const attrs = attributes instanceof PDFDict ? attributes : undefined;
  const colorants = getDict(attrs, 'Colorants');
  const process = new Set<string>(PROCESS);
  // NChannel: the Process dictionary names its own process components.
  const components = getArray(getDict(attrs, 'Process'), 'Components');
  if (components) for (let i = 0; i < components.size(); i++) process.add(nameText(components.lookup(i)) ?? '');
  const missing: string[] = [];
  if (names instanceof PDFArray) {
    for (let i = 0; i < names.size(); i++) {
      const n = nameText(names.lookup(i));
      if (n === undefined || process.has(n)) continue;
      if (!colorants || !colorants.keys().some((k) => k.decodeText() === n)) missing.push(n);
    }
  }
  return { array, page, missing };
}

export const SEPARATION_RULES: readonly Rule[] = [
  {
    id: 'pdfa.colour.devicen-colorants',
    clauses: { 2: '6.2.4.4', 3: '6.2.4.4', 4: '6.2.4.4' },
    description: 'For every spot colorant of a DeviceN colour space, its Colorants dictionary shall have an entry.',
    test: (m) =>
      eachOf(
        [...collected(m, colourUse).deviceN].map(([array, page]) => missingColorants(m, array, page)),
        (x) => x.missing.length === 0,
        (x) => {
          const objectNumber = m.objectNumbers.of(x.array);
          return { page: x.page, ...(objectNumber !== undefined ? { objectNumber } : {}), context: `DeviceN colorant${x.missing.length > 1 ? 's' : ''} ${x.missing.join(', ')} without a Colorants entry` };
        },
      ),
  },
  {
    id: 'pdfa.colour.separation-consistent',
    clauses: { 2: '6.2.4.4', 3: '6.2.4.4', 4: '6.2.4.4' },
    description: 'All Separation colour spaces with the same colorant name shall have the same alternate colour space and tint transform.',
    test: (m) => {
      const first = new Map<string, PDFArray>();
      const checked: { array: PDFArray; page: number; colorant: string; ok: boolean }[] = [];
      for (const [array, page] of collected(m, colourUse).separations) {
        const colorant = nameText(resolve(m.context, array.get(1)));
        if (colorant === undefined) continue;
        const seen = first.get(colorant);
        if (!seen) {
          first.set(colorant, array);
          continue;
        }
        const same = (i: number) => sameObject(m.context, seen.get(i), array.get(i), decodedBytes);
        checked.push({ array, page, colorant, ok: same(2) && same(3) });
      }
      return eachOf(
        checked,
        (c) => c.ok,
        (c) => {
          const objectNumber = m.objectNumbers.of(c.array);
          return { page: c.page, ...(objectNumber !== undefined ? { objectNumber } : {}), context: `Separation ${c.colorant} differs from another Separation ${c.colorant} in alternate space or tint transform` };
        },
      );
    },
  },
];
