/**
 * PDF/A rules Proofline checks so far (ISO 19005-1, -2, -3, -4), as data plus a
 * predicate each. Clause numbers differ per part and are kept per rule. These
 * cover a fraction of each part, which is why no PDF/A profile can report
 * compliance yet (see validate/index.ts).
 */
import type { ActionSite } from '../core/actions';
import type { DeviceSpace } from '../core/colour-spaces';
import type { FontInfo } from '../core/fonts';
import { pdfaOutputIntent } from '../core/output-intents';
import { getName } from '../core/pdf-objects';
import type { ValidationFacts } from './facts';
import type { StandardProfile } from './profiles';
import { condition, eachOf, type Example, type Rule } from './rule';

const ALL = { 1: '', 2: '', 3: '', 4: '' };
/** A rule about an object the file does not have (its absence is another rule's failure). */
const NOTHING_TO_CHECK = { checked: 0, failures: [] };
const same = (clause: string) => Object.fromEntries(Object.keys(ALL).map((k) => [k, clause]));

const HEADER_PATTERN: Record<number, RegExp> = { 1: /^%PDF-\d\.\d$/, 2: /^%PDF-1\.[0-7]$/, 3: /^%PDF-1\.[0-7]$/, 4: /^%PDF-2\.\d$/ };

const ALLOWED_ACTIONS: Record<string, readonly string[]> = {
  1: ['GoTo', 'GoToR', 'Thread', 'URI', 'Named', 'SubmitForm'],
  2: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'],
  3: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'],
  4: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm', 'JavaScript', 'RichMediaExecute', 'GoToDp'],
  '4e': ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm', 'JavaScript', 'RichMediaExecute', 'GoToDp', 'SetOCGState', 'GoTo3DView'],
};
const NAMED_ACTIONS = ['NextPage', 'PrevPage', 'FirstPage', 'LastPage'];
/** PDF/A-4 6.6.3: the only trigger keys an AA dictionary (outside widgets and fields) may use. */
const PDFA4_AA_TRIGGERS = ['E', 'X', 'D', 'U', 'Fo', 'Bl'];

const actionExample = (a: ActionSite): Example => ({
  ...(a.page !== null ? { page: a.page } : {}),
  context: `${a.type} action (${a.location}${a.trigger ? ` ${a.trigger}` : ''})`,
});

export const PDFA_RULES: readonly Rule[] = [
  {
    id: 'pdfa.file.header',
    clauses: same('6.1.2'),
    description: (p) =>
      p.part === 4
        ? 'The file header shall begin at byte 0 and consist of "%PDF-2.n" followed by a single end-of-line marker.'
        : p.part === 1
          ? 'The % character of the file header shall occur at byte offset 0 of the file.'
          : 'The file header shall begin at byte 0 and consist of "%PDF-1.n" (n from 0 to 7) followed by a single end-of-line marker.',
    test: (f, p) => condition(f.pdf.header.offset === 0 && HEADER_PATTERN[p.part]!.test(f.pdf.header.line), { context: `header "${f.pdf.header.line}" at byte ${f.pdf.header.offset}` }),
  },
  {
    id: 'pdfa.file.binary-comment',
    clauses: same('6.1.2'),
    description: 'The header line shall be followed by a comment of a % character and at least four bytes with values above 127.',
    test: (f) => condition(f.pdf.header.binaryComment, { context: 'no binary comment after the header' }),
  },
  {
    id: 'pdfa.trailer.id',
    clauses: same('6.1.3'),
    description: 'The file trailer dictionary shall contain the ID keyword (file identifiers).',
    test: (f) => condition(f.facts.trailerId, { context: 'trailer has no ID' }),
  },
  {
    id: 'pdfa.trailer.encrypt',
    clauses: same('6.1.3'),
    description: 'The Encrypt key shall not be present in the trailer dictionary: the file shall not be encrypted.',
    test: (f) => condition(!f.facts.encrypted, { context: 'the file is encrypted' }),
  },
  {
    id: 'pdfa.optional-content',
    clauses: { 1: '6.1.13' },
    description: 'The document catalog shall not contain the OCProperties key (no optional content).',
    test: (f) => condition(!f.facts.optionalContent, { context: 'catalog has OCProperties' }),
  },
  {
    id: 'pdfa.embedded-files.forbidden',
    clauses: { 1: '6.1.11' },
    description: 'No file shall be embedded: file specifications shall not contain the EF key and the name dictionary shall not contain EmbeddedFiles.',
    test: (f) => {
      const failures: Example[] = f.embeddedFiles.map((e) => ({ ...(e.page ? { page: e.page } : {}), context: `embedded file "${e.name}"` }));
      if (f.hasEmbeddedFilesTree && failures.length === 0) failures.push({ context: 'name dictionary has EmbeddedFiles' });
      return { checked: Math.max(1, f.embeddedFiles.length), failures };
    },
  },
  {
    id: 'pdfa.embedded-files.pdfa-only',
    clauses: { 2: '6.8' },
    description: 'An embedded file shall be a PDF/A-1 or PDF/A-2 file. (Proofline checks the PDF/A claim of the embedded file, not its full compliance.)',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.isPdf && /^[12]/.test(e.pdfaClaim ?? ''), (e) => ({ context: `embedded file "${e.name}" ${e.isPdf ? (e.pdfaClaim ? `claims PDF/A-${e.pdfaClaim}` : 'claims no PDF/A conformance') : 'is not a PDF'}` })),
  },
  {
    id: 'pdfa.embedded-files.names',
    clauses: { 2: '6.8', 3: '6.8', 4: '6.9' },
    description: 'The file specification dictionary of an embedded file shall contain the F and UF keys.',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.hasF && e.hasUF, (e) => ({ context: `embedded file "${e.name}" lacks ${[!e.hasF && 'F', !e.hasUF && 'UF'].filter(Boolean).join(' and ')}` })),
  },
  {
    id: 'pdfa.embedded-files.mime-type',
    clauses: { 3: '6.8', 4: '6.9' },
    description: 'The MIME type of an embedded file shall be given by the Subtype key of its stream (application/octet-stream when unknown).',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.mimeType !== null && /^[-\w+.]+\/[-\w+.]+$/.test(e.mimeType), (e) => ({ context: `embedded file "${e.name}" has no valid MIME type` })),
  },
  {
    id: 'pdfa.embedded-files.relationship',
    clauses: { 3: '6.8', 4: '6.9' },
    description: 'The file specification dictionary of an embedded file shall contain an AFRelationship key.',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.afRelationship !== null, (e) => ({ context: `embedded file "${e.name}" has no AFRelationship` })),
  },
  {
    id: 'pdfa.embedded-files.required',
    clauses: { 4: '6.9' },
    levels: ['f'],
    description: 'A PDF/A-4f file shall contain an EmbeddedFiles key in the name dictionary of the document catalog.',
    test: (f) => condition(f.hasEmbeddedFilesTree, { context: 'no EmbeddedFiles in the name dictionary' }),
  },
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
  {
    id: 'pdfa.fonts.embedded',
    clauses: { 1: '6.3.4', 2: '6.2.11.4.1', 3: '6.2.11.4.1', 4: '6.2.10.4.1' },
    description: 'The font programs of all fonts used for rendering shall be embedded (text in rendering mode 3, invisible, is exempt).',
    test: (f) => eachOf(f.fonts.filter((u) => u.visible), (u) => u.info.embedded, (u) => ({ page: u.pages[0], ...(u.objectNumber ? { objectNumber: u.objectNumber } : {}), context: `font ${u.info.name} (${u.info.type}) is not embedded` })),
  },
  {
    id: 'pdfa.fonts.unicode',
    clauses: { 1: '6.3.8', 2: '6.2.11.7.2', 3: '6.2.11.7.2' },
    levels: ['a', 'u'],
    description: 'Every font shall map its character codes to Unicode, through a ToUnicode CMap or a standard encoding.',
    test: (f) => eachOf(f.fonts, (u) => mapsToUnicode(u.info), (u) => ({ page: u.pages[0], ...(u.objectNumber ? { objectNumber: u.objectNumber } : {}), context: `font ${u.info.name} has no ToUnicode map` })),
  },
  {
    id: 'pdfa.transparency.soft-mask',
    clauses: { 1: '6.4' },
    description: 'Soft masks shall not be used: an ExtGState SMask shall be None and XObjects shall not have an SMask.',
    test: (f) => transparencyCheck(f, (t) => t.softMask === null || t.softMask === 'None', (t) => `${t.kind === 'extgstate' ? 'graphics state' : 'XObject'} uses a soft mask`),
  },
  {
    id: 'pdfa.transparency.group',
    clauses: { 1: '6.4' },
    description: 'No form XObject or page shall have a transparency group (Group with S Transparency).',
    test: (f) => transparencyCheck(f, (t) => t.group !== 'Transparency', (t) => `${t.kind === 'page-group' ? 'page' : 'form XObject'} has a transparency group`),
  },
  {
    id: 'pdfa.transparency.alpha',
    clauses: { 1: '6.4' },
    description: 'Constant alpha (CA and ca in an ExtGState) shall be 1.0.',
    test: (f) =>
      transparencyCheck(f, (t) => t.kind !== 'extgstate' || ((t.fillAlpha ?? 1) === 1 && (t.strokeAlpha ?? 1) === 1), (t) => `graphics state sets alpha (ca ${t.fillAlpha ?? 1}, CA ${t.strokeAlpha ?? 1})`),
  },
  {
    id: 'pdfa.transparency.blend-mode',
    clauses: { 1: '6.4' },
    description: 'A blend mode (BM in an ExtGState) shall be Normal or Compatible.',
    test: (f) => transparencyCheck(f, (t) => t.blendModes.every((m) => m === 'Normal' || m === 'Compatible'), (t) => `graphics state uses blend mode ${t.blendModes.join(', ')}`),
  },
  {
    id: 'pdfa.actions.types',
    clauses: { 1: '6.6.1', 2: '6.5.1', 3: '6.5.1', 4: '6.6.1' },
    description: (p) => `Only these action types are permitted: ${allowedActions(p).join(', ')}.`,
    test: (f, p) => eachOf(f.actions.sites, (a) => allowedActions(p).includes(a.type), actionExample),
  },
  {
    id: 'pdfa.actions.named',
    clauses: { 1: '6.6.1', 2: '6.5.1', 3: '6.5.1', 4: '6.6.1' },
    description: 'Named actions other than NextPage, PrevPage, FirstPage and LastPage shall not be permitted.',
    test: (f) =>
      eachOf(
        f.actions.sites.filter((a) => a.type === 'Named'),
        (a) => NAMED_ACTIONS.includes(getName(a.action, 'N') ?? ''),
        (a) => ({ ...actionExample(a), context: `named action ${getName(a.action, 'N') ?? '(none)'}` }),
      ),
  },
  {
    id: 'pdfa.actions.widget',
    clauses: { 1: '6.6.1', 2: '6.4.1', 3: '6.4.1', 4: '6.4.1' },
    description: (p) => (p.part === 2 || p.part === 3 ? 'A Widget annotation shall not contain the A or AA keys.' : 'A Widget annotation (form field) shall not perform an action (A key).'),
    test: (f, p) =>
      eachOf(
        f.actions.sites.filter((a) => a.annotationSubtype === 'Widget' && !a.chained && (a.location === 'annotation-action' || ((p.part === 2 || p.part === 3) && a.location === 'annotation-additional-action'))),
        () => false,
        actionExample,
      ),
  },
  {
    id: 'pdfa.actions.additional',
    clauses: { 1: '6.6.2', 2: '6.5.2', 3: '6.5.2', 4: '6.6.3' },
    description: (p) =>
      p.part === 1
        ? 'The document catalog, Widget annotations and form fields shall not include an AA (additional-actions) entry.'
        : p.part === 4
          ? 'An AA entry of the catalog, a page or a non-Widget annotation shall only use the triggers E, X, D, U, Fo and Bl.'
          : 'The document catalog and page dictionaries shall not include an AA (additional-actions) entry.',
    test: (f, p) => {
      const holders = f.actions.additionalActions;
      const forbidden = holders.filter((h) => {
        if (p.part === 1) return h.location === 'catalog' || h.location === 'field' || h.annotationSubtype === 'Widget';
        if (p.part === 4) return h.location !== 'field' && h.annotationSubtype !== 'Widget' && h.triggers.some((t) => !PDFA4_AA_TRIGGERS.includes(t));
        return h.location === 'catalog' || h.location === 'page';
      });
      return { checked: Math.max(1, holders.length), failures: forbidden.map((h) => ({ ...(h.page ? { page: h.page } : {}), context: `${h.location} has additional actions (${h.triggers.join(', ')})` })) };
    },
  },
  {
    id: 'pdfa.metadata.present',
    clauses: { 1: '6.7.2', 2: '6.6.2.1', 3: '6.6.2.1', 4: '6.7.2.1' },
    description: 'The document catalog shall contain a Metadata stream with an XMP packet.',
    test: (f) => condition(f.facts.xmp.present && f.facts.xmp.readable, { context: f.facts.xmp.present ? 'the Metadata stream holds no readable XMP' : 'the catalog has no Metadata' }),
  },
  {
    id: 'pdfa.metadata.unfiltered',
    clauses: { 1: '6.7.2' },
    description: 'The catalog Metadata stream shall not contain the Filter key (it shall be uncompressed).',
    test: (f) => (f.facts.xmp.present ? condition(f.facts.xmp.filters.length === 0, { context: `Metadata stream is encoded with ${f.facts.xmp.filters.join(', ')}` }) : NOTHING_TO_CHECK),
  },
  {
    id: 'pdfa.metadata.packet-header',
    clauses: { 1: '6.7.5', 2: '6.6.2.1', 3: '6.6.2.1', 4: '6.7.2.1' },
    description: 'The XMP packet header shall not use the bytes or encoding attributes.',
    test: (f) => (f.facts.xmp.readable ? condition(f.facts.xmp.headerAttributes.length === 0, { context: `packet header has ${f.facts.xmp.headerAttributes.join(' and ')}` }) : NOTHING_TO_CHECK),
  },
  {
    id: 'pdfa.metadata.identification',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: 'The PDF/A part and conformance level shall be declared in XMP with the PDF/A identification schema (pdfaid).',
    test: (f) => condition(f.facts.xmp.pdfa?.part != null, { context: 'XMP has no pdfaid:part' }),
  },
  {
    id: 'pdfa.metadata.part',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: (p) => `The value of pdfaid:part shall be ${p.part}, the part the file conforms to.`,
    test: (f, p) => {
      const part = f.facts.xmp.pdfa?.part?.value;
      return condition(part?.trim() === String(p.part), { context: part ? `pdfaid:part is "${part}"` : 'pdfaid:part is missing' });
    },
  },
  {
    id: 'pdfa.metadata.conformance',
    clauses: { 1: '6.7.11', 2: '6.6.4', 3: '6.6.4', 4: '6.7.3' },
    description: (p) =>
      p.part === 4
        ? p.level
          ? `The value of pdfaid:conformance shall be ${p.level.toUpperCase()}.`
          : 'A file that conforms to neither PDF/A-4e nor PDF/A-4f shall not have pdfaid:conformance.'
        : `The value of pdfaid:conformance shall declare level ${p.level.toUpperCase()} or a level that includes it (${acceptedLevels(p).join(' or ')}).`,
    test: (f, p) => {
      const value = f.facts.xmp.pdfa?.conformance?.value.trim() ?? null;
      const ok = p.part === 4 ? (p.level ? value === p.level.toUpperCase() : value === null) : value !== null && acceptedLevels(p).includes(value);
      return condition(ok, { context: value === null ? 'pdfaid:conformance is missing' : `pdfaid:conformance is "${value}"` });
    },
  },
  {
    id: 'pdfa.metadata.revision',
    clauses: { 4: '6.7.3' },
    description: 'The value of pdfaid:rev shall be a four-digit year.',
    test: (f) => {
      const rev = f.facts.xmp.pdfa?.rev?.value.trim();
      return condition(rev !== undefined && /^\d{4}$/.test(rev), { context: rev ? `pdfaid:rev is "${rev}"` : 'pdfaid:rev is missing' });
    },
  },
  {
    id: 'pdfa.tagged.marked',
    clauses: { 1: '6.8.2.2', 2: '6.7.2.2', 3: '6.7.2.2' },
    levels: ['a'],
    description: 'The document catalog shall include a MarkInfo dictionary whose Marked entry is true.',
    test: (f) => condition(f.facts.markInfo?.marked === true, { context: f.facts.markInfo ? 'MarkInfo Marked is not true' : 'catalog has no MarkInfo' }),
  },
  {
    id: 'pdfa.tagged.structure',
    clauses: { 1: '6.8.3.3', 2: '6.7.3.3', 3: '6.7.3.3' },
    levels: ['a'],
    description: 'The logical structure shall be described by a structure hierarchy rooted in the catalog\'s StructTreeRoot.',
    test: (f) => condition(f.facts.structTreeRoot, { context: 'catalog has no StructTreeRoot' }),
  },
  {
    id: 'pdfa.lang.valid',
    clauses: { 1: '6.8.4', 2: '6.7.4', 3: '6.7.4' },
    levels: ['a'],
    description: 'A Lang entry in the document catalog shall be a language identifier (RFC 3066 / BCP 47). (Proofline checks the catalog\'s Lang only.)',
    test: (f) => condition(f.facts.lang === null || f.facts.lang === '' || /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/.test(f.facts.lang), { context: `Lang is "${f.facts.lang}"` }),
  },
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

function allowedActions(p: StandardProfile): readonly string[] {
  return ALLOWED_ACTIONS[p.part === 4 && p.level === 'e' ? '4e' : String(p.part)]!;
}

/** Levels that include the requested one: B ⊂ U ⊂ A (PDF/A-1 has no U). */
function acceptedLevels(p: StandardProfile): string[] {
  if (p.level === 'a') return ['A'];
  if (p.level === 'u') return ['U', 'A'];
  return p.part === 1 ? ['B', 'A'] : ['B', 'U', 'A'];
}

function transparencyCheck(f: ValidationFacts, ok: (t: ValidationFacts['transparency'][number]) => boolean, context: (t: ValidationFacts['transparency'][number]) => string) {
  return eachOf(f.transparency, ok, (t) => ({ page: t.pages[0], ...(t.objectNumber ? { objectNumber: t.objectNumber } : {}), context: context(t) }));
}

const STANDARD_ENCODINGS = ['WinAnsiEncoding', 'MacRomanEncoding', 'StandardEncoding', 'MacExpertEncoding'];
const PREDEFINED_CJK = ['Adobe-GB1', 'Adobe-CNS1', 'Adobe-Japan1', 'Adobe-Korea1'];

/** ToUnicode, or a mechanism of ISO 32000-1 9.10.2 that maps codes to Unicode without one. */
export function mapsToUnicode(font: FontInfo): boolean {
  if (font.hasToUnicode) return true;
  if (font.type === 'Type0') return font.cidOrdering !== null && PREDEFINED_CJK.includes(font.cidOrdering) && font.encoding !== null && !font.encoding.startsWith('Identity');
  if (font.type === 'Type3') return false;
  if (font.standard14 && (font.name === 'Symbol' || font.name === 'ZapfDingbats')) return true;
  return font.encoding !== null && STANDARD_ENCODINGS.includes(font.encoding) && !font.hasDifferences;
}
