/**
 * pdfa.prepare: does what an archive copy needs beyond its content, so that a
 * file whose only PDF/A failures are declarations and structure becomes
 * PDF/A-1b, -2b or -3b:
 *
 * - header: a version the part allows (%PDF-1.n; PDF/A-1 any 1.n, later parts
 *   1.0–1.7), with the binary comment pdf-lib always writes after it;
 * - trailer ID; (encryption: the engine always saves decrypted);
 * - actions: JavaScript and launch actions (actions.remove's code), every other
 *   action type the part does not permit, named actions other than page
 *   navigation, additional-actions where the part forbids them, and actions of
 *   form fields and their widgets;
 * - interactive leftovers the parts forbid: Requirements, AlternatePresentations,
 *   PresSteps, NeedAppearances (only when every widget has an appearance, so
 *   nothing needs regenerating), and XFA (only a static form, NeedsRendering not set);
 * - annotations: Print set and Hidden, Invisible, NoView and ToggleNoView cleared;
 *   appearance dictionaries reduced to the normal appearance (N);
 * - an output intent GTS_PDFA1: the file's own profile when another intent has a
 *   usable one, else the built-in sRGB profile (srgb-profile.ts);
 * - XMP: pdfaid:part and pdfaid:conformance, Info and XMP in agreement (metadata.sync's code);
 *   properties of the catalog's packet PDF/A rejects (a value of the wrong type for
 *   its schema, or a property no predefined schema of the part's XMP edition nor an
 *   extension schema of the packet defines) are removed, judged by the validator's
 *   own helpers (xmp-allowed.ts) so that nothing the validator accepts goes. The
 *   properties metadata.sync writes are instead written again in their proper form.
 *
 * Content stays as it is: fonts, colour spaces, transparency (PDF/A-1), images,
 * layers, embedded files and annotations without an appearance are not
 * touched, and whatever of them breaks the part remains a failure that
 * validation reports. The fix never claims compliance; it only writes the
 * identification the standard asks for.
 *
 * Appearance: 'intended' — an annotation that did not print now prints, and a
 * hidden one now shows (the standard leaves no other choice but removing it).
 */
import { PDFDict, PDFNumber, PDFStream, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { inventoryActions } from '../../core/actions';
import { getBool, getDict, getName, getNumber, getText, name, resolvedItems } from '../../core/pdf-objects';
import { NS } from '../../validate/metadata/schemas';
import { removeActions } from '../fix-actions';
import { formFieldDicts } from '../../core/form-fields';
import type { FixOutcome } from '../fix';
import { addOutputIntent, ensureTrailerId, headerVersion, outputIntents, profileRef, setHeaderVersion, type IntentEntry } from './document-parts';
import { isSyncOwned, readCatalogPacket, syncMetadata } from './metadata-sync';
import { disallowedProperties, editionForPart } from './xmp-allowed';
import { SRGB_CONDITION, srgbProfile } from './srgb-profile';
import { xmpValue } from './xmp-writer';
import type { XmpPacket } from '../../validate/metadata/xmp-model';

export interface PdfaPrepareOptions {
  part: number;
  conformance: string;
  now?: () => Date;
}

export const PDFA_PARTS = [1, 2, 3] as const;
export const PDFA_CONFORMANCE = ['b'] as const;

const ALLOWED_ACTIONS: Record<number, readonly string[]> = {
  1: ['GoTo', 'GoToR', 'Thread', 'URI', 'Named', 'SubmitForm'],
  2: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'],
  3: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'],
};
const NAVIGATION = ['NextPage', 'PrevPage', 'FirstPage', 'LastPage'];
const FLAG = { invisible: 1, hidden: 2, print: 4, noView: 32, toggleNoView: 256 } as const;

export function preparePdfa(doc: PDFDocument, opts: PdfaPrepareOptions): FixOutcome {
  const part = opts.part;
  const conformance = String(opts.conformance).toLowerCase();
  if (!PDFA_PARTS.includes(part as 1 | 2 | 3) || !PDFA_CONFORMANCE.includes(conformance as 'b')) {
    return { count: 0, pages: [], detail: 'nothing prepared', skipReason: `PDF/A-${part}${conformance} is not a level this fix prepares (it prepares PDF/A-1b, 2b and 3b).` };
  }
  const done: string[] = [];
  const pages = new Set<number>();
  const note: Note = Object.assign(
    (what: string, page?: number | null) => {
      done.push(what);
      if (page) pages.add(page);
    },
    { page: (page: number) => void pages.add(page) },
  );

  // Header: PDF/A-2 and -3 are based on ISO 32000-1 (PDF 1.7 at most); PDF/A-1 only asks for "%PDF-1.n".
  const [major, minor] = headerVersion(doc);
  if (major !== 1 || (part > 1 && minor > 7)) {
    setHeaderVersion(doc, 1, part === 1 ? 4 : 7);
    note('header version');
  }
  if (ensureTrailerId(doc)) note('trailer ID');

  removeForbiddenActions(doc, part, note);
  removeInteractiveLeftovers(doc, part, note);
  fixAnnotations(doc, part, note);
  const intent = ensureOutputIntent(doc, part);
  if (intent) note(intent);

  // Judged on the packet as it is: the sync changes only the properties it owns and pdfaid, which are not judged
  // here, and never the extension schemas the judgement depends on. Keyed by namespace and name, as the sync keys them.
  const packet = firstOccurrences(readCatalogPacket(doc));
  const rejected = packet ? disallowedProperties(packet, editionForPart(part)).filter((d) => !isSyncOwned(d.property)) : [];
  const rejectedKeys = new Set(rejected.map((d) => `${d.property.ns} ${d.property.name}`));
  const metadata = syncMetadata(doc, {
    now: opts.now,
    set: [xmpValue.text(NS.pdfaid, 'pdfaid', 'part', String(part)), xmpValue.text(NS.pdfaid, 'pdfaid', 'conformance', conformance.toUpperCase())],
    // Other identification properties (amd, rev, corr) describe an earlier claim.
    remove: (p) => (p.ns === NS.pdfaid && p.name !== 'part' && p.name !== 'conformance') || rejectedKeys.has(`${p.ns} ${p.name}`),
    touched: done.length > 0 || rejected.length > 0,
  });
  // The sync lists each removal; they are reported once, together, below.
  const removedNames = new Set(rejected.map((d) => `XMP ${d.property.prefix}:${d.property.name} removed`));
  for (const c of metadata.changes) if (!removedNames.has(c)) note(c);
  if (rejected.length) {
    const names = [...new Set(rejected.map((d) => `${d.property.prefix}:${d.property.name}`))];
    note(`removed ${names.length} XMP ${names.length === 1 ? 'property' : 'properties'} PDF/A does not allow: ${names.join(', ')}`);
  }

  return {
    count: done.length,
    pages: [...pages].sort((a, b) => a - b),
    detail: done.length
      ? `PDF/A-${part}${conformance.toUpperCase()} declarations and structure: ${done.join('; ')}. Content (fonts, colour, transparency, images, embedded files) is unchanged; validation reports what still fails.`
      : `already prepared for PDF/A-${part}${conformance.toUpperCase()}`,
  };
}

/** The packet as the sync keeps it: XMP allows a property once, and the sync keeps its first occurrence. */
function firstOccurrences(packet: XmpPacket | null): XmpPacket | null {
  if (!packet) return null;
  const seen = new Set<string>();
  return { ...packet, properties: packet.properties.filter((p) => !seen.has(`${p.ns} ${p.name}`) && !!seen.add(`${p.ns} ${p.name}`)) };
}

type Note = ((what: string, page?: number | null) => void) & { page: (page: number) => void };

function removeForbiddenActions(doc: PDFDocument, part: number, note: Note): void {
  // JavaScript and launch actions: the same removal as actions.remove.
  const js = removeActions(doc);
  for (let i = 0; i < js.count; i++) note('JavaScript or launch action removed', js.pages[i] ?? null);
  js.pages.forEach((p) => note.page(p));
  done: for (;;) {
    // Removing one site detaches its Next chain too; take a fresh inventory after each removal.
    for (const site of inventoryActions(doc).sites) {
      const forbiddenType = !ALLOWED_ACTIONS[part]!.includes(site.type);
      const forbiddenNamed = site.type === 'Named' && !NAVIGATION.includes(getName(site.action, 'N') ?? '');
      if (!forbiddenType && !forbiddenNamed) continue;
      site.remove();
      note(`${site.type} action removed`, site.page);
      continue done;
    }
    break;
  }

  // Additional actions: the catalog's always, the pages' from PDF/A-2 on.
  const catalog = doc.catalog as PDFDict;
  if (catalog.has(name('AA'))) {
    catalog.delete(name('AA'));
    note('document additional actions removed');
  }
  const pageNodes = safePages(doc);
  if (part > 1) {
    pageNodes.forEach((node, i) => {
      if (!node.has(name('AA'))) return;
      node.delete(name('AA'));
      note('page additional actions removed', i + 1);
    });
  }
  // Form fields and their widgets act on their own (A, AA): PDF/A lets a form be read, not run.
  pageNodes.forEach((node, i) => {
    for (const annot of resolvedItems(doc.context, node.get(name('Annots')))) {
      if (!(annot instanceof PDFDict) || getName(annot, 'Subtype') !== 'Widget') continue;
      for (const k of ['A', 'AA']) {
        if (!annot.has(name(k))) continue;
        annot.delete(name(k));
        note(`widget ${k === 'A' ? 'action' : 'additional actions'} removed`, i + 1);
      }
    }
  });
  for (const field of formFields(doc)) {
    for (const k of part === 1 ? ['AA'] : ['A', 'AA']) {
      if (!field.has(name(k))) continue;
      field.delete(name(k));
      note(`form field ${k === 'A' ? 'action' : 'additional actions'} removed`);
    }
  }
}

function removeInteractiveLeftovers(doc: PDFDocument, part: number, note: Note): void {
  const catalog = doc.catalog as PDFDict;
  if (part > 1) {
    if (catalog.has(name('Requirements'))) {
      catalog.delete(name('Requirements'));
      note('Requirements removed');
    }
    const names = getDict(catalog, 'Names');
    if (names?.has(name('AlternatePresentations'))) {
      names.delete(name('AlternatePresentations'));
      note('AlternatePresentations removed');
    }
    safePages(doc).forEach((node, i) => {
      if (!node.has(name('PresSteps'))) return;
      node.delete(name('PresSteps'));
      note('presentation steps removed', i + 1);
    });
  }
  const acroForm = getDict(catalog, 'AcroForm');
  if (!acroForm) return;
  // Without NeedAppearances a viewer draws the widgets' own appearances: only safe when every widget has one.
  if (getBool(acroForm, 'NeedAppearances') === true && widgets(doc).every((w) => w.has(name('AP')))) {
    acroForm.delete(name('NeedAppearances'));
    note('NeedAppearances removed');
  }
  // A static XFA form has its AcroForm twin; a dynamic one (NeedsRendering) has nothing else to show, so it stays.
  if (part > 1 && acroForm.has(name('XFA')) && getBool(catalog, 'NeedsRendering') !== true) {
    acroForm.delete(name('XFA'));
    note('XFA form data removed (the AcroForm fields remain)');
  }
  if (part > 1 && catalog.has(name('NeedsRendering')) && getBool(catalog, 'NeedsRendering') !== true) {
    catalog.delete(name('NeedsRendering'));
    note('NeedsRendering removed');
  }
}

function fixAnnotations(doc: PDFDocument, part: number, note: Note): void {
  const seen = new Set<PDFDict>();
  safePages(doc).forEach((node, i) => {
    for (const annot of resolvedItems(doc.context, node.get(name('Annots')))) {
      if (!(annot instanceof PDFDict) || seen.has(annot)) continue;
      seen.add(annot);
      const subtype = getName(annot, 'Subtype');
      const raw = annot.has(name('F')) ? getNumber(annot, 'F') : undefined;
      // PDF/A-2 and -3 exempt a Popup from needing flags, not from having the right ones.
      if (raw !== undefined || part === 1 || subtype !== 'Popup') {
        const flags = raw !== undefined && Number.isInteger(raw) ? raw : 0;
        const wanted = (flags | FLAG.print) & ~(FLAG.hidden | FLAG.invisible | FLAG.noView | FLAG.toggleNoView);
        if (raw !== wanted) {
          annot.set(name('F'), PDFNumber.of(wanted));
          note('annotation flags set', i + 1);
        }
      }
      // Rollover and down appearances go; the normal one is what PDF/A shows.
      const ap = getDict(annot, 'AP');
      if (ap && ap.has(name('N'))) {
        const extra = ap.keys().filter((k) => k.decodeText() !== 'N');
        if (extra.length) {
          for (const k of extra) ap.delete(k);
          note('annotation appearance reduced to N', i + 1);
        }
      }
    }
  });
}

/** Makes sure a GTS_PDFA1 output intent with a usable profile exists; says what it did, or null. */
function ensureOutputIntent(doc: PDFDocument, part: number): string | null {
  const intents = outputIntents(doc);
  const usable = (i: IntentEntry) => i.header !== null && ['prtr', 'mntr'].includes(i.header.deviceClass) && ['RGB ', 'CMYK', 'GRAY'].includes(i.header.colourSpace) && i.header.major <= (part === 1 ? 2 : 4);
  const pdfa = intents.find((i) => i.subtype === 'GTS_PDFA1');
  const withProfile = intents.filter((i) => i.profile);
  const donor = withProfile.find(usable);
  // Every intent with a profile must share one object: a second, different profile cannot be added.
  const distinct = new Set(withProfile.map((i) => i.profile));

  if (pdfa && pdfa.profile) {
    if (!usable(pdfa)) return null; // its profile breaks the part: replacing it would change the declared condition
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
    const id = getText(pdfa.dict, 'OutputConditionIdentifier') ?? '';
    if (withProfile.length === 0 && (id === '' || /srgb/i.test(id))) {
      pdfa.dict.set(name('DestOutputProfile'), srgbStream(doc));
      return 'output intent profile added (sRGB)';
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
      DestOutputProfile: srgbStream(doc),
    }),
  );
  return 'PDF/A output intent added (sRGB)';
}

function dictOf(doc: PDFDocument, entries: Record<string, unknown>): PDFDict {
  return doc.context.obj(entries as never) as unknown as PDFDict;
}

function srgbStream(doc: PDFDocument) {
  return doc.context.register(doc.context.flateStream(srgbProfile(), { N: 3 }));
}

function safePages(doc: PDFDocument): PDFDict[] {
  try {
    return doc.getPages().map((p) => p.node);
  } catch {
    return [];
  }
}

function widgets(doc: PDFDocument): PDFDict[] {
  const out: PDFDict[] = [];
  for (const node of safePages(doc)) {
    for (const a of resolvedItems(doc.context, node.get(name('Annots')))) if (a instanceof PDFDict && getName(a, 'Subtype') === 'Widget') out.push(a);
  }
  return out;
}

/** Every dictionary of the AcroForm field tree. */
const formFields = (doc: PDFDocument): PDFDict[] => formFieldDicts(doc.context, doc.catalog);
