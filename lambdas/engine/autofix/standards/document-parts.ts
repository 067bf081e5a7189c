/**
 * Pieces both pdfa.prepare and pdfx.prepare need: the trailer's file
 * identifier, the header version, and output intents sharing one profile.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PDFArray, PDFDict, PDFHeader, PDFHexString, PDFRef, PDFStream, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { parseIccHeader, type IccHeader } from '../../core/output-intents';
import { getName, name, resolve, resolvedItems, streamBytes } from '../../core/pdf-objects';

/**
 * Gives the trailer an ID (two byte strings) when it has none or a malformed
 * one. Both halves are the same new identifier: the file is being created as a
 * new version of itself, which is what ISO 32000-1 14.4 says the first half is for.
 */
export function ensureTrailerId(doc: PDFDocument): boolean {
  const ctx = doc.context;
  const id = resolve(ctx, ctx.trailerInfo.ID);
  const ok = id instanceof PDFArray && id.size() === 2 && [0, 1].every((i) => {
    const v = resolve(ctx, id.get(i));
    return (v instanceof PDFHexString || v instanceof PDFString) && v.asBytes().length > 0;
  });
  if (ok) return false;
  const hex = createHash('md5').update(randomBytes(32)).update(String(Date.now())).digest('hex');
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of(hex), PDFHexString.of(hex)]);
  return true;
}

/** The header's version as [major, minor] (pdf-lib keeps the parsed header on the context). */
export function headerVersion(doc: PDFDocument): [number, number] {
  const m = /^(\d+)\.(\d+)/.exec(doc.context.header.getVersionString());
  return m ? [Number(m[1]), Number(m[2])] : [1, 7];
}

export function setHeaderVersion(doc: PDFDocument, major: number, minor: number): void {
  // pdf-lib writes the header line followed by a comment of four bytes above 127 (the "binary comment").
  doc.context.header = PDFHeader.forVersion(major, minor);
}

export interface IntentEntry {
  dict: PDFDict;
  subtype: string | null;
  profile: PDFStream | undefined;
  /** The DestOutputProfile entry as written (a reference, or a direct stream). */
  profileEntry: unknown;
  header: IccHeader | null;
}

/** The catalog's output intents (malformed entries skipped). */
export function outputIntents(doc: PDFDocument): IntentEntry[] {
  const ctx = doc.context;
  const out: IntentEntry[] = [];
  for (const oi of resolvedItems(ctx, (doc.catalog as PDFDict).get(name('OutputIntents')))) {
    if (!(oi instanceof PDFDict)) continue;
    const entry = oi.get(name('DestOutputProfile'));
    const profile = resolve(ctx, entry);
    const stream = profile instanceof PDFStream ? profile : undefined;
    const bytes = stream ? safeBytes(stream) : null;
    out.push({ dict: oi, subtype: getName(oi, 'S') ?? null, profile: stream, profileEntry: entry, header: bytes ? parseIccHeader(bytes) : null });
  }
  return out;
}

function safeBytes(stream: PDFStream): Uint8Array | null {
  try {
    return streamBytes(stream);
  } catch {
    return null;
  }
}

/** Appends an output intent to the catalog's OutputIntents (created, or turned into an array, as needed). */
export function addOutputIntent(doc: PDFDocument, intent: PDFDict): void {
  const ctx = doc.context;
  const catalog = doc.catalog as PDFDict;
  const current = resolve(ctx, catalog.get(name('OutputIntents')));
  if (current instanceof PDFArray) {
    current.push(intent);
    return;
  }
  const items = current instanceof PDFDict ? [current, intent] : [intent];
  catalog.set(name('OutputIntents'), ctx.obj(items));
}

/**
 * The reference to use for a profile stream: its existing indirect reference,
 * else the stream registered as a new object (PDF/A requires every intent with a
 * profile to refer to the same indirect object).
 */
export function profileRef(doc: PDFDocument, intent: IntentEntry): PDFRef | undefined {
  if (intent.profileEntry instanceof PDFRef) return intent.profileEntry;
  if (!intent.profile) return undefined;
  const ref = doc.context.register(intent.profile);
  intent.dict.set(name('DestOutputProfile'), ref);
  return ref;
}
