/**
 * The document's XMP packets (the catalog's and every other metadata stream) read into the XMP data
 * model once per file, with the extension schema definitions it carries.
 */
import { PDFDict, PDFStream } from '@cantoo/pdf-lib';
import { getName, getStream, streamBytes } from '../../core/pdf-objects';
import type { ValidationModel } from '../model';
import { fact } from '../fact';
import { extensionDefinitions, type ExtensionDefinitions } from '../../core/xmp/extension-schemas';
import type { Edition } from '../../core/xmp/schemas';
import type { TypeContext } from '../../core/xmp/value-types';
import { readXmpPacket, type XmpPacket } from '../../core/xmp/xmp-model';

/** A metadata stream read into the XMP data model. */
export interface MetadataPacket {
  packet: XmpPacket;
  /** The character encoding the bytes are in (PDF/A-2 and later require UTF-8). */
  encoding: 'UTF-8' | 'UTF-16BE' | 'UTF-16LE' | 'UTF-32' | 'invalid UTF-8';
  definitions: ExtensionDefinitions;
  objectNumber: number | undefined;
  /** The stream dictionary's Type and Subtype (Metadata and XML are required). */
  type: string | undefined;
  subtype: string | undefined;
}

/** The main packet, or null when the catalog has no readable Metadata stream (another rule's failure). */
export const mainPacket = fact('metadata-main-packet', (m): MetadataPacket | null => {
  const stream = getStream(m.catalog, 'Metadata');
  if (!stream) return null;
  return readStream(m, stream);
});

export function typeContext(main: MetadataPacket, edition: Edition): TypeContext {
  return { edition, custom: main.definitions.types };
}

function decode(bytes: Uint8Array): { text: string; encoding: MetadataPacket['encoding'] } {
  // PDF/A-1 allows UTF-16 and UTF-32 packets, with or without a byte order mark.
  const [a, b, c, d] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if ((a === 0 && b === 0 && c === 0xfe && d === 0xff) || (a === 0 && b === 0 && c === 0 && d === 0x3c)) return { text: utf32(bytes, false), encoding: 'UTF-32' };
  if ((a === 0xff && b === 0xfe && c === 0 && d === 0) || (a === 0x3c && b === 0 && c === 0 && d === 0)) return { text: utf32(bytes, true), encoding: 'UTF-32' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'UTF-16BE' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'UTF-16LE' };
  // UTF-16 without a byte order mark: '<' as 00 3C or 3C 00.
  if (bytes[0] === 0 && bytes[1] === 0x3c) return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'UTF-16BE' };
  if (bytes[0] === 0x3c && bytes[1] === 0) return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'UTF-16LE' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8' };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), encoding: 'invalid UTF-8' };
  }
}

function utf32(bytes: Uint8Array, little: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let out = '';
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const cp = view.getUint32(i, little);
    if (cp === 0xfeff && i === 0) continue;
    out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
  }
  return out;
}

/**
 * Every metadata stream of the file: the catalog's first, then those of pages,
 * XObjects, fonts and other objects (found through their Metadata key). PDF/A
 * requires all of them to be well-formed XMP with described properties.
 */
export const allPackets = fact('metadata-all-packets', (m): MetadataPacket[] => {
  const main = mainPacket(m);
  const out: MetadataPacket[] = main ? [main] : [];
  const catalogStream = getStream(m.catalog, 'Metadata');
  const seen = new Set<PDFStream>(catalogStream ? [catalogStream] : []);
  for (const [, obj] of m.context.enumerateIndirectObjects()) {
    const dict = obj instanceof PDFStream ? obj.dict : obj instanceof PDFDict ? obj : undefined;
    if (!dict || dict === m.catalog) continue;
    const stream = getStream(dict, 'Metadata');
    if (!stream || seen.has(stream)) continue;
    seen.add(stream);
    const read = readStream(m, stream);
    if (read) out.push(read);
  }
  return out;
});

/**
 * The packets whose XMP the PDF/A part asks about: all of them from PDF/A-2 on,
 * only the catalog's in PDF/A-1. ISO 19005-1 puts its XMP requirements on the
 * document's metadata, and veraPDF reads other metadata streams as XMP only
 * from PDF/A-2 on (GFPDMetadata builds no XMP package for them in PDF/A-1), so
 * an image's or a font's own packet cannot fail a PDF/A-1 metadata rule.
 */
export function packetsOfPart(m: ValidationModel, part: number): MetadataPacket[] {
  if (part !== 1) return allPackets(m);
  const main = mainPacket(m);
  return main ? [main] : [];
}

function readStream(m: ValidationModel, stream: PDFStream): MetadataPacket | null {
  const bytes = streamBytes(stream);
  if (!bytes || bytes.length === 0) return null;
  const { text, encoding } = decode(bytes);
  const packet = readXmpPacket(text);
  return {
    packet,
    encoding,
    definitions: extensionDefinitions(packet),
    objectNumber: m.objectNumbers.of(stream),
    type: getName(stream.dict, 'Type'),
    subtype: getName(stream.dict, 'Subtype'),
  };
}
