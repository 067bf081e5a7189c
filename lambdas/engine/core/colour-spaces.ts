/**
 * Which device colour spaces (DeviceGray, DeviceRGB, DeviceCMYK) a colour space
 * object ends up using. Indexed, Pattern, Separation and DeviceN spaces are
 * followed to their base or alternate space; ICCBased, CalRGB/CalGray and Lab
 * are device independent. Used by PDF/A's uncalibrated-colour rules and by
 * preflight's colour facts.
 */
import { PDFArray, PDFDict, PDFName, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, name, nameText, resolve } from './pdf-objects';
import { isName, type Operand } from './content-lexer';

export type DeviceSpace = 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK';
export const DEVICE_SPACES: readonly DeviceSpace[] = ['DeviceGray', 'DeviceRGB', 'DeviceCMYK'];

/** Names and the abbreviations inline images may use (ISO 32000-1 Table 93). */
const DEVICE_NAMES: Record<string, DeviceSpace> = {
  DeviceGray: 'DeviceGray',
  DeviceRGB: 'DeviceRGB',
  DeviceCMYK: 'DeviceCMYK',
  G: 'DeviceGray',
  RGB: 'DeviceRGB',
  CMYK: 'DeviceCMYK',
};

export function deviceSpaceOfName(n: string): DeviceSpace | undefined {
  return DEVICE_NAMES[n];
}

/** Device spaces a colour space object (name, array or reference) uses. */
export function deviceSpacesOf(context: PDFContext, obj: PDFObject | undefined, resources: PDFDict | undefined, depth = 0): Set<DeviceSpace> {
  const out = new Set<DeviceSpace>();
  const cs = resolve(context, obj);
  if (!cs || depth > 8) return out;
  if (cs instanceof PDFName) {
    const n = cs.decodeText();
    const device = DEVICE_NAMES[n];
    if (device) out.add(device);
    else {
      // A resource name (inline images refer to the page's ColorSpace resources).
      const named = getDict(resources, 'ColorSpace')?.get(name(n));
      if (named) for (const d of deviceSpacesOf(context, named, resources, depth + 1)) out.add(d);
    }
    return out;
  }
  if (!(cs instanceof PDFArray) || cs.size() === 0) return out;
  const family = nameText(cs.lookup(0));
  const add = (o: PDFObject | undefined) => {
    for (const d of deviceSpacesOf(context, o, resources, depth + 1)) out.add(d);
  };
  switch (family) {
    case 'Indexed':
    case 'I':
      add(cs.get(1));
      break;
    case 'Pattern':
      if (cs.size() > 1) add(cs.get(1));
      break;
    case 'Separation':
      add(cs.get(2));
      break;
    case 'DeviceN':
      add(cs.get(2));
      break;
    default: {
      const device = family ? DEVICE_NAMES[family] : undefined;
      if (device) out.add(device);
    }
  }
  return out;
}

/** Device spaces named by a content-stream operand (`/DeviceRGB cs`, `/CS0 cs`, inline `/CS /RGB`). */
export function deviceSpacesOfOperand(context: PDFContext, operand: Operand | undefined, resources: PDFDict | undefined): Set<DeviceSpace> {
  if (isName(operand)) {
    const device = DEVICE_NAMES[operand.name];
    if (device) return new Set([device]);
    if (operand.name === 'Pattern') return new Set();
    const named = getDict(resources, 'ColorSpace')?.get(name(operand.name));
    return deviceSpacesOf(context, named, resources);
  }
  if (Array.isArray(operand) && isName(operand[0]) && (operand[0].name === 'I' || operand[0].name === 'Indexed')) {
    return deviceSpacesOfOperand(context, operand[1], resources);
  }
  return new Set();
}

/** The Default* colour spaces a resource dictionary sets (they replace device spaces). */
export function defaultSpaces(resources: PDFDict | undefined): Set<DeviceSpace> {
  const out = new Set<DeviceSpace>();
  const cs = getDict(resources, 'ColorSpace');
  if (!cs) return out;
  if (cs.has(name('DefaultGray'))) out.add('DeviceGray');
  if (cs.has(name('DefaultRGB'))) out.add('DeviceRGB');
  if (cs.has(name('DefaultCMYK'))) out.add('DeviceCMYK');
  return out;
}
