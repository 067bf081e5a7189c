/**
 * The document model validation rules read. It is lazy: a fact is computed
 * the first time a rule asks for it and shared by every rule and every
 * requested profile after that, so a rule reads only what it needs and a file
 * that no rule asks about fonts never has its font programs parsed.
 *
 * Areas (file structure, graphics, fonts, metadata, interactive features,
 * logical structure) define their own facts with `fact()` next to their rules;
 * the model only holds the opened file and the memo. Content streams are read
 * once for all areas by content-pass.ts (`contentUsage`, `collected`).
 *
 * Nothing in validate/ is imported here at run time: every area imports the
 * model, so the model importing an area (or the content pass, which imports
 * every area's collector) would be an import cycle.
 */
import type { PDFContext, PDFDict, PDFDocument } from '@cantoo/pdf-lib';
import { inventoryActions, type ActionInventory } from '../core/actions';
import { readDocumentFacts, type DocumentFacts } from '../core/document-facts';
import type { EmbeddedFileInfo } from '../core/embedded-files';
import type { EmbeddedVerdict } from './embedded-verdicts';
import type { OpenedPdf } from '../core/load-pdf';
import { getDict, ObjectNumbers } from '../core/pdf-objects';

const DOCUMENT_FACTS = Symbol('document-facts');
const ACTIONS = Symbol('actions');

export class ValidationModel {
  private readonly memos = new Map<symbol, unknown>();
  readonly objectNumbers: ObjectNumbers;

  constructor(
    readonly pdf: OpenedPdf,
    /** Every embedded file, described once (core/embedded-files). */
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
    // Validate opens files whole (openPdfFile's `wholeFile`); a model of a file
    // opened lazily reads it once here.
    this.pdf.bytes ??= this.pdf.source.read(0, this.pdf.size).slice();
    return this.pdf.bytes;
  }

  /** Computes a value once per model (see `fact`). */
  memo<T>(key: symbol, compute: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const value = compute();
    this.memos.set(key, value);
    return value;
  }

  // Facts shared by several areas, memoised as `fact()` memoises.
  get facts(): DocumentFacts {
    return this.memo(DOCUMENT_FACTS, () => readDocumentFacts(this.pdf));
  }
  get actions(): ActionInventory {
    return this.memo(ACTIONS, () => inventoryActions(this.doc));
  }
  get hasEmbeddedFilesTree(): boolean {
    return getDict(getDict(this.catalog, 'Names'), 'EmbeddedFiles') !== undefined;
  }
}
