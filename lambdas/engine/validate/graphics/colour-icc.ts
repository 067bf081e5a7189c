/**
 * ICCBased colour spaces (ISO 19005-1 6.2.3.2, -2/-3/-4 6.2.4.2): the
 * embedded profile must be a valid input, output, monitor or colour space
 * profile of a colour space PDF supports, of a version the part allows
 * (PDF/A-1: before ICC v4; later parts: up to v4); in PDF/A-1 its N must match
 * the profile. ICCBased CMYK shall not be painted with overprint on in overprint
 * mode 1, and in PDF/A-4 a CMYK profile shall not repeat the output intent's or
 * the blending group's own profile.
 */
import { collected } from '../content-pass';
import type { ValidationModel } from '../model';
import { eachOf, type Rule } from '../rule';
import { colourUse, type IccUse } from './colour-use';
import { iccComponents, iccHeader, intentForPage, sameProfile } from './icc-profile';
import { getNumber } from '../../core/pdf-objects';

const INPUT_CLASSES = ['prtr', 'mntr', 'scnr', 'spac'];
const INPUT_SPACES = ['RGB ', 'CMYK', 'GRAY', 'Lab '];

const usedProfiles = (m: ValidationModel): IccUse[] => [...collected(m, colourUse).icc.values()];
const firstPage = (u: IccUse): number => Math.min(...u.pages);

export const ICC_RULES: readonly Rule[] = [
  {
    id: 'pdfa.colour.icc-profile',
    clauses: { 1: '6.2.3.2', 2: '6.2.4.2', 3: '6.2.4.2', 4: '6.2.4.2' },
    description: (p) =>
      `The profile of every ICCBased colour space shall be a valid ICC input, output, monitor or colour space profile of a Gray, RGB, CMYK or Lab colour space, of ICC version ${p.part === 1 ? '2.x or earlier' : '4.x or earlier'}.`,
    test: (m, p) =>
      eachOf(
        usedProfiles(m),
        (u) => {
          const h = iccHeader(u.stream);
          return h !== null && INPUT_CLASSES.includes(h.deviceClass) && INPUT_SPACES.includes(h.colourSpace) && h.major < (p.part === 1 ? 3 : 5);
        },
        (u) => {
          const h = iccHeader(u.stream);
          const objectNumber = m.objectNumbers.of(u.stream);
          return {
            page: firstPage(u),
            ...(objectNumber !== undefined ? { objectNumber } : {}),
            context: h ? `ICC profile class "${h.deviceClass}", colour space "${h.colourSpace.trim()}", version ${h.version}` : 'the ICCBased stream is not a readable ICC profile',
          };
        },
      ),
  },
  {
    id: 'pdfa.colour.icc-components',
    clauses: { 1: '6.2.3.2' },
    description: 'The N entry of every ICCBased colour space shall match the number of components of its ICC profile\'s colour space (1, 3 or 4).',
    test: (m) =>
      eachOf(
        usedProfiles(m).filter((u) => iccHeader(u.stream) !== null),
        (u) => {
          const n = getNumber(u.stream.dict, 'N');
          const cs = iccHeader(u.stream)!.colourSpace;
          return n !== undefined && [1, 3, 4].includes(n) && iccComponents(cs) === n && cs !== 'CMY ' && cs !== 'XYZ ';
        },
        (u) => {
          const objectNumber = m.objectNumbers.of(u.stream);
          return {
            page: firstPage(u),
            ...(objectNumber !== undefined ? { objectNumber } : {}),
            context: `N is ${getNumber(u.stream.dict, 'N') ?? 'missing'}; the profile's colour space is "${iccHeader(u.stream)!.colourSpace.trim()}"`,
          };
        },
      ),
  },
  {
    id: 'pdfa.colour.icc-cmyk-overprint',
    clauses: { 2: '6.2.4.2', 3: '6.2.4.2', 4: '6.2.4.2' },
    description: 'Overprint mode 1 (OPM in an ExtGState) shall not be in effect when an ICCBased CMYK colour space is painted with overprinting turned on.',
    test: (m) => {
      const uses = collected(m, colourUse).overprint;
      return { checked: uses.length, failures: uses.map((u) => ({ page: u.page, context: `ICCBased CMYK ${u.what} with overprint on and OPM 1${u.count > 1 ? ` (${u.count}×)` : ''}` })) };
    },
  },
  destinationRule('pdfa.colour.icc-cmyk-destination', '6.2.4.2', 'An ICCBased colour space', () => true),
  destinationRule('pdfa.colour.alternate-icc-destination', '6.2.4.4', 'The ICCBased alternate space of a Separation or DeviceN colour space', (u) => u.asAlternate),
];

/** PDF/A-4 6.2.4.2: a CMYK profile identical to the output intent's or the blending group's profile. */
function destinationRule(id: string, clause: string, what: string, keep: (u: IccUse) => boolean): Rule {
  return {
    id,
    clauses: { 4: clause },
    description: `${what} shall not use a CMYK profile identical to the profile of the PDF/A output intent or of the transparency group blending space in effect.`,
    test: (m, p) =>
      eachOf(
        usedProfiles(m).filter((u) => u.asColour && keep(u) && iccHeader(u.stream)?.colourSpace === 'CMYK'),
        (u) => {
          for (const page of u.pages) {
            const oi = intentForPage(m, page, p.part)?.profile;
            if (oi && sameProfile(u.stream, oi)) return false;
          }
          for (const g of u.groupProfiles) if (sameProfile(u.stream, g)) return false;
          return true;
        },
        (u) => {
          const objectNumber = m.objectNumbers.of(u.stream);
          return { page: firstPage(u), ...(objectNumber !== undefined ? { objectNumber } : {}), context: 'ICCBased CMYK profile identical to the output intent or blending space profile' };
        },
      ),
  };
}
