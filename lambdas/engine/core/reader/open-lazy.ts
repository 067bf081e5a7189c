/**
 * Opens a PDF lazily: reads its cross-reference index, checks it cheaply, and
 * sets up a pdf-lib context whose objects are parsed when first asked for
 * (lazy-objects.ts). Nothing but the index, the trailer and the catalog is read
 * here.
 *
 * The index is believed until something shows it is wrong, as in pdf.js: the
 * catalog's offset must hold the catalog's header, and each object read later
 * is checked against its header as it is parsed (ObjectLoader.load). When the
 * index is unreadable or wrong, it is rebuilt from the file's objects
 * (xref-reconstruct.ts) and `repairs` says so in a sentence for the customer.
 */
import { PDFCatalog, PDFDict, PDFHeader, PDFName, PDFRef, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import type { ByteSource } from './byte-source';
import { lazyContext, type ObjectLoader } from './lazy-objects';
import { headerAt, parseIndirectAt } from './object-parse';
import { trailerOf } from './xref-reconstruct';
import { readXref, type TrailerKeys } from './xref-read';

export const REBUILT_XREF = "The cross-reference table was damaged and was rebuilt by reading the file's objects.";
export const RECOVERED_OBJECTS = 'Some objects were damaged (junk inside dictionaries or arrays, or left unclosed); what could be read of them was kept.';
export const FOUND_CATALOG = 'The trailer did not name a readable document catalog; the catalog was found by searching the file.';

export interface LazyOpen {
  context: PDFContext;
  loader: ObjectLoader;
  repairs: string[];
}

export interface LazyOpenOptions {
  /** `major.minor` from the file header (already made readable). */
  version: string;
  /** Bytes of stream data kept in memory at most. */
  cacheBytes?: number;
}

/** The lazily read context, or null when no catalog can be found even by rebuilding the index. */
export function openLazy(source: ByteSource, options: LazyOpenOptions): LazyOpen | null {
  const { context, loader } = lazyContext(source, options.cacheBytes);
  // Shared with the loader: an index found wrong later, while objects are read, is reported too.
  const repairs: string[] = [];
  loader.onReconstruct = () => {
    if (!repairs.includes(REBUILT_XREF)) repairs.unshift(REBUILT_XREF);
  };
  loader.onRecovered = () => {
    if (!repairs.includes(RECOVERED_OBJECTS)) repairs.push(RECOVERED_OBJECTS);
  };

  let trailer: TrailerKeys | null = null;
  try {
    const index = readXref(source, context);
    loader.entries = index.entries;
    trailer = index.trailer;
    if (!catalogHeaderHolds(loader, trailer.Root)) trailer = null;
  } catch {
    trailer = null;
  }
  if (trailer === null) {
    loader.reconstruct();
    trailer = rebuiltTrailer(loader);
  }

  let root = catalogRef(context, trailer.Root);
  if (root === undefined && loader.reconstruct()) {
    // The index read fine but its catalog is not readable: rebuild and look again.
    const rebuilt = rebuiltTrailer(loader);
    trailer = { ...rebuilt, ...definedKeys(trailer) };
    root = catalogRef(context, trailer.Root) ?? catalogRef(context, rebuilt.Root);
  }
  if (root === undefined) {
    root = searchedCatalog(loader);
    if (root === undefined) return null;
    repairs.push(FOUND_CATALOG);
  }

  context.trailerInfo = { Root: root, Info: trailer.Info, Encrypt: trailer.Encrypt, ID: trailer.ID, Size: trailer.Size };
  context.largestObjectNumber = loader.largestNumber();
  const [major, minor] = options.version.split('.').map(Number);
  context.header = PDFHeader.forVersion(major ?? 1, minor ?? 7);
  context.pdfFileDetails.pdfSize = source.size;
  context.isDecrypted = false;
  return { context, loader, repairs };
}

function definedKeys(t: TrailerKeys): TrailerKeys {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined)) as TrailerKeys;
}

/** Cheap check of the index: the catalog's entry points at the catalog's header. */
function catalogHeaderHolds(loader: ObjectLoader, root: PDFObject | undefined): boolean {
  if (!(root instanceof PDFRef)) return false;
  let entry = loader.entries.get(root.objectNumber);
  if (entry?.kind === 'compressed') entry = loader.entries.get(entry.stream);
  if (!entry || entry.kind !== 'offset') return false;
  const head = headerAt(loader.source, entry.offset, loader.context);
  return head !== null && (loader.entries.get(root.objectNumber)?.kind === 'compressed' || head.num === root.objectNumber);
}

function rebuiltTrailer(loader: ObjectLoader): TrailerKeys {
  return trailerOf(loader.scanned!, loader.source, loader.context, (num) => {
    const entry = loader.entries.get(num);
    if (entry?.kind !== 'offset') return undefined;
    const parsed = parseIndirectAt(loader.source, entry.offset, { context: loader.context, onStream: (dict) => dict });
    return parsed?.object instanceof PDFDict ? parsed.object : undefined;
  });
}

/**
 * The catalog's reference when `root` leads to a usable catalog: a dictionary
 * with /Pages. One without /Type /Catalog (pdf-lib then makes it a plain
 * dictionary, and its document would fail) is replaced by a PDFCatalog with
 * the same entries.
 */
function catalogRef(context: PDFContext, root: PDFObject | undefined): PDFRef | undefined {
  if (!(root instanceof PDFRef)) return undefined;
  const obj = context.lookup(root);
  if (obj instanceof PDFCatalog) return root;
  if (obj instanceof PDFDict && obj.get(PDFName.of('Pages')) !== undefined) {
    const entries = new Map(obj.entries());
    context.assign(root, PDFCatalog.fromMapWithContext(entries, context));
    return root;
  }
  return undefined;
}

/** The last object in the file whose dictionary says /Type /Catalog and that is one. */
function searchedCatalog(loader: ObjectLoader): PDFRef | undefined {
  if (!loader.scanned) loader.reconstruct();
  const candidates = loader.scanned?.catalogs ?? [];
  for (let i = candidates.length - 1; i >= 0; i--) {
    const num = candidates[i]!;
    const ref = loader.map.refByNumber(num);
    if (ref && loader.context.lookup(ref) instanceof PDFCatalog) return ref;
  }
  return undefined;
}
