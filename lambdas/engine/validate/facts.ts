/**
 * What validation rules look at, gathered once per file and shared by every
 * profile requested: document facts, the fonts content really uses, device
 * colour use, actions, embedded files and the transparency-related objects that
 * resources reach.
 */
import { PDFArray, PDFDict, PDFName, PDFStream, type PDFDocument } from '@cantoo/pdf-lib';
import { inventoryActions, type ActionInventory } from '../core/actions';
import { scanContent, type ContentUsage } from '../core/content-scan';
import { readDocumentFacts, type DocumentFacts } from '../core/document-facts';
import { readEmbeddedFiles, type EmbeddedFileInfo } from '../core/embedded-files';
import { describeFont, type FontInfo } from '../core/fonts';
import type { OpenedPdf } from '../core/load-pdf';
import { getDict, getName, getNumber, name, ObjectNumbers } from '../core/pdf-objects';
import { resourceEntries, resourcesByPage } from '../core/resource-walk';

export interface UsedFont {
  info: FontInfo;
  pages: number[];
  /** Shows text in a rendering mode other than 3 (invisible). */
  visible: boolean;
  objectNumber: number | undefined;
}

export interface TransparencyObject {
  kind: 'extgstate' | 'xobject' | 'page-group';
  pages: number[];
  objectNumber: number | undefined;
  softMask: string | null;
  fillAlpha: number | null;
  strokeAlpha: number | null;
  blendModes: string[];
  /** Group S value of a form XObject or page (Transparency). */
  group: string | null;
}

export interface ValidationFacts {
  pdf: OpenedPdf;
  doc: PDFDocument;
  facts: DocumentFacts;
  usage: ContentUsage;
  fonts: UsedFont[];
  actions: ActionInventory;
  embeddedFiles: EmbeddedFileInfo[];
  /** The catalog's name dictionary has an EmbeddedFiles entry. */
  hasEmbeddedFilesTree: boolean;
  transparency: TransparencyObject[];
  objectNumbers: ObjectNumbers;
}

export async function gatherValidationFacts(pdf: OpenedPdf): Promise<ValidationFacts> {
  const { doc } = pdf;
  const ctx = doc.context;
  const objectNumbers = new ObjectNumbers(ctx);
  const usage = scanContent(doc);
  const fonts: UsedFont[] = [...usage.fonts].map(([dict, u]) => ({
    info: describeFont(ctx, dict),
    pages: [...u.pages].sort((a, b) => a - b),
    visible: u.visible,
    objectNumber: objectNumbers.of(dict),
  }));

  const resources = resourcesByPage(doc);
  const transparency: TransparencyObject[] = [];
  for (const [obj, pages] of resourceEntries(ctx, resources, 'ExtGState')) {
    const gs = obj instanceof PDFStream ? obj.dict : obj;
    const smask = gs.lookup(name('SMask'));
    transparency.push({
      kind: 'extgstate',
      pages: [...pages].sort((a, b) => a - b),
      objectNumber: objectNumbers.of(gs),
      softMask: smask === undefined ? null : smask instanceof PDFName ? smask.decodeText() : 'dictionary',
      fillAlpha: getNumber(gs, 'ca') ?? null,
      strokeAlpha: getNumber(gs, 'CA') ?? null,
      blendModes: blendModes(gs),
      group: null,
    });
  }
  for (const [obj, pages] of resourceEntries(ctx, resources, 'XObject')) {
    if (!(obj instanceof PDFStream)) continue;
    const d = obj.dict;
    const smask = d.lookup(name('SMask'));
    const group = getName(getDict(d, 'Group'), 'S') ?? null;
    if (smask === undefined && group === null) continue;
    transparency.push({
      kind: 'xobject',
      pages: [...pages].sort((a, b) => a - b),
      objectNumber: objectNumbers.of(obj),
      softMask: smask === undefined ? null : smask instanceof PDFName ? smask.decodeText() : 'stream',
      fillAlpha: null,
      strokeAlpha: null,
      blendModes: [],
      group,
    });
  }
  doc.getPages().forEach((p, i) => {
    const group = getName(getDict(p.node, 'Group'), 'S');
    if (group) {
      transparency.push({ kind: 'page-group', pages: [i + 1], objectNumber: p.ref.objectNumber, softMask: null, fillAlpha: null, strokeAlpha: null, blendModes: [], group });
    }
  });

  return {
    pdf,
    doc,
    facts: readDocumentFacts(pdf),
    usage,
    fonts,
    actions: inventoryActions(doc),
    embeddedFiles: await readEmbeddedFiles(doc),
    hasEmbeddedFilesTree: getDict(getDict(doc.catalog as PDFDict, 'Names'), 'EmbeddedFiles') !== undefined,
    transparency,
    objectNumbers,
  };
}

function blendModes(gs: PDFDict): string[] {
  const bm = gs.lookup(name('BM'));
  if (bm instanceof PDFName) return [bm.decodeText()];
  if (bm instanceof PDFArray) return bm.asArray().map((x) => (x instanceof PDFName ? x.decodeText() : '?'));
  return [];
}
