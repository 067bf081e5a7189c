/**
 * A file → a pdf-lib document, leniently. Every engine opens PDFs here, so there
 * is one place that decides what counts as unreadable and what a customer is
 * told about it. Anything wrong with the file ends in UnprocessableFileError with
 * a sentence meant for the customer; other exceptions are our own faults.
 *
 * Files are read lazily (reader/): the cross-reference data is read (or rebuilt
 * from the file's objects when it is damaged, which `repairs` reports), and
 * objects and stream data are read from the file when something asks for them,
 * so a 500 MB print file costs what its pages' dictionaries cost, not its size.
 * pdf-lib's own whole-file parse remains only as a last resort, for a file in
 * which not even a scan finds a document catalog.
 *
 * Encrypted files: PDFs with only an owner password (restrictions, no password
 * to open) are decrypted with the empty user password and processed; a file
 * that needs a password to open cannot be inspected and is refused.
 *
 * pdf-lib stores the strings it decrypts unescaped; decrypted-strings.ts
 * escapes them as they are parsed, so they read and save as they should.
 *
 * Hostile files: object streams are decoded under the decoding limits and
 * cross-reference streams are believed only as far as their data goes
 * (reader/), pdf-lib's own parsing of both is bounded for the last-resort
 * whole-file parse (parse-limits.ts), the page tree is made walkable before
 * pages are counted (page-tree.ts), and a parser that overflows its
 * stack on absurdly deep nesting (a RangeError) makes the file "damaged" like
 * any other parse failure.
 */
import { readFileSync } from 'node:fs';
import { ParseSpeeds, PDFArray, PDFDict, PDFDocument, PDFRef, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { UnprocessableFileError } from '../../domain/errors';
import { readFileHeader, startsWithObject, type FileHeader } from './file-header';
import { getName, getNumber, resolve } from './pdf-objects';
import { installDecryptedStringEscaping } from './decrypted-strings';
import { installParseLimits } from './parse-limits';
import { repairPageTree } from './page-tree';
import { FileSource, MemorySource, type ByteSource } from './reader/byte-source';
import { cipherFactoryFor } from './reader/cipher';
import { openedByEmptyOwnerPassword } from './reader/owner-password';
import { openLazy, type LazyOpen } from './reader/open-lazy';

installParseLimits();
installDecryptedStringEscaping();

export interface EncryptionInfo {
  /** Security handler (`Standard`). */
  filter: string | null;
  /** Algorithm version V and revision R of the Standard handler. */
  version: number | null;
  revision: number | null;
  /** Key length in bits when stated. */
  keyBits: number | null;
  /** The P flags as an unsigned bit set (ISO 32000-1 Table 22). */
  permissions: number | null;
  printingAllowed: boolean | null;
}

export interface OpenedPdf {
  doc: PDFDocument;
  /**
   * Where the file's bytes are read from, on demand. It stays open while the
   * document is used (objects and stream data are read from it lazily).
   */
  source: ByteSource;
  /** The file's size in bytes. */
  size: number;
  /**
   * The whole file in memory: only when it was asked for (`wholeFile`, or the
   * bytes were handed in); validation's syntax scan reads the raw structure.
   */
  bytes?: Uint8Array;
  header: FileHeader;
  /** Null when the file is not encrypted. */
  encryption: EncryptionInfo | null;
  /**
   * What was wrong with the file's structure and was repaired to read it, in
   * sentences for the customer; empty for a sound file. Objects are read
   * lazily, so a repair found while reading them later is added then.
   */
  repairs: string[];
}

export interface OpenOptions {
  /**
   * Read the whole file into memory once (for consumers of `bytes`); objects
   * are still parsed lazily, from that same buffer.
   */
  wholeFile?: boolean;
}

/** Largest file given to pdf-lib's whole-file parse when the lazy reader finds no catalog. */
const WHOLE_PARSE_LIMIT = 64 * 1024 * 1024;

const DAMAGED = 'The PDF could not be read because its internal structure is damaged; export it again from the application that made it.';
const NOT_A_PDF = 'The file is not a PDF: it has no %PDF- header.';
const NO_HEADER = 'The file did not start with a %PDF- header; it was read as a PDF because its content is one.';
const UNREADABLE_ENCRYPTION = 'The encryption dictionary could not be read, so the file was read as not encrypted; some of its content may be unreadable.';

export async function openPdfFile(path: string, options: OpenOptions = {}): Promise<OpenedPdf> {
  if (options.wholeFile) return openPdfBytes(new Uint8Array(readFileSync(path)));
  return openSource(new FileSource(path), undefined);
}

/** A PDF read from `source`, which the returned document owns (closes with `pdf.source.close()`). */
export async function openPdfSource(source: ByteSource): Promise<OpenedPdf> {
  return openSource(source, undefined);
}

export async function openPdfBytes(bytes: Uint8Array): Promise<OpenedPdf> {
  return openSource(new MemorySource(bytes), bytes);
}

async function openSource(source: ByteSource, bytes: Uint8Array | undefined): Promise<OpenedPdf> {
  try {
    return await openFrom(source, bytes);
  } catch (e) {
    source.close();
    throw e;
  }
}

async function openFrom(source: ByteSource, bytes: Uint8Array | undefined): Promise<OpenedPdf> {
  const head = source.read(0, 1100);
  const header = readFileHeader(head);
  // A file without a header whose body is a PDF's is read as one, as poppler
  // and qpdf do (realworld/pdfjs/bug1606566.pdf); it is a PDF only if a catalog
  // with pages is found in it. Its version is unknown: read as 1.7.
  const headerless = header.offset < 0;
  if (headerless && !startsWithObject(head)) throw new UnprocessableFileError(NOT_A_PDF);

  let lazy: LazyOpen | null;
  try {
    lazy = withoutStackTracesSync(() => openLazy(source, { version: headerless ? '1.7' : readableVersion(head, header.offset) }));
  } catch {
    lazy = null;
  }
  if (lazy === null && headerless) throw new UnprocessableFileError(NOT_A_PDF);
  if (lazy === null) {
    // Last resort, for a file in which not even a scan of its objects finds a
    // catalog: pdf-lib's own whole-file parse, whose recovery differs. It reads
    // the whole file into memory; the lazy reader handles every file we know of
    // without it. A large file is not read whole for it: what a scan of its
    // objects cannot find, pdf-lib's parse would not find either, only slowly.
    if (source.size > WHOLE_PARSE_LIMIT) {
      source.close();
      throw new UnprocessableFileError(DAMAGED);
    }
    const whole = bytes ?? source.read(0, source.size).slice();
    source.close();
    return openWhole(whole, header);
  }

  let doc: PDFDocument;
  let encryption: EncryptionInfo | null = null;
  const { context, loader, repairs } = lazy;
  if (headerless) repairs.unshift(NO_HEADER);
  const encryptRef = context.trailerInfo.Encrypt;
  if (encryptRef !== undefined) {
    const encryptDict = resolve(context, encryptRef);
    if (!(encryptDict instanceof PDFDict)) {
      // Readers ignore an /Encrypt entry that leads to no dictionary (poppler does).
      delete context.trailerInfo.Encrypt;
      repairs.push(UNREADABLE_ENCRYPTION);
    } else {
      encryption = describeEncryption(encryptDict);
      if (encryption.filter !== null && encryption.filter !== 'Standard') throw new UnprocessableFileError(foreignHandler(encryption.filter));
      let crypto;
      try {
        const id = resolve(context, context.trailerInfo.ID);
        // An empty owner password opens the file too (AES-256 only; pdf-lib does not try it).
        const byOwner = openedByEmptyOwnerPassword(encryptDict);
        crypto = await cipherFactoryFor(byOwner ?? encryptDict, id, '');
      } catch (e) {
        // Only the attached files need the password when the document's streams
        // and strings use the Identity filter (AuthEvent /EFOpen, ISO 32000-2
        // 7.6.5): the document reads as it is, its /Encrypt kept so the
        // attachments are saved as they came.
        if (!onlyAttachmentsEncrypted(encryptDict)) throw refusalFor(e);
      }
      if (crypto) {
        // The encryption dictionary and the objects it refers to are never encrypted.
        loader.setCrypto(crypto, referencedNumbers(encryptRef, context));
        context.isDecrypted = true;
      }
    }
  }
  try {
    doc = withoutStackTracesSync(() => new (PDFDocument as unknown as PDFDocumentConstructor)(context, true, false));
  } catch {
    throw new UnprocessableFileError(DAMAGED);
  }

  assertHasPages(doc, repairs);
  return { doc, source, size: source.size, bytes, header, encryption, repairs };
}

/** Crypt filters V4 and V5: streams and strings both /Identity (the default when absent). */
function onlyAttachmentsEncrypted(dict: PDFDict): boolean {
  const version = getNumber(dict, 'V');
  const identity = (key: string) => (getName(dict, key) ?? 'Identity') === 'Identity';
  return version !== undefined && version >= 4 && identity('StmF') && identity('StrF');
}

/** Object numbers of `root` (when a reference) and of the references inside it, a few levels deep. */
function referencedNumbers(root: PDFObject, context: PDFContext): Set<number> {
  const out = new Set<number>();
  const walk = (obj: PDFObject | undefined, depth: number): void => {
    if (obj instanceof PDFRef) {
      if (out.has(obj.objectNumber)) return;
      out.add(obj.objectNumber);
      obj = context.lookup(obj);
    }
    if (depth === 0) return;
    if (obj instanceof PDFDict) for (const v of obj.values()) walk(v, depth - 1);
    else if (obj instanceof PDFArray) for (let i = 0; i < obj.size(); i++) walk(obj.get(i), depth - 1);
  };
  walk(root, 4);
  return out;
}

/** The header's version as `major.minor`, non-digits replaced (`%PDF-a.4` reads as 1.4, as before). */
function readableVersion(head: Uint8Array, headerOffset: number): string {
  const readable = withReadableVersion(head, headerOffset);
  const text = Buffer.from(readable.subarray(headerOffset + 5, headerOffset + 13)).toString('latin1');
  return /^(\d+)\.(\d+)/.exec(text)?.[0] ?? '1.7';
}

type PDFDocumentConstructor = new (context: PDFDocument['context'], ignoreEncryption: boolean, updateMetadata: boolean) => PDFDocument;

/** The old path: pdf-lib's whole-file parse (see openFrom). */
async function openWhole(bytes: Uint8Array, header: FileHeader): Promise<OpenedPdf> {
  // Every PDF has at least one indirect object; without one there is nothing to
  // parse, and pdf-lib would crawl through the whole file byte by byte first.
  if (indexOf(bytes, 'endobj') < 0) throw new UnprocessableFileError(DAMAGED);
  const parseBytes = withReadableVersion(withoutTrailingJunk(bytes), header.offset);

  let doc: PDFDocument;
  try {
    doc = await withoutStackTraces(() =>
      PDFDocument.load(parseBytes, {
        ignoreEncryption: true,
        throwOnInvalidObject: false,
        updateMetadata: false,
        // Parse without yielding between objects: the engines run in workers that
        // do nothing else, and yielding makes large files several times slower.
        parseSpeed: ParseSpeeds.Fastest,
      }),
    );
  } catch {
    throw new UnprocessableFileError(DAMAGED);
  }

  const encryptDict = resolve(doc.context, doc.context.trailerInfo.Encrypt);
  let encryption: EncryptionInfo | null = null;
  if (encryptDict !== undefined) {
    encryption = describeEncryption(encryptDict instanceof PDFDict ? encryptDict : undefined);
    doc = await decryptWithoutPassword(parseBytes, encryption);
  }

  assertHasPages(doc);
  const repairs = ["The file's structure was damaged beyond its cross-reference data; it was read by parsing the whole file."];
  return { doc, source: new MemorySource(bytes), size: bytes.length, bytes, header, encryption, repairs };
}

const foreignHandler = (filter: string) =>
  `The PDF is encrypted with the "${filter}" security handler (certificates or DRM), which cannot be opened without its key; send an unprotected file.`;

function refusalFor(e: unknown): UnprocessableFileError {
  const msg = e instanceof Error ? e.message : '';
  if (/password/i.test(msg)) {
    return new UnprocessableFileError('The PDF is protected by a password that is needed to open it; remove the password and send the file again.');
  }
  return new UnprocessableFileError('The PDF is encrypted in a way that cannot be decrypted; remove the protection and send the file again.');
}

async function decryptWithoutPassword(bytes: Uint8Array, encryption: EncryptionInfo): Promise<PDFDocument> {
  if (encryption.filter !== null && encryption.filter !== 'Standard') {
    throw new UnprocessableFileError(foreignHandler(encryption.filter));
  }
  try {
    // An empty password opens files protected by an owner password only.
    return await withoutStackTraces(() =>
      PDFDocument.load(bytes, {
        password: '',
        throwOnInvalidObject: false,
        updateMetadata: false,
        parseSpeed: ParseSpeeds.Fastest,
      }),
    );
  } catch (e) {
    throw refusalFor(e);
  }
}

/**
 * pdf-lib's lenient parser recovers from damage by trying (and failing) to read
 * an object header at every byte of a damaged region, throwing an Error each
 * time. Capturing a stack trace for each is most of that cost: without them
 * damaged files parse about four times faster. Nothing else runs meanwhile in a
 * worker, and the limit is restored even when parsing fails.
 */
async function withoutStackTraces<T>(fn: () => Promise<T>): Promise<T> {
  const previous = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return await fn();
  } finally {
    Error.stackTraceLimit = previous;
  }
}

function withoutStackTracesSync<T>(fn: () => T): T {
  const previous = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = previous;
  }
}

/**
 * The bytes up to the last %%EOF marker (and its end-of-line). Whatever follows
 * it is not part of any revision of the document (mail or upload tools sometimes
 * append data), and pdf-lib would otherwise crawl through it.
 */
export function withoutTrailingJunk(bytes: Uint8Array): Uint8Array {
  const eof = lastIndexOf(bytes, '%%EOF');
  if (eof < 0) return bytes;
  let end = eof + 5;
  if (bytes[end] === 0x0d) end++;
  if (bytes[end] === 0x0a) end++;
  return end >= bytes.length ? bytes : bytes.subarray(0, end);
}

/**
 * A header whose version is not digits (`%PDF-a.4`, in the veraPDF suite's
 * PDF/A-1 6.1.2 files) makes pdf-lib refuse the whole file, while readers
 * ignore the version. The parser gets a copy with those characters replaced by
 * digits, byte for byte so every offset stays right; the header as written is
 * still what `header` reports and what validation judges.
 */
function withReadableVersion(bytes: Uint8Array, headerOffset: number): Uint8Array {
  const start = headerOffset + 5;
  let end = start;
  while (end < bytes.length && end < start + 8 && bytes[end] !== 0x0a && bytes[end] !== 0x0d && bytes[end] !== 0x20) end++;
  const version = bytes.subarray(start, end);
  if (/^\d+\.\d+$/.test(Buffer.from(version).toString('latin1'))) return bytes;
  const copy = new Uint8Array(bytes);
  for (let i = start; i < end; i++) if (copy[i] !== 0x2e && (copy[i]! < 0x30 || copy[i]! > 0x39)) copy[i] = 0x31;
  if (!version.includes(0x2e) && end - start >= 3) copy[start + 1] = 0x2e;
  return copy;
}

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const indexOf = (b: Uint8Array, s: string) => asBuffer(b).indexOf(s, 0, 'latin1');
const lastIndexOf = (b: Uint8Array, s: string) => asBuffer(b).lastIndexOf(s, undefined, 'latin1');

function describeEncryption(dict: PDFDict | undefined): EncryptionInfo {
  const p = getNumber(dict, 'P');
  const permissions = p === undefined ? null : p >>> 0;
  return {
    filter: getName(dict, 'Filter') ?? null,
    version: getNumber(dict, 'V') ?? null,
    revision: getNumber(dict, 'R') ?? null,
    keyBits: getNumber(dict, 'Length') ?? null,
    permissions,
    // Bit 3 (value 4) permits printing.
    printingAllowed: permissions === null ? null : (permissions & 4) !== 0,
  };
}

/** Refuses a document without readable pages; says what the page tree needed to be walkable. */
function assertHasPages(doc: PDFDocument, repairs: string[] = []): void {
  let count: number;
  try {
    const tree = repairPageTree(doc);
    if (tree.wrappedPage) repairs.push("The document's page list named a single page instead of a page tree; it was read as a tree of that page.");
    if (tree.removedKids > 0) repairs.push('The page tree listed some of its branches more than once or inside themselves; the repeats were ignored.');
    count = doc.getPageCount();
    if (count > 0) doc.getPages();
  } catch {
    throw new UnprocessableFileError(DAMAGED);
  }
  if (count === 0) {
    throw new UnprocessableFileError('The PDF has no readable pages; it may be truncated or damaged. Export it again and send the complete file.');
  }
}
