/**
 * Files embedded in a PDF (ISO 32000-1 7.11.4): the EmbeddedFiles name tree of
 * the catalog and the file specifications of FileAttachment annotations. PDF/A
 * restricts them per part (none in A-1, only PDF/A in A-2, described ones in A-3
 * and A-4), so each is described with the keys those rules look at. Whether
 * an embedded PDF is itself PDF/A is validation's business (validate/embedded-verdicts.ts).
 */
import { PDFDict, PDFStream, type PDFDocument } from '@cantoo/pdf-lib';
import { nameTreeLeaves } from './actions';
import { findPdfSignature } from './file-header';
import { getDict, getName, getText, has, name, resolve, resolvedItems, streamBytes, textOf } from './pdf-objects';

export interface EmbeddedFileInfo {
  /** Name in the EmbeddedFiles tree, or the annotation's file name. */
  name: string;
  source: 'names' | 'annotation';
  page: number | null;
  hasF: boolean;
  hasUF: boolean;
  afRelationship: string | null;
  /** Subtype of the embedded file stream: its MIME type (`application/pdf`). */
  mimeType: string | null;
  sizeBytes: number | null;
  isPdf: boolean;
}

/** A file specification that embeds a file, where it was found. */
export interface EmbeddedFileSpec {
  /** Name in the EmbeddedFiles tree, or the annotation's file name. */
  name: string;
  source: 'names' | 'annotation';
  page: number | null;
  spec: PDFDict;
  /** The embedded file stream (EF /UF, else /F), when there is one. */
  file: PDFStream | undefined;
}

/** Every embedded file: the EmbeddedFiles name tree first, then FileAttachment annotations page by page. Nothing is decoded. */
export function listEmbeddedFiles(doc: PDFDocument, max = Infinity): EmbeddedFileSpec[] {
  const ctx = doc.context;
  const out: EmbeddedFileSpec[] = [];
  const add = (spec: PDFDict, label: string, source: EmbeddedFileSpec['source'], page: number | null) => {
    const ef = getDict(spec, 'EF');
    const file = resolve(ctx, ef?.get(name('UF')) ?? ef?.get(name('F')));
    out.push({ name: label, source, page, spec, file: file instanceof PDFStream ? file : undefined });
  };
  const catalog = doc.catalog as PDFDict;
  const tree = getDict(getDict(catalog, 'Names'), 'EmbeddedFiles');
  if (tree) {
    for (const leaf of nameTreeLeaves(ctx, tree)) {
      const names = resolvedItems(ctx, leaf.get(name('Names')));
      for (let i = 0; i + 1 < names.length && out.length < max; i += 2) {
        const spec = names[i + 1];
        if (spec instanceof PDFDict) add(spec, textOf(names[i]) ?? 'embedded file', 'names', null);
      }
    }
  }
  const pages = doc.getPages();
  for (let i = 0; i < pages.length; i++) {
    for (const annot of resolvedItems(ctx, pages[i]!.node.get(name('Annots')))) {
      if (out.length >= max) return out;
      if (!(annot instanceof PDFDict) || getName(annot, 'Subtype') !== 'FileAttachment') continue;
      const spec = resolve(ctx, annot.get(name('FS')));
      if (spec instanceof PDFDict && has(spec, 'EF')) add(spec, getText(spec, 'UF') ?? getText(spec, 'F') ?? 'attachment', 'annotation', i + 1);
    }
  }
  return out;
}

export function readEmbeddedFiles(doc: PDFDocument): EmbeddedFileInfo[] {
  return listEmbeddedFiles(doc).map(describe);
}

function describe({ name: label, source, page, spec, file }: EmbeddedFileSpec): EmbeddedFileInfo {
  const bytes = file ? streamBytes(file) : null;
  const isPdf = bytes !== null && findPdfSignature(bytes.subarray(0, 1024)) >= 0;
  return {
    name: label,
    source,
    page,
    hasF: has(spec, 'F'),
    hasUF: has(spec, 'UF'),
    afRelationship: getName(spec, 'AFRelationship') ?? null,
    mimeType: file ? (getName(file.dict, 'Subtype') ?? null) : null,
    sizeBytes: bytes?.length ?? null,
    isPdf,
  };
}

