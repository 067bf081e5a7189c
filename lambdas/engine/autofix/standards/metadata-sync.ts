/**
 * metadata.sync: makes the document information dictionary (Info) and the
 * catalog's XMP packet say the same thing, the way ISO 19005-1 6.7.3 pairs
 * them: Title ↔ dc:title (x-default), Author ↔ dc:creator (its single entry),
 * Subject ↔ dc:description (x-default), Keywords ↔ pdf:Keywords, Creator ↔
 * xmp:CreatorTool, Producer ↔ pdf:Producer, CreationDate ↔ xmp:CreateDate,
 * ModDate ↔ xmp:ModifyDate.
 *
 * Which side wins: the Info entry when it holds a text string (most producers
 * write it and most readers show it), else the XMP value. Dates: the side whose
 * date is valid; a date valid on neither side is removed from both (an invalid
 * date is itself a PDF/A failure). A dc:creator with several entries cannot
 * equal one Author string: the list is kept and the Info Author removed.
 *
 * When anything had to change (or the caller changed the document: `touched`),
 * the file is stamped: ModDate, xmp:ModifyDate and xmp:MetadataDate become now
 * (from an injectable clock), and the producer keeps its original name with
 * "; modified with Proofline" appended (or is "Proofline" when there was none),
 * so the file still says what made it and that we changed it. A file already
 * consistent is left alone, so a second run changes nothing.
 *
 * The packet is rewritten as a whole by a serializer (xmp-writer.ts) from the
 * XMP data model the validator reads packets into, so every property the
 * packet had (and any extension schema) is kept; a packet that is not
 * well-formed XML keeps nothing but is replaced by a well-formed one. A file
 * without XMP gets a packet. The stream is uncompressed (PDF/A-1 forbids
 * filters on it) and replaces the old one under the same object number.
 */
import { PDFDict, PDFHexString, PDFNull, type PDFObject, PDFRef, type PDFStream, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { getName, getStream, getText, name, resolve, streamBytes } from '../../core/pdf-objects';
import { NS, predefinedType } from '../../core/xmp/schemas';
import { typeProblem } from '../../core/xmp/value-types';
import { RDF_NS, readXmpPacket, type XmpNode, type XmpPacket, type XmpProperty } from '../../core/xmp/xmp-model';
import type { FixOutcome } from '../fix';
import { formatPdfDate, formatXmpDate, instantOf, parsePdfDate, parseXmpDate, utcParts, type DateParts } from './dates';
import { writeXmpPacket, xmlSafeText, xmpValue } from './xmp-writer';

export const PRODUCER_SUFFIX = '; modified with Proofline';
export const PRODUCER_ALONE = 'Proofline';

export interface MetadataSyncOptions {
  /** The clock for ModDate and MetadataDate (tests inject a fixed one). */
  now?: () => Date;
  /** XMP properties the caller needs as well (pdfaid, pdfxid…): each replaces the property of the same namespace and name. */
  set?: readonly XmpProperty[];
  /** XMP properties the caller needs gone (a stale pdfaid:amd, say). */
  remove?: (p: XmpProperty) => boolean;
  /** Info entries the caller needs as well (GTS_PDFXVersion, Trapped); compared by their written form. */
  info?: Readonly<Record<string, PDFObject>>;
  /** The caller changed the document: stamp the dates and producer even if Info and XMP already agreed. */
  touched?: boolean;
  /**
   * What becomes of the Info dictionary: `sync` (the default) keeps it equal to
   * the XMP; `none` removes it and `modDate` keeps only its ModDate (PDF/A-4
   * 6.1.3, without and with a PieceInfo). Info still wins as a source: its
   * values go to the XMP before it goes.
   */
  infoDictionary?: 'sync' | 'none' | 'modDate';
  /**
   * Rewrite a packet that is readable but not in the form PDF/A wants (a
   * header with bytes or encoding attributes, UTF-16 or UTF-32, a filtered
   * stream, a stream dictionary without Type Metadata and Subtype XML) even
   * when no property changes: the writer's packet is all of that.
   */
  normalisePacket?: boolean;
}

export interface MetadataSyncResult {
  /** What changed, one entry per Info entry or XMP property written or removed ("Info Title", "XMP dc:title"…). */
  changes: string[];
  /** The XMP packet was created (the file had none, or none that could be read). */
  packetCreated: boolean;
}

export function metadataSyncFix(doc: PDFDocument, opts: MetadataSyncOptions = {}): FixOutcome {
  const r = syncMetadata(doc, opts);
  return {
    count: r.changes.length,
    pages: [],
    detail: r.changes.length ? `Info entries and XMP properties written or removed: ${r.changes.join(', ')}${r.packetCreated ? ' (XMP packet created)' : ''}` : 'Info and XMP already agree',
  };
}

/** Property key: namespace and local name. */
const key = (ns: string, local: string) => `${ns} ${local}`;

export function syncMetadata(doc: PDFDocument, opts: MetadataSyncOptions = {}): MetadataSyncResult {
  const ctx = doc.context;
  const catalog = doc.catalog as PDFDict;
  const changes: string[] = [];
  const infoRaw = resolve(ctx, ctx.trailerInfo.Info);
  const info = infoRaw instanceof PDFDict ? infoRaw : undefined;

  // The packet as the data model; properties keyed by namespace and name (a duplicate is dropped: XMP allows one).
  const stream = getStream(catalog, 'Metadata');
  const packet = stream ? readPacket(streamBytes(stream)) : null;
  const props = new Map<string, XmpProperty>();
  for (const p of packet?.properties ?? []) if (p.ns !== RDF_NS && !props.has(key(p.ns, p.name))) props.set(key(p.ns, p.name), p);
  const packetUsable = packet !== null && packet.problems.length === 0;
  // A property this fix writes whose value has the wrong shape (dc:title as plain text, pdf:Keywords as a Bag…):
  // read leniently and written again in its proper form, never left as it was.
  const illTyped = (k: string): boolean => {
    const p = props.get(k);
    return p !== undefined && wrongShape(p);
  };
  // Info entries to write (a string) or delete (null).
  const infoWrites = new Map<string, string | PDFObject | null>();
  const xmpWrites = new Map<string, XmpProperty | null>();

  const infoText = (entry: string): string | undefined => {
    const v = getText(info, entry);
    return v === undefined ? undefined : xmlSafeText(v);
  };
  const infoHas = (entry: string) => {
    const raw = info?.lookup(name(entry));
    return raw !== undefined && raw !== PDFNull;
  };
  const infoPolicy = opts.infoDictionary ?? 'sync';
  const setInfo = (entry: string, value: string | null) => {
    if (infoPolicy !== 'sync') return; // Info is removed or reduced below, not kept in step
    if (value === null ? infoHas(entry) : getText(info, entry) !== value) infoWrites.set(entry, value);
  };

  // Text pairs: Info wins, else XMP.
  const textPairs: { entry: string; ns: string; prefix: string; local: string; form: 'langAlt' | 'text' }[] = [
    { entry: 'Title', ns: NS.dc, prefix: 'dc', local: 'title', form: 'langAlt' },
    { entry: 'Subject', ns: NS.dc, prefix: 'dc', local: 'description', form: 'langAlt' },
    { entry: 'Keywords', ns: NS.pdf, prefix: 'pdf', local: 'Keywords', form: 'text' },
    { entry: 'Creator', ns: NS.xmp, prefix: 'xmp', local: 'CreatorTool', form: 'text' },
  ];
  for (const pair of textPairs) {
    const current = props.get(key(pair.ns, pair.local));
    const ill = illTyped(key(pair.ns, pair.local));
    const xmp = ill ? lenientText(current!.node, pair.form) : pair.form === 'langAlt' ? xDefault(current?.node) : simple(current?.node);
    const target = infoText(pair.entry) ?? (xmp !== null ? xmlSafeText(xmp) : undefined);
    if (target === undefined) {
      setInfo(pair.entry, null); // present but not a text string
      continue;
    }
    setInfo(pair.entry, target);
    if (xmp !== target || ill) xmpWrites.set(key(pair.ns, pair.local), pair.form === 'langAlt' ? withXDefault(current, pair, target) : xmpValue.text(pair.ns, pair.prefix, pair.local, target));
  }

  // Author ↔ dc:creator.
  const creatorNode = props.get(key(NS.dc, 'creator'))?.node;
  const creators = creatorNode?.kind === 'array' ? creatorNode.items.map((i) => (i.kind === 'simple' ? i.value : null)) : creatorNode?.kind === 'simple' ? [creatorNode.value] : [];
  const author = infoText('Author');
  if (creators.length > 1 && creators.every((c) => c !== null)) {
    setInfo('Author', null);
    // The list stays, as the ordered list (seq ProperName) XMP defines dc:creator to be.
    if (illTyped(key(NS.dc, 'creator'))) xmpWrites.set(key(NS.dc, 'creator'), xmpValue.seq(NS.dc, 'dc', 'creator', creators.map((c) => xmlSafeText(c!))));
  } else if (author !== undefined) {
    setInfo('Author', author);
    if (!(creatorNode?.kind === 'array' && creatorNode.form === 'Seq' && creators.length === 1 && creators[0] === author)) xmpWrites.set(key(NS.dc, 'creator'), xmpValue.seq(NS.dc, 'dc', 'creator', [author]));
  } else {
    const only = creators.length === 1 && creators[0] !== null ? xmlSafeText(creators[0]) : undefined;
    setInfo('Author', only ?? null);
    if (only !== undefined && !(creatorNode?.kind === 'array' && creatorNode.form === 'Seq' && creators[0] === only)) xmpWrites.set(key(NS.dc, 'creator'), xmpValue.seq(NS.dc, 'dc', 'creator', [only]));
  }

  // Dates: the valid side wins, Info first.
  const datePairs = [
    { entry: 'CreationDate', local: 'CreateDate' },
    { entry: 'ModDate', local: 'ModifyDate' },
  ];
  for (const pair of datePairs) {
    const infoDate = getText(info, pair.entry);
    const xmpDate = simple(props.get(key(NS.xmp, pair.local))?.node);
    const illDate = illTyped(key(NS.xmp, pair.local));
    const fromInfo = infoDate !== undefined ? parsePdfDate(infoDate) : null;
    const fromXmp = xmpDate !== null ? parseXmpDate(xmpDate) : null;
    const chosen = fromInfo ?? fromXmp;
    if (!chosen) {
      setInfo(pair.entry, null);
      if (props.has(key(NS.xmp, pair.local))) xmpWrites.set(key(NS.xmp, pair.local), null);
      continue;
    }
    if (!fromInfo) setInfo(pair.entry, formatPdfDate(chosen));
    if (!fromXmp || instantOf(fromXmp) !== instantOf(chosen) || illDate) xmpWrites.set(key(NS.xmp, pair.local), xmpValue.text(NS.xmp, 'xmp', pair.local, formatXmpDate(chosen)));
  }

  // Producer: the same on both sides (the stamp below may extend it).
  const illProducer = illTyped(key(NS.pdf, 'Producer'));
  const producerXmp = illProducer ? lenientText(props.get(key(NS.pdf, 'Producer'))!.node, 'text') : simple(props.get(key(NS.pdf, 'Producer'))?.node);
  const producer = infoText('Producer') ?? (producerXmp !== null ? xmlSafeText(producerXmp) : undefined);
  if (producer !== undefined) {
    setInfo('Producer', producer);
    if (producerXmp !== producer || illProducer) xmpWrites.set(key(NS.pdf, 'Producer'), xmpValue.text(NS.pdf, 'pdf', 'Producer', producer));
  } else setInfo('Producer', null);

  // The caller's own properties and entries.
  for (const p of opts.set ?? []) {
    const old = props.get(key(p.ns, p.name));
    if (!old || !sameNode(old.node, p.node) || old.prefix !== p.prefix) xmpWrites.set(key(p.ns, p.name), p);
  }
  if (opts.remove) for (const [k, p] of props) if (!xmpWrites.has(k) && opts.remove(p)) xmpWrites.set(k, null);
  // What could not be read back into its proper form (a dc:creator of structures, an xmp:MetadataDate that is no date) goes.
  for (const k of OWNED) if (!xmpWrites.has(k) && illTyped(k)) xmpWrites.set(k, null);
  for (const [entry, value] of Object.entries(opts.info ?? {})) {
    if (infoPolicy === 'sync' && info?.lookup(name(entry))?.toString() !== value.toString()) infoWrites.set(entry, value);
  }
  // Info that must go, or keep nothing but a valid ModDate.
  const infoKeys = info ? info.keys().map((k) => k.decodeText()) : [];
  const infoToReduce =
    infoPolicy === 'none' ? ctx.trailerInfo.Info !== undefined : infoPolicy === 'modDate' && (infoKeys.some((k) => k !== 'ModDate') || (info !== undefined && !parsePdfDate(getText(info, 'ModDate') ?? '')));

  // A packet that is missing or unreadable is itself something to change (and one not in its plain form, when asked).
  const needsPacket = !packetUsable || stream === undefined;
  const misshapen = opts.normalisePacket === true && !needsPacket && packetForm(stream, packet!) !== null;
  if (infoWrites.size === 0 && xmpWrites.size === 0 && !needsPacket && !misshapen && !infoToReduce && !opts.touched) return { changes: [], packetCreated: false };

  // Stamp: now, and the producer that says we modified the file.
  const now = utcParts((opts.now ?? (() => new Date()))());
  const stamped = producer === undefined ? PRODUCER_ALONE : producer.endsWith(PRODUCER_SUFFIX) || producer === PRODUCER_ALONE ? producer : `${producer}${PRODUCER_SUFFIX}`;
  setInfo('Producer', stamped);
  if (producerXmp !== stamped || illProducer) xmpWrites.set(key(NS.pdf, 'Producer'), xmpValue.text(NS.pdf, 'pdf', 'Producer', stamped));
  else xmpWrites.delete(key(NS.pdf, 'Producer'));
  stampDate(now, 'ModDate', 'ModifyDate');
  stampDate(now, null, 'MetadataDate');

  function stampDate(at: DateParts, entry: string | null, local: string) {
    if (entry) setInfo(entry, formatPdfDate(at));
    const old = simple(props.get(key(NS.xmp, local))?.node);
    const value = formatXmpDate(at);
    if (old !== value || illTyped(key(NS.xmp, local))) xmpWrites.set(key(NS.xmp, local), xmpValue.text(NS.xmp, 'xmp', local, value));
    else xmpWrites.delete(key(NS.xmp, local));
  }

  // Info: created when missing (PDF/A-1 and PDF/X readers look there).
  let infoDict = info;
  if (!infoDict && [...infoWrites.values()].some((v) => v !== null)) {
    infoDict = ctx.obj({});
    ctx.trailerInfo.Info = ctx.register(infoDict);
  }
  for (const [entry, value] of infoWrites) {
    if (!infoDict) break;
    if (value === null) infoDict.delete(name(entry));
    else infoDict.set(name(entry), typeof value === 'string' ? pdfText(value) : value);
    changes.push(`Info ${entry}`);
  }
  if (infoPolicy === 'none' && ctx.trailerInfo.Info !== undefined) {
    ctx.trailerInfo.Info = undefined;
    changes.push('Info dictionary removed (its entries are in the XMP)');
  } else if (infoPolicy === 'modDate') {
    // Only ModDate, now (the file is being changed): a fresh dictionary, so nothing else lingers.
    const fresh = ctx.obj({ ModDate: PDFString.of(formatPdfDate(now)) });
    const raw = ctx.trailerInfo.Info;
    if (raw instanceof PDFRef && ctx.lookup(raw) !== undefined) ctx.assign(raw, fresh);
    else ctx.trailerInfo.Info = ctx.register(fresh);
    if (infoToReduce) changes.push('Info dictionary reduced to ModDate (its other entries are in the XMP)');
  }

  // XMP: the old properties in their order with the changes applied, new ones at the end.
  const out: XmpProperty[] = [];
  for (const [k, p] of props) {
    if (!xmpWrites.has(k)) out.push(p);
    else if (xmpWrites.get(k)) out.push(xmpWrites.get(k)!);
  }
  for (const [k, p] of xmpWrites) if (p && !props.has(k)) out.push(p);
  for (const [k, p] of xmpWrites) changes.push(`XMP ${p ? `${p.prefix}:${p.name}` : describeKey(k, props)}${p ? '' : ' removed'}`);
  writeMetadataStream(doc, writeXmpPacket(out));
  if (needsPacket) changes.push(stream === undefined ? 'XMP packet created' : 'XMP packet rewritten (it was not well-formed)');
  else if (misshapen) changes.push(`XMP packet rewritten (${packetForm(stream, packet!)})`);
  return { changes, packetCreated: needsPacket };
}

/** Replaces the catalog's Metadata stream, under the same object number when it had one. */
function writeMetadataStream(doc: PDFDocument, bytes: Uint8Array): void {
  const ctx = doc.context;
  const catalog = doc.catalog as PDFDict;
  const stream = ctx.stream(bytes, { Type: 'Metadata', Subtype: 'XML' });
  const raw = catalog.get(name('Metadata'));
  if (raw instanceof PDFRef && ctx.lookup(raw) !== undefined) ctx.assign(raw, stream);
  else catalog.set(name('Metadata'), ctx.register(stream));
}

/** A PDF text string: literal for plain ASCII, UTF-16BE otherwise (PDFDocEncoding cannot hold everything). */
function pdfText(s: string): PDFString | PDFHexString {
  return /^[\x20-\x7E]*$/.test(s) && !/[()\\]/.test(s) ? PDFString.of(s) : PDFHexString.fromText(s);
}

/** How a readable packet differs from the plain form the writer gives (null when it does not). */
function packetForm(stream: PDFStream | undefined, packet: XmpPacket): string | null {
  if (!stream) return null;
  if (stream.dict.has(name('Filter'))) return 'it was compressed';
  if (getName(stream.dict, 'Type') !== 'Metadata' || getName(stream.dict, 'Subtype') !== 'XML') return 'its stream lacked Type Metadata and Subtype XML';
  const bytes = streamBytes(stream);
  if (bytes && !isUtf8(bytes)) return 'it was not UTF-8';
  if (packet.header && /\s(bytes|encoding)\s*=/.test(packet.header)) return 'its header had bytes or encoding attributes';
  return null;
}

function isUtf8(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe) || bytes[0] === 0 || bytes[1] === 0) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The catalog's XMP packet read into the data model (null when there is none), as syncMetadata reads it. */
export function readCatalogPacket(doc: PDFDocument): XmpPacket | null {
  const stream = getStream(doc.catalog as PDFDict, 'Metadata');
  return stream ? readPacket(streamBytes(stream)) : null;
}

/** The properties syncMetadata writes itself (the Info equivalents and the metadata date). */
const OWNED: readonly string[] = [
  key(NS.dc, 'title'),
  key(NS.dc, 'creator'),
  key(NS.dc, 'description'),
  key(NS.pdf, 'Keywords'),
  key(NS.xmp, 'CreatorTool'),
  key(NS.pdf, 'Producer'),
  key(NS.xmp, 'CreateDate'),
  key(NS.xmp, 'ModifyDate'),
  key(NS.xmp, 'MetadataDate'),
];

/** True for a property syncMetadata writes itself (pdfa.prepare leaves those to it rather than removing them). */
export function isSyncOwned(p: { ns: string; name: string }): boolean {
  return OWNED.includes(key(p.ns, p.name));
}

/** An owned property whose value is not of the type XMP gives it (the validator's typeProblem). */
function wrongShape(p: XmpProperty): boolean {
  if (!isSyncOwned(p)) return false;
  // These types are the same in the 2004 and 2005 editions of the XMP Specification.
  const type = predefinedType('2005', p.ns, p.name);
  return type !== undefined && typeProblem(p.node, type, { edition: '2005', custom: new Map() }) !== null;
}

/** A text read from a value of the wrong shape: a plain value as it is, an array's items (joined for plain text, the x-default or first for a language alternative). */
function lenientText(n: XmpNode, form: 'langAlt' | 'text'): string | null {
  if (n.kind === 'simple') return n.value;
  if (n.kind !== 'array') return null;
  const items = n.items.filter((i): i is Extract<XmpNode, { kind: 'simple' }> => i.kind === 'simple');
  if (!items.length) return null;
  if (form === 'langAlt') return (items.find((i) => i.lang?.toLowerCase() === 'x-default') ?? items[0]!).value;
  return items.map((i) => i.value).join(', ');
}

function readPacket(bytes: Uint8Array | null) {
  if (!bytes || bytes.length === 0) return null;
  return readXmpPacket(decode(bytes));
}

function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  // UTF-16 without a byte order mark: '<' as 00 3C or 3C 00 (as the validator reads it).
  if (bytes[0] === 0 && bytes[1] === 0x3c) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes[0] === 0x3c && bytes[1] === 0) return new TextDecoder('utf-16le').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

const simple = (n: XmpNode | undefined): string | null => (n?.kind === 'simple' ? n.value : null);

function xDefault(n: XmpNode | undefined): string | null {
  if (n?.kind !== 'array') return null;
  const item = n.items.find((i) => i.lang?.toLowerCase() === 'x-default');
  return item ? simple(item) : null;
}

/** A language alternative with its x-default entry set to `value`, other languages kept. */
function withXDefault(current: XmpProperty | undefined, pair: { ns: string; prefix: string; local: string }, value: string): XmpProperty {
  const fresh = xmpValue.langAlt(pair.ns, pair.prefix, pair.local, value);
  if (current?.node.kind !== 'array') return fresh;
  const others = current.node.items.filter((i) => i.lang?.toLowerCase() !== 'x-default' && i.kind === 'simple' && i.lang !== undefined);
  return { ...fresh, node: { kind: 'array', form: 'Alt', items: [...(fresh.node as { items: XmpNode[] }).items, ...others] } };
}

/** Structural equality (key order and absent-vs-undefined entries do not matter). */
function sameNode(a: XmpNode, b: XmpNode): boolean {
  const canon = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([x], [y]) => x.localeCompare(y)).map(([k, x]) => [k, canon(x)])) : v;
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

function describeKey(k: string, props: Map<string, XmpProperty>): string {
  const p = props.get(k);
  return p ? `${p.prefix}:${p.name}` : k;
}
