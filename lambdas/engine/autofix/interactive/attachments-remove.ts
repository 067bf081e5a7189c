/**
 * attachments.remove: takes every embedded file out of the document — the
 * catalog's EmbeddedFiles name tree, FileAttachment annotations (the file and
 * its icon on the page), and associated files (/AF, PDF 2.0 and PDF/A-3) on
 * the catalog, pages and any other object that names them. A portfolio's
 * /Collection goes with its files, and a PageMode opening the attachments
 * panel falls back to the default.
 *
 * The page prints as before: a FileAttachment annotation whose icon prints
 * (its Print flag set, an appearance to draw) has that appearance drawn into
 * the page, as annotations.flatten would, before the annotation goes — the
 * attachment lives only in the annotation, so the annotation itself cannot
 * stay. Icons that do not print disappear from the screen with it. An icon
 * that cannot be placed (no usable appearance, NoRotate on a rotated page)
 * goes with its annotation, and the detail counts it.
 *
 * Left alone: file specifications inside actions (GoToE, Launch, RichMedia) —
 * actions.remove and the reader's own policy handle those.
 */
import { PDFArray, PDFDict, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { nameTreeLeaves } from '../../core/actions';
import { readPageBoxes } from '../../core/page-boxes';
import { getDict, getName, name, resolve, resolvedItems } from '../../core/pdf-objects';
import type { FixOutcome } from '../fix';
import { dropStructReferences, removeFromPage } from './annotation-removal';
import { flagsOf, NO_ROTATE, normalAppearance, PageDrawer, pageAnnotations, placement, printState } from './appearance-placement';

export function removeAttachments(doc: PDFDocument): FixOutcome {
  const context = doc.context;
  const catalog = doc.catalog;
  const specs = new Set<PDFObject>();
  const pages = new Set<number>();
  let annotations = 0;
  let iconsKept = 0;
  let iconsLost = 0;

  // The EmbeddedFiles name tree: its file specifications are counted, then the tree goes.
  const names = getDict(catalog, 'Names');
  const tree = getDict(names, 'EmbeddedFiles');
  let treeRemoved = false;
  if (names && names.has(name('EmbeddedFiles'))) {
    treeRemoved = true;
    if (tree) {
      for (const leaf of nameTreeLeaves(context, tree)) {
        const entries = resolvedItems(context, leaf.get(name('Names')));
        for (let i = 1; i < entries.length; i += 2) specs.add(entries[i]!);
      }
    }
    names.delete(name('EmbeddedFiles'));
    // An empty name dictionary says nothing; removing it keeps the catalog tidy.
    if (names.keys().length === 0) catalog.delete(name('Names'));
  }

  // FileAttachment annotations (and popups that belong to them).
  const removedAll = new Set<PDFDict>();
  doc.getPages().forEach((p, i) => {
    const removed = new Set<PDFDict>();
    const annots = pageAnnotations(context, p.node);
    const drawer = new PageDrawer(doc, p.node);
    const rotated = readPageBoxes(context, p.node).rotation !== 0;
    for (const annot of annots) {
      if (getName(annot, 'Subtype') !== 'FileAttachment') continue;
      removed.add(annot);
      annotations++;
      const fs = resolve(context, annot.get(name('FS')));
      if (fs !== undefined) specs.add(fs);
      if (printState(annot) === 'never') continue;
      const ap = normalAppearance(context, annot);
      if (ap.kind === 'empty') continue;
      const at = ap.kind === 'stream' && !(rotated && flagsOf(annot) & NO_ROTATE) ? placement(context, annot, ap.stream) : null;
      if (ap.kind === 'stream' && at) {
        drawer.draw(ap.stream, ap.ref, at, annot.get(name('OC')));
        iconsKept++;
      } else iconsLost++;
    }
    if (drawer.commit()) pages.add(i + 1);
    for (const annot of annots) {
      const parent = resolve(context, annot.get(name('Parent')));
      if (getName(annot, 'Subtype') === 'Popup' && parent instanceof PDFDict && removed.has(parent)) removed.add(annot);
    }
    if (removeFromPage(context, p.node, removed) > 0) pages.add(i + 1);
    for (const r of removed) removedAll.add(r);
  });
  dropStructReferences(doc, removedAll);

  // Associated files: /AF may sit on the catalog, pages, annotations, XObjects, structure elements…
  // Every dictionary that is an object of its own (or a stream's) is visited; page dictionaries are among them.
  const pageNumber = new Map<PDFDict, number>(doc.getPages().map((p, i) => [p.node, i + 1]));
  const holders: PDFDict[] = [catalog];
  for (const [, obj] of context.enumerateIndirectObjects()) {
    if (obj instanceof PDFDict) holders.push(obj);
    else if (obj instanceof PDFStream) holders.push(obj.dict);
  }
  let afArrays = 0;
  for (const holder of holders) {
    const af = holder.get(name('AF'));
    if (af === undefined) continue;
    const arr = resolve(context, af);
    for (const s of arr instanceof PDFArray ? resolvedItems(context, arr) : [arr]) if (s !== undefined) specs.add(s);
    holder.delete(name('AF'));
    afArrays++;
    const pg = pageNumber.get(holder);
    if (pg !== undefined) pages.add(pg);
  }

  const changed = treeRemoved || annotations > 0 || afArrays > 0;
  if (!changed) return { count: 0, pages: [], detail: 'no attached files' };
  if (catalog.has(name('Collection'))) catalog.delete(name('Collection'));
  if (getName(catalog, 'PageMode') === 'UseAttachments') catalog.delete(name('PageMode'));
  const icons = [
    iconsKept > 0 && `${iconsKept} printing icon(s) drawn into the page`,
    iconsLost > 0 && `${iconsLost} printing icon(s) without a usable appearance removed with their annotation`,
  ].filter((t): t is string => typeof t === 'string');
  const detail = `${specs.size} attached file(s) removed (${annotations} file attachment annotation(s), ${afArrays} associated-files entr${afArrays === 1 ? 'y' : 'ies'})${icons.length ? `; ${icons.join('; ')}` : ''}`;
  // Something changed even when no file specification could be read (an empty tree, an annotation without /FS).
  return { count: Math.max(1, specs.size), pages: [...pages].sort((a, b) => a - b), detail };
}
