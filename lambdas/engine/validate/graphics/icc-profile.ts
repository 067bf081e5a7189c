/**
 * ICC profiles as PDF/A judges them: the header of an embedded profile (ICC.1
 * 7.2: size at byte 0, version at 8, device class at 12, data colour space at
 * 16, the 'acsp' signature at 36), and the PDF/A output intents of the
 * document and, in PDF/A-4 (ISO 32000-2 14.11.5), of each page.
 */
import { createHash } from 'node:crypto';
import { PDFDict, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { parseIccHeader, type IccHeader } from '../../core/output-intents';
import { getName, name, resolve, resolvedItems, streamBytes } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';

/** The profile header (core/output-intents reads it: device class, data colour space, version). */
export type IccHeaderInfo = IccHeader;

const decodedCache = new WeakMap<PDFStream, Uint8Array | null>();

/** A stream's decoded bytes, decoded once per stream. */
export function decodedBytes(stream: PDFStream): Uint8Array | null {
  if (decodedCache.has(stream)) return decodedCache.get(stream)!;
  let bytes: Uint8Array | null = null;
  try {
    bytes = streamBytes(stream);
  } catch {
    bytes = null;
  }
  decodedCache.set(stream, bytes);
  return bytes;
}

const headerCache = new WeakMap<PDFStream, IccHeaderInfo | null>();

/** The profile header, or null when the stream does not decode or is no ICC profile (too short, no 'acsp'). */
export function iccHeader(stream: PDFStream): IccHeaderInfo | null {
  if (headerCache.has(stream)) return headerCache.get(stream)!;
  const bytes = decodedBytes(stream);
  const header = bytes ? parseIccHeader(bytes) : null;
  headerCache.set(stream, header);
  return header;
}


/** Components the profile's data colour space has (ICC.1 Table 19), for the spaces PDF uses. */
export function iccComponents(colourSpace: string): number | null {
  switch (colourSpace) {
    case 'GRAY':
      return 1;
    case 'RGB ':
    case 'Lab ':
    case 'XYZ ':
    case 'YCbr':
    case 'Luv ':
    case 'Yxy ':
    case 'HSV ':
    case 'HLS ':
    case 'CMY ':
      return 3;
    case 'CMYK':
      return 4;
    default:
      return null;
  }
}

export interface PdfaIntent {
  dict: PDFDict;
  /** DestOutputProfile when it is a stream. */
  profile: PDFStream | null;
  header: IccHeaderInfo | null;
}

/** The GTS_PDFA1 output intent of an OutputIntents array (the first, as readers take it). */
export function pdfaIntentOf(ctx: PDFContext, intents: PDFObject | undefined): PdfaIntent | null {
  for (const oi of resolvedItems(ctx, intents)) {
    if (!(oi instanceof PDFDict) || getName(oi, 'S') !== 'GTS_PDFA1') continue;
    const p = resolve(ctx, oi.get(name('DestOutputProfile')));
    const profile = p instanceof PDFStream ? p : null;
    return { dict: oi, profile, header: profile ? iccHeader(profile) : null };
  }
  return null;
}

/** The document's PDF/A output intent. */
export const documentIntent = fact('colour.document-intent', (m): PdfaIntent | null => pdfaIntentOf(m.context, m.catalog.get(name('OutputIntents'))));

/** PDF/A output intents of pages (PDF 2.0 page-level OutputIntents), by 1-based page number. */
export const pageIntents = fact('colour.page-intents', (m: ValidationModel): Map<number, PdfaIntent> => {
  const out = new Map<number, PdfaIntent>();
  try {
    m.doc.getPages().forEach((p, i) => {
      const intents = p.node.get(name('OutputIntents'));
      if (intents === undefined) return;
      const oi = pdfaIntentOf(m.context, intents);
      if (oi) out.set(i + 1, oi);
    });
  } catch {
    // A page tree pdf-lib cannot walk: no page-level intents are known.
  }
  return out;
});

/** The output intent in effect on a page: the page's own (PDF/A-4) or the document's. */
export function intentForPage(m: ValidationModel, page: number, part: number): PdfaIntent | null {
  if (part === 4) {
    const own = pageIntents(m).get(page);
    if (own) return own;
  }
  return documentIntent(m);
}

/** Two profiles are the same profile: one object, the same bytes, or the same ICC profile ID (the MD5 comparison of ISO 19005-4 6.2.4.2). */
export function sameProfile(a: PDFStream, b: PDFStream): boolean {
  if (a === b) return true;
  const x = decodedBytes(a);
  const y = decodedBytes(b);
  if (!x || !y) return false;
  if (x.length === y.length && x.every((v, i) => v === y[i])) return true;
  const idA = profileId(a);
  return idA !== null && idA === profileId(b);
}

const idCache = new WeakMap<PDFStream, string | null>();

/**
 * A profile's identity as ICC.1 7.2.18 defines it: the profile ID in the
 * header (bytes 84–99) when it is set, else the MD5 of the profile's `size`
 * bytes with the profile flags (44–47), rendering intent (64–67) and profile
 * ID fields zeroed. So one profile written once with its ID computed and once
 * with a zero ID is the same profile (veraPDF compares the same digest; its
 * PDF/A-4 6-2-4-2-t03-fail-e pairs exactly those two copies). Null when the
 * data is shorter than the size its header states.
 */
export function profileId(stream: PDFStream): string | null {
  if (idCache.has(stream)) return idCache.get(stream)!;
  const bytes = decodedBytes(stream);
  let id: string | null = null;
  if (bytes && bytes.length >= 128) {
    const stored = bytes.subarray(84, 100);
    const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    if (stored.some((v) => v !== 0)) id = Buffer.from(stored).toString('hex');
    else if (size >= 128 && size <= bytes.length) {
      const copy = Uint8Array.from(bytes.subarray(0, size));
      copy.fill(0, 44, 48);
      copy.fill(0, 64, 68);
      copy.fill(0, 84, 100);
      id = createHash('md5').update(copy).digest('hex');
    }
  }
  idCache.set(stream, id);
  return id;
}
