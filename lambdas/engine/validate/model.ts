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
import type { PDFContext, PDFDict, PDFDocument } from '@cantoo/pdf-lib';
import { inventoryActions, type ActionInventory } from '../core/actions';
import { readDocumentFacts, type DocumentFacts } from '../core/document-facts';
import type { EmbeddedFileInfo } from '../core/embedded-files';
import type { EmbeddedVerdict } from './embedded-verdicts';
import type { OpenedPdf } from '../core/load-pdf';
import { getDict, ObjectNumbers } from '../core/pdf-objects';
import type { ContentUsage } from '../core/content-scan';
import { contentUsage } from './content-pass';
import { fact } from './fact';

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
  get actions(): ActionInventory {
    return actions(this);
  }
  get hasEmbeddedFilesTree(): boolean {
    return getDict(getDict(this.catalog, 'Names'), 'EmbeddedFiles') !== undefined;
  }
}

const documentFacts = fact('document-facts', (m) => readDocumentFacts(m.pdf));
const actions = fact('actions', (m) => inventoryActions(m.doc));
