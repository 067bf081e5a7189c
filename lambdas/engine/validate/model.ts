/**
 * The document model validation rules read. It is lazy: a fact is computed
 * the first time a rule asks for it and shared by every rule and every
 * requested profile after that, so a rule reads only what it needs and a file
 * that no rule asks about fonts never has its font programs parsed.
 *
 * Areas (file structure, graphics, fonts, metadata, interactive features,
 * logical structure) define their own facts with `fact()` next to their rules;
 * the model only holds the opened file and the memo. Content streams are read
 * once for all areas by content-pass.ts.
 */
import { PDFArray, PDFDict, PDFName, PDFStream, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import { inventoryActions, type ActionInventory } from '../core/actions';
import { readDocumentFacts, type DocumentFacts } from '../core/document-facts';
import type { EmbeddedFileInfo } from '../core/embedded-files';
import type { EmbeddedVerdict } from './embedded-verdicts';
import { describeFont, type FontInfo } from '../core/fonts';
import type { OpenedPdf } from '../core/load-pdf';
import { getDict, getName, getNumber, name, ObjectNumbers } from '../core/pdf-objects';
import { resourceEntries, resourcesByPage } from '../core/resource-walk';
import type { ContentUsage } from '../core/content-scan';
import { contentUsage } from './content-pass';
import { fact } from './fact';

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

export class ValidationModel {
  private readonly memos = new Map<symbol, unknown>();
  readonly objectNumbers: ObjectNumbers;

  constructor(
    readonly pdf: OpenedPdf,
    /** Read before rules run: reading embedded files is asynchronous. */
    readonly embeddedFiles: EmbeddedFileInfo[],
    /** Per embedded file (same order), the verdict on an embedded PDF against its own PDF/A claim; null for other files. */
    readonly embeddedVerdicts: readonly (EmbeddedVerdict | null)[] = [],
  ) {
    this.objectNumbers = new ObjectNumbers(pdf.doc.context);
  }

  get doc(): PDFDocument {
    return this.pdf.doc;
  }
  get context(): PDFContext {
    return this.pdf.doc.context;
  }
  get catalog(): PDFDict {
    return this.pdf.doc.catalog as PDFDict;
  }
  /** The file exactly as received (header, xref and stream syntax are judged on these). */
  get bytes(): Uint8Array {
    return this.pdf.bytes;
  }

  /** Computes a value once per model (see `fact`). */
  memo<T>(key: symbol, compute: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = compute();
    this.memos.set(key, value);
    return value;
  }

  // Facts shared by several areas.
  get facts(): DocumentFacts {
    return documentFacts(this);
  }
  get usage(): ContentUsage {
    return contentUsage(this);
  }
  get fonts(): UsedFont[] {
    return usedFonts(this);
  }
  get actions(): ActionInventory {
    return actions(this);
  }
  get transparency(): TransparencyObject[] {
    return transparencyObjects(this);
  }
  get hasEmbeddedFilesTree(): boolean {
    return getDict(getDict(this.catalog, 'Names'), 'EmbeddedFiles') !== undefined;
  }
}

/** Older name kept for the rules written against it. */
export type ValidationFacts = ValidationModel;

const documentFacts = fact('document-facts', (m) => readDocumentFacts(m.pdf));
const actions = fact('actions', (m) => inventoryActions(m.doc));

const usedFonts = fact('used-fonts', (m): UsedFont[] =>
  [...m.usage.fonts].map(([dict, u]) => ({
    info: describeFont(m.context, dict),
    pages: [...u.pages].sort((a, b) => a - b),
    visible: u.visible,
    objectNumber: m.objectNumbers.of(dict),
  })),
);

const transparencyObjects = fact('transparency-objects', (m): TransparencyObject[] => {
  const ctx = m.context;
  const resources = resourcesByPage(m.doc);
  const out: TransparencyObject[] = [];
  for (const [obj, pages] of resourceEntries(ctx, resources, 'ExtGState')) {
    const gs = obj instanceof PDFStream ? obj.dict : obj;
    const smask = gs.lookup(name('SMask'));
    out.push({
      kind: 'extgstate',
      pages: [...pages].sort((a, b) => a - b),
      objectNumber: m.objectNumbers.of(gs),
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
    out.push({
      kind: 'xobject',
      pages: [...pages].sort((a, b) => a - b),
      objectNumber: m.objectNumbers.of(obj),
      softMask: smask === undefined ? null : smask instanceof PDFName ? smask.decodeText() : 'stream',
      fillAlpha: null,
      strokeAlpha: null,
      blendModes: [],
      group,
    });
  }
  m.doc.getPages().forEach((p, i) => {
    const group = getName(getDict(p.node, 'Group'), 'S');
    if (group) out.push({ kind: 'page-group', pages: [i + 1], objectNumber: p.ref.objectNumber, softMask: null, fillAlpha: null, strokeAlpha: null, blendModes: [], group });
  });
  return out;
});

function blendModes(gs: PDFDict): string[] {
  const bm = gs.lookup(name('BM'));
  if (bm instanceof PDFName) return [bm.decodeText()];
  if (bm instanceof PDFArray) return bm.asArray().map((x) => (x instanceof PDFName ? x.decodeText() : '?'));
  return [];
}
