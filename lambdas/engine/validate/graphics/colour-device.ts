/**
 * Uncalibrated (device) colour spaces, ISO 19005-1 6.2.3.3 and -2/-3/-4
 * 6.2.4.3: DeviceRGB and DeviceCMYK need a PDF/A output intent of the same
 * colour space, DeviceGray needs any PDF/A output intent, unless a Default*
 * colour space of the resources replaces the device space where it is used.
 * PDF/A-4 also takes a page's own output intent, and the current transparency
 * blending space (an RGB or CMYK group space calibrates device colour of its
 * kind): the innermost group that sets one, as colour-use.ts decides it.
 *
 * The same uses reached through an Indexed base or a Pattern's underlying space
 * (6.2.4.5) or through a Separation/DeviceN alternate (6.2.4.4) are also
 * reported under those clauses, which require base and alternate spaces to
 * follow 6.2.4.
 */
import { collected } from '../content-pass';
import type { ValidationModel } from '../model';
import type { StandardProfile } from '../profiles';
import type { Example, Rule, RuleOutcome } from '../rule';
import { colourUse, type DeviceFamily, type DeviceUse, type DeviceVia } from './colour-use';
import { intentForPage } from './icc-profile';

const SHORT: Record<DeviceFamily, string> = { DeviceGray: 'Gray', DeviceRGB: 'RGB', DeviceCMYK: 'CMYK' };

/** Whether a device space use is calibrated by the output intent or the group in effect. */
export function deviceUseAllowed(m: ValidationModel, p: StandardProfile, use: DeviceUse): boolean {
  const oiSpace = intentForPage(m, use.page, p.part)?.header?.colourSpace ?? null;
  // Only the current blending space counts, not an outer one it replaced (veraPDF's gTransparencyCS).
  const blending = p.part === 4 ? use.groups.at(-1) : undefined;
  switch (use.space) {
    case 'DeviceGray':
      return oiSpace !== null;
    case 'DeviceRGB':
      return oiSpace === 'RGB ' || blending === 'RGB ' || blending === 'CalRGB';
    case 'DeviceCMYK':
      return oiSpace === 'CMYK' || blending === 'CMYK';
  }
}

function example(m: ValidationModel, p: StandardProfile, use: DeviceUse): Example {
  const oi = intentForPage(m, use.page, p.part);
  const via = use.via === 'indexed' ? ' as an Indexed base' : use.via === 'pattern' ? " as a Pattern's underlying space" : use.via === 'alternate' ? ' as a Separation/DeviceN alternate' : '';
  const intent = oi ? `the PDF/A output intent profile is ${oi.header ? oi.header.colourSpace.trim() : 'not a readable ICC profile'}` : 'there is no PDF/A output intent';
  return { page: use.page, context: `${use.space}${via} for ${use.what}${use.count > 1 ? ` (${use.count}×)` : ''}; ${intent}` };
}

function judge(m: ValidationModel, p: StandardProfile, keep: (u: DeviceUse) => boolean): RuleOutcome {
  const uses = collected(m, colourUse).devices.filter(keep);
  const failures = uses.filter((u) => !deviceUseAllowed(m, p, u)).sort((a, b) => a.page - b.page);
  return { checked: uses.length, failures: failures.map((u) => example(m, p, u)) };
}

function deviceRule(space: DeviceFamily): Rule {
  const short = SHORT[space];
  return {
    id: `pdfa.colour.${short.toLowerCase()}`,
    clauses: { 1: '6.2.3.3', 2: '6.2.4.3', 3: '6.2.4.3', 4: '6.2.4.3' },
    description: (p) => {
      const needs = space === 'DeviceGray' ? 'a PDF/A output intent' : `a PDF/A output intent with ${short === 'RGB' ? 'an RGB' : 'a CMYK'} destination profile`;
      const group = p.part === 4 && space !== 'DeviceGray' ? ` or a transparency group with a device-independent ${short} blending space is in effect` : '';
      return `${space} shall only be used where a device-independent Default${short} colour space replaces it, or when the file has ${needs}${group}.`;
    },
    test: (m, p) => judge(m, p, (u) => u.space === space),
  };
}

const VIA_CLAUSE: { via: DeviceVia[]; id: string; clause: string; what: string }[] = [
  { via: ['indexed', 'pattern'], id: 'pdfa.colour.base-space', clause: '6.2.4.5', what: 'The base colour space of an Indexed colour space and the underlying colour space of a Pattern' },
  { via: ['alternate'], id: 'pdfa.colour.alternate-space', clause: '6.2.4.4', what: 'The alternate colour space of a Separation or DeviceN colour space' },
];

export const DEVICE_COLOUR_RULES: readonly Rule[] = [
  deviceRule('DeviceRGB'),
  deviceRule('DeviceCMYK'),
  deviceRule('DeviceGray'),
  ...VIA_CLAUSE.map(
    (v): Rule => ({
      id: v.id,
      clauses: { 2: v.clause, 3: v.clause, 4: v.clause },
      description: `${v.what} shall follow the colour space requirements of 6.2.4: a device space there needs a matching PDF/A output intent or Default colour space.`,
      test: (m, p) => judge(m, p, (u) => v.via.includes(u.via)),
    }),
  ),
];
