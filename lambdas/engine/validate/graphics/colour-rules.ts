/**
 * Colour: PDF/A output intents and their ICC profiles, device colour spaces
 * against the output intent, ICC-based colour spaces, Separation and DeviceN.
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 */
import type { DeviceSpace } from '../../core/colour-spaces';
import { pdfaOutputIntent } from '../../core/output-intents';
import { condition, eachOf, type Rule } from '../rule';

export const COLOUR_RULES: readonly Rule[] = [
  {
    id: 'pdfa.output-intent.profile',
    clauses: { 1: '6.2.2', 2: '6.2.3', 3: '6.2.3', 4: '6.2.3' },
    description: 'A PDF/A output intent (S GTS_PDFA1) shall have a DestOutputProfile that is an output (prtr) or monitor (mntr) ICC profile of an RGB, CMYK or Gray colour space.',
    test: (f) =>
      eachOf(
        f.facts.outputIntents.filter((oi) => oi.subtype === 'GTS_PDFA1'),
        (oi) => oi.profile !== null && ['prtr', 'mntr'].includes(oi.profile.deviceClass) && ['RGB ', 'CMYK', 'GRAY'].includes(oi.profile.colourSpace),
        (oi) => ({
          ...(oi.profileObjectNumber ? { objectNumber: oi.profileObjectNumber } : {}),
          context: oi.hasProfile ? (oi.profile ? `profile class "${oi.profile.deviceClass}", colour space "${oi.profile.colourSpace.trim()}"` : 'DestOutputProfile is not a readable ICC profile') : 'output intent has no DestOutputProfile',
        }),
      ),
  },
  {
    id: 'pdfa.output-intent.single-profile',
    clauses: { 1: '6.2.2', 2: '6.2.3', 3: '6.2.3', 4: '6.2.3' },
    description: 'When there are several output intents, all those with a DestOutputProfile shall refer to the same profile object.',
    test: (f) => {
      const withProfile = f.facts.outputIntents.filter((oi) => oi.hasProfile);
      const refs = new Set(withProfile.map((oi) => oi.profileObjectNumber));
      const ok = withProfile.length <= 1 || (refs.size === 1 && !refs.has(null));
      return condition(ok, { context: `${withProfile.length} output intents with ${refs.size} different DestOutputProfile objects` });
    },
  },
  {
    id: 'pdfa.output-intent.no-profile-ref',
    clauses: { 2: '6.2.3', 3: '6.2.3', 4: '6.2.3' },
    description: 'No output intent shall use the DestOutputProfileRef key (an external profile).',
    test: (f, p) =>
      eachOf(
        f.facts.outputIntents.filter((oi) => p.part === 4 || oi.subtype === 'GTS_PDFX'),
        (oi) => !oi.hasProfileRef,
        (oi) => ({ context: `${oi.subtype ?? 'output'} intent uses DestOutputProfileRef` }),
      ),
  },
  deviceColourRule('DeviceRGB', 'RGB ', 'an RGB'),
  deviceColourRule('DeviceCMYK', 'CMYK', 'a CMYK'),
  deviceColourRule('DeviceGray', null, 'any'),
];

function deviceColourRule(space: DeviceSpace, profileSpace: string | null, what: string): Rule {
  return {
    id: `pdfa.colour.${space.replace('Device', '').toLowerCase()}`,
    clauses: { 1: '6.2.3.3', 2: '6.2.4.3', 3: '6.2.4.3', 4: '6.2.4.3' },
    description: (p) =>
      `${space} shall only be used when the file has a PDF/A output intent with ${what} ICC profile${p.part === 1 ? '' : ` or a Default${space.replace('Device', '')} colour space replaces it`}. (Proofline follows page content, form XObjects, images, inline images, shadings and annotation appearances.)`,
    test: (f, p) => {
      const use = f.usage.deviceColours.get(space);
      const pages = [...((p.part === 1 ? use?.pages : use?.undefaultedPages) ?? [])].sort((a, b) => a - b);
      const oi = pdfaOutputIntent(f.facts.outputIntents);
      const oiSpace = oi?.profile?.colourSpace ?? null;
      const ok = profileSpace === null ? oi !== undefined && oi.hasProfile : oiSpace === profileSpace;
      const context = oi ? `${space} used; the PDF/A output intent profile is ${oiSpace?.trim() ?? 'missing'}` : `${space} used without a PDF/A output intent`;
      return { checked: pages.length, failures: ok ? [] : pages.map((page) => ({ page, context })) };
    },
  };
}
