/**
 * The PDF/A output intent for pdfa.prepare: a GTS_PDFA1 intent whose
 * DestOutputProfile is a usable profile (output or display class; Gray, RGB or
 * CMYK; ICC version 2 for PDF/A-1, up to 4 for later parts), shared with any
 * other intent that has a profile (they must all refer to one object).
 *
 * In order of preference: the intent the file has, made indirect if need be;
 * the file's own usable profile from another intent; a built-in RGB profile
 * (rgb-profiles.ts) of the space the intent declares. A built-in profile is
 * used only where it states what the file already means: no intent at all
 * (sRGB), or a PDF/A intent whose profile is missing or unusable and whose
 * condition names sRGB, Adobe RGB (1998) or Apple RGB — in its
 * OutputConditionIdentifier, or, where that is empty or "Custom", in its
 * OutputCondition or Info — or names nothing (sRGB, as for no intent) — and
 * then only when the pages paint no uncalibrated CMYK (an RGB profile would
 * make that content fail, and a CMYK condition cannot be guessed). A file
 * whose declared condition is another colour space (a press condition, an RGB
 * space we do not build) keeps it, unusable profile and all: another profile
 * in its place would change what the file's device colours mean. Validation
 * then reports it.
 */
import { PDFDict, PDFStream, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { scanContent } from '../../core/content-scan';
import { createHash } from 'node:crypto';
import { getText, name, streamBytes } from '../../core/pdf-objects';
import { addOutputIntent, outputIntents, profileRef, type IntentEntry } from './document-parts';
import { RGB_SPACES, rgbProfile, SRGB, SRGB_CONDITION, type RgbSpace } from './rgb-profiles';

/** Makes sure a GTS_PDFA1 output intent with a usable profile exists; says what it did (one entry per change). */
export function ensureOutputIntent(doc: PDFDocument, part: number): string[] {
  const changes = [shareIdenticalProfiles(doc), dropProfileRefs(doc)].filter((c): c is string => c !== null);
  const main = ensurePdfaIntent(doc, part);
  return main ? [...changes, main] : changes;
}

/**
 * Intents whose profiles are copies of one another (byte for byte, as a file
 * with a PDF/X and a PDF/A intent often carries) are made to refer to the
 * first copy: PDF/A wants one profile object, and nothing changes in meaning.
 */
function shareIdenticalProfiles(doc: PDFDocument): string | null {
  const withProfile = outputIntents(doc).filter((i) => i.profile);
  if (withProfile.length < 2 || new Set(withProfile.map((i) => i.profile)).size < 2) return null;
  const digests = withProfile.map((i) => {
    const bytes = streamBytes(i.profile!);
    return bytes ? createHash('sha256').update(bytes).digest('hex') : null;
  });
  if (digests.some((d) => d === null) || new Set(digests).size !== 1) return null;
  const ref = profileRef(doc, withProfile[0]!)!;
  for (const i of withProfile.slice(1)) i.dict.set(name('DestOutputProfile'), ref);
  return 'output intents made to share their one profile';
}

/**
 * DestOutputProfileRef (an external profile, PDF/X-5) next to an embedded
 * DestOutputProfile is redundant — a reader uses the embedded one — and PDF/A
 * forbids it (on PDF/X intents for parts 2 and 3, on all for part 4). Without
 * an embedded profile it is the intent's only profile and stays.
 */
function dropProfileRefs(doc: PDFDocument): string | null {
  let dropped = 0;
  for (const i of outputIntents(doc)) {
    if (!i.profile || !i.dict.has(name('DestOutputProfileRef'))) continue;
    i.dict.delete(name('DestOutputProfileRef'));
    dropped++;
  }
  return dropped ? 'external profile reference (DestOutputProfileRef) removed beside the embedded profile' : null;
}

function ensurePdfaIntent(doc: PDFDocument, part: number): string | null {
  const intents = outputIntents(doc);
  const usable = (i: IntentEntry) => i.header !== null && ['prtr', 'mntr'].includes(i.header.deviceClass) && ['RGB ', 'CMYK', 'GRAY'].includes(i.header.colourSpace) && i.header.major <= (part === 1 ? 2 : 4);
  const pdfa = intents.find((i) => i.subtype === 'GTS_PDFA1');
  const withProfile = intents.filter((i) => i.profile);
  const donor = withProfile.find(usable);
  // Every intent with a profile must share one object: a second, different profile cannot be added.
  const distinct = new Set(withProfile.map((i) => i.profile));

  if (pdfa && pdfa.profile) {
    if (!usable(pdfa)) {
      // Replaced only when this intent alone has a profile and it declares a space we build (see the header).
      const space = distinct.size === 1 ? declaredSpace(pdfa) : null;
      if (!space || paintsCmyk(doc)) return null;
      pdfa.dict.set(name('DestOutputProfile'), profileStream(doc, space));
      return `output intent profile replaced by ${space.label} (the file's own was ${why(pdfa, part)})`;
    }
    if (pdfa.profileEntry instanceof PDFStream) {
      profileRef(doc, pdfa);
      return 'output intent profile made indirect';
    }
    return null;
  }
  if (pdfa) {
    if (donor && distinct.size === 1) {
      pdfa.dict.set(name('DestOutputProfile'), profileRef(doc, donor)!);
      return 'output intent profile added (the file\'s own)';
    }
    const space = withProfile.length === 0 ? declaredSpace(pdfa) : null;
    if (space && !paintsCmyk(doc)) {
      pdfa.dict.set(name('DestOutputProfile'), profileStream(doc, space));
      return `output intent profile added (${space.label})`;
    }
    return null;
  }
  if (donor && distinct.size === 1) {
    const ref = profileRef(doc, donor)!;
    const copy: Record<string, unknown> = { Type: 'OutputIntent', S: 'GTS_PDFA1', DestOutputProfile: ref };
    for (const k of ['OutputConditionIdentifier', 'OutputCondition', 'RegistryName', 'Info']) {
      const v = donor.dict.get(name(k));
      if (v !== undefined) copy[k] = v;
    }
    copy['OutputConditionIdentifier'] ??= PDFString.of('Custom');
    addOutputIntent(doc, dictOf(doc, copy));
    return 'PDF/A output intent added (the file\'s own profile)';
  }
  if (withProfile.length > 0) return null;
  addOutputIntent(
    doc,
    dictOf(doc, {
      Type: 'OutputIntent',
      S: 'GTS_PDFA1',
      OutputConditionIdentifier: PDFString.of(SRGB_CONDITION),
      RegistryName: PDFString.of('http://www.color.org'),
      Info: PDFString.of(SRGB_CONDITION),
      DestOutputProfile: profileStream(doc, SRGB),
    }),
  );
  return 'PDF/A output intent added (sRGB)';
}

/**
 * The RGB space the intent declares, when we build its profile: the space its
 * OutputConditionIdentifier names; where that is empty or "Custom" (ISO
 * 15930's word for "see the profile"), the space its OutputCondition or Info
 * names, else sRGB (nothing is declared, and sRGB is what an RGB file without
 * a condition means). An identifier naming anything else (a press condition,
 * another RGB space) is a declaration we cannot honour: null. So is a
 * readable profile header of another device space (CMYK, Gray), which says
 * what was meant; one of no device space (Lab, garbage) says nothing.
 */
function declaredSpace(intent: IntentEntry): RgbSpace | null {
  const space = intent.header?.colourSpace;
  if (space === 'CMYK' || space === 'GRAY') return null;
  const text = (key: string) => (getText(intent.dict, key) ?? '').trim();
  const named = (t: string) => RGB_SPACES.find((s) => s.names.test(t)) ?? null;
  const id = text('OutputConditionIdentifier');
  if (id !== '' && !/^custom$/i.test(id)) return named(id);
  return named(text('OutputCondition')) ?? named(text('Info')) ?? SRGB;
}

/** The pages paint DeviceCMYK that no DefaultCMYK replaces (an sRGB intent would leave it uncalibrated). */
function paintsCmyk(doc: PDFDocument): boolean {
  try {
    return (scanContent(doc).deviceColours.get('DeviceCMYK')?.undefaultedPages.size ?? 0) > 0;
  } catch {
    return true; // unreadable content: do not guess
  }
}

function why(intent: IntentEntry, part: number): string {
  const h = intent.header;
  if (!h) return 'not a readable ICC profile';
  if (!['prtr', 'mntr'].includes(h.deviceClass)) return `of device class "${h.deviceClass.trim()}"`;
  if (!['RGB ', 'CMYK', 'GRAY'].includes(h.colourSpace)) return `of colour space "${h.colourSpace.trim()}"`;
  return `ICC version ${h.version}, above the ${part === 1 ? '2' : '4'} PDF/A-${part} allows`;
}

function dictOf(doc: PDFDocument, entries: Record<string, unknown>): PDFDict {
  return doc.context.obj(entries as never) as unknown as PDFDict;
}

function profileStream(doc: PDFDocument, space: RgbSpace) {
  return doc.context.register(doc.context.flateStream(rgbProfile(space), { N: 3 }));
}
