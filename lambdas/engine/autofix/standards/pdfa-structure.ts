/**
 * The structural part of pdfa.prepare: actions PDF/A forbids, interactive
 * leftovers (Requirements, alternate presentations, presentation steps,
 * NeedAppearances, XFA, NeedsRendering), and annotation flags and appearance
 * dictionaries reduced to the normal appearance. pdfa-prepare.ts describes
 * what each part asks and calls these in order.
 */
import { PDFDict, PDFNumber, type PDFDocument } from '@cantoo/pdf-lib';
import { inventoryActions } from '../../core/actions';
import { formFieldDicts } from '../../core/form-fields';
import { getBool, getDict, getName, getNumber, name, resolvedItems } from '../../core/pdf-objects';
import { removeActions } from '../fix-actions';

/** Action types each part permits (JavaScript is removed in every part, as actions.remove does). */
const ALLOWED_ACTIONS: Record<number, readonly string[]> = {
  1: ['GoTo', 'GoToR', 'Thread', 'URI', 'Named', 'SubmitForm'],
  2: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'],
  3: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'],
  4: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm', 'RichMediaExecute', 'GoToDp'],
};
const NAVIGATION = ['NextPage', 'PrevPage', 'FirstPage', 'LastPage'];
/** The additional-action triggers PDF/A-4 6.6.3 permits: the pointer entering, leaving, pressed, released, focus gained and lost. */
const PDFA4_AA_TRIGGERS = ['E', 'X', 'D', 'U', 'Fo', 'Bl'];
const FLAG = { invisible: 1, hidden: 2, print: 4, noView: 32, toggleNoView: 256 } as const;

export type Note = ((what: string, page?: number | null) => void) & { page: (page: number) => void };

export function removeForbiddenActions(doc: PDFDocument, part: number, note: Note): void {
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
  // PDF/A-4 lets other annotations keep additional actions on the triggers of the pointer and focus only.
  if (part === 4) {
    pageNodes.forEach((node, i) => {
      for (const annot of resolvedItems(doc.context, node.get(name('Annots')))) {
        if (!(annot instanceof PDFDict) || getName(annot, 'Subtype') === 'Widget') continue;
        const aa = getDict(annot, 'AA');
        if (!aa) continue;
        const other = aa.keys().filter((k) => !PDFA4_AA_TRIGGERS.includes(k.decodeText()));
        if (!other.length) continue;
        for (const k of other) aa.delete(k);
        if (aa.keys().length === 0) annot.delete(name('AA'));
        note(`annotation additional actions on ${other.map((k) => k.decodeText()).join(', ')} removed`, i + 1);
      }
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

export function removeInteractiveLeftovers(doc: PDFDocument, part: number, note: Note): void {
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

export function fixAnnotations(doc: PDFDocument, part: number, note: Note): void {
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

export function safePages(doc: PDFDocument): PDFDict[] {
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
