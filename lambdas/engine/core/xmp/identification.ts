/**
 * The document's XMP metadata (catalog /Metadata) and the identification
 * schemas print and archive workflows rely on: PDF/A (pdfaid), PDF/UA (pdfuaid),
 * PDF/X (pdfxid and the older pdfx namespace) and dc:title.
 *
 * XMP allows a property as an attribute (`pdfaid:part="2"`) or as an element
 * (`<pdfaid:part>2</pdfaid:part>`), and the prefix is whatever the packet binds
 * to the namespace URI; both forms and any prefix are read. This is a reader for
 * a handful of simple properties, not a general RDF parser: it reads by pattern
 * rather than through the data model (xmp-model.ts) so that the claims of a
 * packet that is not well-formed XML, which the data model refuses, are still
 * what detection and the profiles see.
 */
import { PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import { getStream, streamBytes, streamFilters } from '../pdf-objects';
import { NS } from './schemas';

export interface IdentificationProperty {
  value: string;
  /** The prefix the packet used (PDF/A requires the conventional one). */
  prefix: string;
}

export interface XmpFacts {
  /** The catalog has a Metadata stream. */
  present: boolean;
  /** Its filters (PDF/A-1 forbids any). */
  filters: string[];
  /** False when the stream could not be decoded or holds no XMP packet. */
  readable: boolean;
  pdfa: { part: IdentificationProperty | null; conformance: IdentificationProperty | null; rev: IdentificationProperty | null; amd: IdentificationProperty | null } | null;
  pdfua: { part: IdentificationProperty | null; rev: IdentificationProperty | null } | null;
  /** `PDF/X-4`, `PDF/X-1a:2001`… from pdfxid:GTS_PDFXVersion or pdfx:GTS_PDFXVersion. */
  pdfxVersion: string | null;
  dcTitle: string | null;
  /** The packet header's `bytes` / `encoding` attributes (deprecated, forbidden by PDF/A). */
  headerAttributes: string[];
}

const EMPTY: XmpFacts = {
  present: false,
  filters: [],
  readable: false,
  pdfa: null,
  pdfua: null,
  pdfxVersion: null,
  dcTitle: null,
  headerAttributes: [],
};

export function readXmp(doc: PDFDocument): XmpFacts {
  const catalog = doc.catalog as PDFDict;
  const stream = getStream(catalog, 'Metadata');
  if (!stream) return EMPTY;
  const bytes = streamBytes(stream);
  const facts: XmpFacts = { ...EMPTY, present: true, filters: streamFilters(stream) };
  if (!bytes) return facts;
  const xml = decodeXml(bytes);
  if (!/<x:xmpmeta|<rdf:RDF|<[\w-]+:RDF\b/.test(xml)) return facts;
  return { ...facts, ...parseXmpPacket(xml), readable: true };
}

/** The facts of a packet (exported for tests and for XMP found elsewhere, e.g. embedded files). */
export function parseXmpPacket(xml: string): Omit<XmpFacts, 'present' | 'filters' | 'readable'> {
  const prefixes = bindings(xml);
  const prop = (ns: string, local: string): IdentificationProperty | null => {
    for (const prefix of prefixes.get(ns) ?? []) {
      const value = simpleProperty(xml, prefix, local);
      if (value !== null) return { value, prefix };
    }
    return null;
  };
  const pdfaPart = prop(NS.pdfaid, 'part');
  const pdfaConf = prop(NS.pdfaid, 'conformance');
  const pdfaRev = prop(NS.pdfaid, 'rev');
  const pdfaAmd = prop(NS.pdfaid, 'amd');
  const uaPart = prop(NS.pdfuaid, 'part');
  const uaRev = prop(NS.pdfuaid, 'rev');
  const pdfx = prop(NS.pdfxid, 'GTS_PDFXVersion') ?? prop(NS.pdfx, 'GTS_PDFXVersion');
  const header = /<\?xpacket\s+begin=[^?]*\?>/.exec(xml)?.[0] ?? '';
  return {
    pdfa: pdfaPart || pdfaConf || pdfaRev ? { part: pdfaPart, conformance: pdfaConf, rev: pdfaRev, amd: pdfaAmd } : null,
    pdfua: uaPart || uaRev ? { part: uaPart, rev: uaRev } : null,
    pdfxVersion: pdfx?.value ?? null,
    dcTitle: langAltDefault(xml, prefixes.get(NS.dc) ?? []),
    headerAttributes: ['bytes', 'encoding'].filter((a) => new RegExp(`\\s${a}\\s*=`).test(header)),
  };
}

function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

/** Namespace URI → the prefixes bound to it anywhere in the packet. */
function bindings(xml: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const m of xml.matchAll(/xmlns:([\w.-]+)\s*=\s*["']([^"']*)["']/g)) {
    const list = map.get(m[2]!) ?? [];
    if (!list.includes(m[1]!)) list.push(m[1]!);
    map.set(m[2]!, list);
  }
  return map;
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function simpleProperty(xml: string, prefix: string, local: string): string | null {
  const q = `${esc(prefix)}:${esc(local)}`;
  const attr = new RegExp(`\\s${q}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(xml);
  if (attr) return unescapeXml((attr[1] ?? attr[2] ?? '').trim());
  const elem = new RegExp(`<${q}(?:\\s[^>]*)?>([\\s\\S]*?)</${q}>`).exec(xml);
  if (elem) return unescapeXml(elem[1]!.replace(/<[^>]+>/g, '').trim());
  return null;
}

/** The x-default (else first) entry of a Lang Alt property such as dc:title. */
function langAltDefault(xml: string, dcPrefixes: string[]): string | null {
  for (const prefix of dcPrefixes) {
    const q = `${esc(prefix)}:title`;
    const elem = new RegExp(`<${q}(?:\\s[^>]*)?>([\\s\\S]*?)</${q}>`).exec(xml);
    if (!elem) {
      const attr = simpleProperty(xml, prefix, 'title');
      if (attr !== null) return attr;
      continue;
    }
    const items = [...elem[1]!.matchAll(/<[\w-]+:li([^>]*)>([\s\S]*?)<\/[\w-]+:li>/g)];
    const chosen = items.find((i) => /xml:lang\s*=\s*["']x-default["']/.test(i[1]!)) ?? items[0];
    const text = unescapeXml((chosen ? chosen[2]! : elem[1]!).replace(/<[^>]+>/g, '').trim());
    return text;
  }
  return null;
}

function unescapeXml(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => codePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => codePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

const codePoint = (n: number): string => (Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '\ufffd');
