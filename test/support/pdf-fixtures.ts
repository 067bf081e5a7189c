/**
 * Test fixtures built in code: PDFs with chosen boxes, fonts, actions, claims
 * and defects; images in several formats; other file types for detection; and a
 * streamed large PDF for upload tests. Every builder returns bytes (or writes a
 * file) and documents what it produces so any test suite can reuse it.
 *
 * Fonts: pdf-lib's StandardFonts are NOT embedded (a natural "font not embedded"
 * case). For an embedded font the builder writes a TrueType font dictionary by
 * hand around LiberationSans-Regular.ttf, which pdfjs-dist ships in
 * `standard_fonts/` — always present where the project's dependencies are.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { crc32, deflateSync, gzipSync } from 'node:zlib';
import {
  getDefaultSRGBProfile,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHeader,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  StandardFonts,
  type PDFContext,
} from '@cantoo/pdf-lib';
import sharp from 'sharp';

export type Rect = [number, number, number, number];

/** Paper sizes in points. */
export const A4: [number, number] = [595.28, 841.89];
export const A5: [number, number] = [419.53, 595.28];
export const MM = 72 / 25.4;

export interface PageSpec {
  /** Page size in points (default A4); sets the MediaBox [0 0 w h]. */
  size?: [number, number];
  /** Overrides the MediaBox (e.g. with an origin other than 0 0). */
  mediaBox?: Rect;
  cropBox?: Rect;
  trimBox?: Rect;
  bleedBox?: Rect;
  artBox?: Rect;
  rotate?: number;
  userUnit?: number;
  /** Text drawn at the top left (default "Page n"); null draws none. */
  text?: string | null;
  /** 'standard' = Helvetica, not embedded (default); 'embedded' = Liberation Sans, embedded. */
  font?: 'standard' | 'embedded';
  /** Text drawn in rendering mode 3 (invisible, like an OCR layer). */
  invisibleText?: boolean;
  /** An RGB image of this many pixels placed at this size in points. */
  image?: { widthPx: number; heightPx: number; placedWidthPt: number; placedHeightPt: number };
  /** An ExtGState with fill/stroke alpha 0.5, used by the content (transparency). */
  transparency?: boolean;
  /** Page additional action (on open) running JavaScript. */
  pageOpenJavaScript?: string;
  /** A link annotation whose action launches a program. */
  launchLink?: boolean;
  /** A link annotation whose action runs JavaScript. */
  javaScriptLink?: string;
  /** A link annotation whose action opens this web address. */
  uriLink?: string;
  /** Device colour space of the drawn text and shapes (rg, k or g operators); default rgb. */
  colourSpace?: 'rgb' | 'cmyk' | 'gray';
}

export interface PdfSpec {
  /** Page specs, or a count of default pages. */
  pages?: PageSpec[] | number;
  /** Defaults applied to every page spec. */
  pageDefaults?: PageSpec;
  /** Header version, e.g. '1.4', '1.7', '2.0' (default 1.7). */
  version?: string;
  /** Document-level JavaScript (Names/JavaScript). */
  documentJavaScript?: string;
  /** OpenAction: a JavaScript action, a Launch action, or a GoTo destination. */
  openAction?: 'javascript' | 'launch' | 'goto';
  /** An XMP packet written verbatim (instead of one built from the claims below). */
  xmpPacket?: string;
  /** XMP with a PDF/A claim. */
  pdfa?: { part: number; conformance?: string; rev?: string };
  /** XMP with a PDF/UA claim. */
  pdfua?: { part: number; rev?: string };
  /** XMP with a PDF/X claim (pdfxid:GTS_PDFXVersion). */
  pdfx?: string;
  /** dc:title in XMP. */
  title?: string;
  /** Writes an XMP packet even without claims; 'compressed' flate-encodes it. */
  xmp?: boolean | 'compressed';
  /** Output intent: GTS_PDFA1 with the sRGB profile, GTS_PDFX with it, or GTS_PDFA1 without a profile. */
  outputIntent?: 'pdfa-srgb' | 'pdfx-srgb' | 'pdfa-no-profile';
  /** Writes a trailer ID (default true). */
  trailerId?: boolean;
  lang?: string;
  markInfo?: boolean;
  /**
   * Tagged content: a structure tree (Document, one P per page holding the
   * page's text as MCID 0, with a ParentTree) and the page's other content
   * marked as Artifact. With version 2.0 the elements are in the PDF 2.0
   * namespace.
   */
  structTree?: boolean;
  displayDocTitle?: boolean;
  /** Encrypts with an owner password; a user password makes it need one to open. */
  encrypt?: { userPassword?: string; ownerPassword: string };
  /** Embeds a file through the EmbeddedFiles name tree. */
  embeddedFile?: { name: string; bytes: Uint8Array; mimeType?: string; afRelationship?: boolean };
  /** Catalog OCProperties (optional content). */
  optionalContent?: boolean;
}

const require = createRequire(import.meta.url);
/** Liberation Sans (metric-compatible with Helvetica), shipped by pdfjs-dist. */
export const EMBEDDABLE_TTF_PATH = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf');

/** Builds a PDF from a spec; see PageSpec and PdfSpec for what each option does. */
export async function buildPdf(spec: PdfSpec = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const pageSpecs = typeof spec.pages === 'number' || spec.pages === undefined ? Array.from({ length: spec.pages ?? 1 }, () => ({})) : spec.pages;

  const helveticaRef = ctx.register(ctx.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
  let embeddedRef: PDFRef | undefined;

  for (let i = 0; i < pageSpecs.length; i++) {
    const p: PageSpec = { ...spec.pageDefaults, ...pageSpecs[i] };
    const size = p.size ?? A4;
    const page = doc.addPage(size);
    const node = page.node;
    if (p.mediaBox) node.set(PDFName.of('MediaBox'), ctx.obj(p.mediaBox));
    for (const key of ['cropBox', 'trimBox', 'bleedBox', 'artBox'] as const) {
      const r = p[key];
      if (r) node.set(PDFName.of(key.charAt(0).toUpperCase() + key.slice(1)), ctx.obj(r));
    }
    if (p.rotate !== undefined) node.set(PDFName.of('Rotate'), PDFNumber.of(p.rotate));
    if (p.userUnit !== undefined) node.set(PDFName.of('UserUnit'), PDFNumber.of(p.userUnit));

    const fonts: Record<string, PDFRef> = {};
    const xobjects: Record<string, PDFRef> = {};
    const extg: Record<string, PDFDict> = {};
    const ops: string[] = [];
    const text = p.text === undefined ? `Page ${i + 1}` : p.text;
    if (text !== null) {
      let fontRef = helveticaRef;
      if (p.font === 'embedded') fontRef = embeddedRef ??= await embeddedTrueType(ctx);
      fonts['F1'] = fontRef;
      const show = [colourOp(p.colourSpace, 'black'), 'BT', p.invisibleText ? '3 Tr' : '0 Tr', '/F1 24 Tf', `72 ${size[1] - 100} Td`, `(${escapePdfText(text)}) Tj`, 'ET'];
      ops.push(...(spec.structTree ? ['/P <</MCID 0>> BDC', ...show, 'EMC'] : show));
    }
    // Decoration: marked as an artifact in tagged files.
    if (spec.structTree) ops.push('/Artifact BMC');
    if (p.transparency) {
      extg['GS1'] = ctx.obj({ Type: 'ExtGState', ca: 0.5, CA: 0.5 });
      ops.push('q', '/GS1 gs', colourOp(p.colourSpace, 'red'), '100 100 200 200 re f', 'Q');
    } else {
      ops.push('q', colourOp(p.colourSpace, 'red'), '100 100 100 100 re f', 'Q');
    }
    if (p.image) {
      xobjects['Im1'] = ctx.register(rgbImageStream(ctx, p.image.widthPx, p.image.heightPx));
      ops.push('q', `${p.image.placedWidthPt} 0 0 ${p.image.placedHeightPt} 72 72 cm`, '/Im1 Do', 'Q');
    }
    if (spec.structTree) ops.push('EMC');
    const resources: Record<string, unknown> = {};
    if (Object.keys(fonts).length) resources['Font'] = ctx.obj(fonts);
    if (Object.keys(xobjects).length) resources['XObject'] = ctx.obj(xobjects);
    if (Object.keys(extg).length) resources['ExtGState'] = ctx.obj(extg);
    node.set(PDFName.of('Resources'), ctx.obj(resources as never));
    node.set(PDFName.of('Contents'), ctx.register(ctx.flateStream(ops.join('\n'))));

    if (p.pageOpenJavaScript) {
      node.set(PDFName.of('AA'), ctx.obj({ O: ctx.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of(p.pageOpenJavaScript) }) }));
    }
    const annots: PDFRef[] = [];
    if (p.launchLink) annots.push(ctx.register(linkAnnotation(ctx, { Type: 'Action', S: 'Launch', F: PDFString.of('calc.exe') })));
    if (p.javaScriptLink) annots.push(ctx.register(linkAnnotation(ctx, { Type: 'Action', S: 'JavaScript', JS: PDFString.of(p.javaScriptLink) })));
    if (p.uriLink) annots.push(ctx.register(linkAnnotation(ctx, { Type: 'Action', S: 'URI', URI: PDFString.of(p.uriLink) })));
    if (annots.length) node.set(PDFName.of('Annots'), ctx.obj(annots));
  }

  const catalog = doc.catalog;
  if (spec.documentJavaScript) doc.addJavaScript('main', spec.documentJavaScript);
  if (spec.openAction === 'javascript') catalog.set(PDFName.of('OpenAction'), ctx.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert("hi");') }));
  if (spec.openAction === 'launch') catalog.set(PDFName.of('OpenAction'), ctx.obj({ Type: 'Action', S: 'Launch', F: PDFString.of('cmd.exe') }));
  if (spec.openAction === 'goto') catalog.set(PDFName.of('OpenAction'), ctx.obj([doc.getPage(0).ref, PDFName.of('Fit')]));

  if (spec.pdfa || spec.pdfua || spec.pdfx || spec.title || spec.xmp || spec.xmpPacket) {
    const xml = spec.xmpPacket ?? xmpPacket({ pdfa: spec.pdfa, pdfua: spec.pdfua, pdfx: spec.pdfx, title: spec.title });
    const stream = spec.xmp === 'compressed'
      ? ctx.flateStream(xml, { Type: 'Metadata', Subtype: 'XML' })
      : ctx.stream(new TextEncoder().encode(xml), { Type: 'Metadata', Subtype: 'XML' });
    catalog.set(PDFName.of('Metadata'), ctx.register(stream));
  }
  if (spec.outputIntent) {
    const intent: Record<string, unknown> = {
      Type: 'OutputIntent',
      S: spec.outputIntent === 'pdfx-srgb' ? 'GTS_PDFX' : 'GTS_PDFA1',
      OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
      RegistryName: PDFString.of('http://www.color.org'),
      Info: PDFString.of('sRGB IEC61966-2.1'),
    };
    if (spec.outputIntent !== 'pdfa-no-profile') {
      intent['DestOutputProfile'] = ctx.register(ctx.flateStream(getDefaultSRGBProfile(), { N: 3 }));
    }
    catalog.set(PDFName.of('OutputIntents'), ctx.obj([ctx.obj(intent as never)]));
  }
  if (spec.trailerId !== false) {
    const id = PDFHexString.of(Buffer.from(randomBytes(16)).toString('hex'));
    ctx.trailerInfo.ID = ctx.obj([id, id]);
  }
  if (spec.lang) catalog.set(PDFName.of('Lang'), PDFString.of(spec.lang));
  if (spec.markInfo) catalog.set(PDFName.of('MarkInfo'), ctx.obj({ Marked: true }));
  if (spec.structTree) tagPages(doc, spec.version === '2.0', pageSpecs.map((p) => ({ ...spec.pageDefaults, ...p }).text !== null));
  if (spec.displayDocTitle) catalog.set(PDFName.of('ViewerPreferences'), ctx.obj({ DisplayDocTitle: true }));
  if (spec.optionalContent) catalog.set(PDFName.of('OCProperties'), ctx.obj({ OCGs: [], D: ctx.obj({}) }));
  if (spec.embeddedFile) {
    const ef = spec.embeddedFile;
    await doc.attach(ef.bytes, ef.name, {
      mimeType: ef.mimeType ?? 'application/octet-stream',
      ...(ef.afRelationship === false ? {} : { afRelationship: 'Data' as never }),
    });
  }
  if (spec.version) {
    const [major, minor] = spec.version.split('.').map(Number);
    ctx.header = PDFHeader.forVersion(major!, minor!);
  }
  if (spec.encrypt) {
    // pdf-lib refuses to encrypt a document claiming PDF/A; tests need exactly that defect.
    const metadata = catalog.get(PDFName.of('Metadata'));
    catalog.delete(PDFName.of('Metadata'));
    doc.encrypt({ userPassword: spec.encrypt.userPassword ?? '', ownerPassword: spec.encrypt.ownerPassword } as never);
    if (metadata) catalog.set(PDFName.of('Metadata'), metadata);
  }
  return doc.save({ useObjectStreams: false });
}

/**
 * The structure tree of a tagged fixture: Document → one P per page whose text
 * is MCID 0 of that page (pages without text get no P), the ParentTree mapping
 * each page's StructParents to its P; in the PDF 2.0 namespace when asked.
 */
function tagPages(doc: PDFDocument, pdf2: boolean, withText: boolean[]): void {
  const ctx = doc.context;
  const ns = pdf2 ? ctx.register(ctx.obj({ Type: 'Namespace', NS: PDFString.of('http://iso.org/pdf2/ssn') })) : undefined;
  const inNs = ns ? { NS: ns } : {};
  const root = ctx.register(ctx.obj({ Type: 'StructTreeRoot', ...(ns ? { Namespaces: [ns] } : {}) }));
  const docElem = ctx.register(ctx.obj({ Type: 'StructElem', S: 'Document', P: root, ...inNs }));
  const paragraphs: PDFRef[] = [];
  const nums: unknown[] = [];
  doc.getPages().forEach((page, i) => {
    if (!withText[i]) return;
    const para = ctx.register(ctx.obj({ Type: 'StructElem', S: 'P', P: docElem, Pg: page.ref, K: 0, ...inNs }));
    paragraphs.push(para);
    page.node.set(PDFName.of('StructParents'), PDFNumber.of(i));
    nums.push(i, ctx.obj([para]));
  });
  (ctx.lookup(docElem) as PDFDict).set(PDFName.of('K'), ctx.obj(paragraphs));
  const rootDict = ctx.lookup(root) as PDFDict;
  rootDict.set(PDFName.of('K'), docElem);
  rootDict.set(PDFName.of('ParentTree'), ctx.register(ctx.obj({ Nums: nums as never })));
  rootDict.set(PDFName.of('ParentTreeNextKey'), PDFNumber.of(doc.getPageCount()));
  doc.catalog.set(PDFName.of('StructTreeRoot'), root);
}

/** A PDF that passes every PDF/A rule Proofline implements for the given part/level. */
export function pdfaSpec(part: number, conformance?: string, extra: PdfSpec = {}): PdfSpec {
  return {
    pages: 1,
    pageDefaults: { font: 'embedded' },
    pdfa: { part, ...(conformance ? { conformance } : {}), ...(part === 4 ? { rev: '2020' } : {}) },
    outputIntent: 'pdfa-srgb',
    title: 'Proofline fixture',
    version: part === 4 ? '2.0' : part === 1 ? '1.4' : '1.7',
    ...(/[a]/i.test(conformance ?? '') ? { markInfo: true, structTree: true, lang: 'en-GB' } : {}),
    ...extra,
  };
}

/** A PDF that passes every PDF/UA rule Proofline implements. */
export function pdfuaSpec(part: 1 | 2, extra: PdfSpec = {}): PdfSpec {
  return {
    pages: 1,
    pageDefaults: { font: 'embedded' },
    pdfua: { part, ...(part === 2 ? { rev: '2024' } : {}) },
    title: 'Accessible fixture',
    lang: 'en-GB',
    markInfo: true,
    structTree: true,
    displayDocTitle: true,
    ...(part === 2 ? { version: '2.0' } : {}),
    ...extra,
  };
}

/** An XMP packet with the given claims (attribute form, conventional prefixes). */
const PDFUAID_EXTENSION_SCHEMA = `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">
<pdfaProperty:name>part</pdfaProperty:name><pdfaProperty:valueType>Integer</pdfaProperty:valueType><pdfaProperty:category>internal</pdfaProperty:category><pdfaProperty:description>Part of ISO 14289 the file conforms to</pdfaProperty:description>
</rdf:li></rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas></rdf:Description>`;

export function xmpPacket(claims: { pdfa?: PdfSpec['pdfa']; pdfua?: PdfSpec['pdfua']; pdfx?: string; title?: string }): string {
  const descriptions: string[] = [];
  if (claims.pdfa) {
    const c = claims.pdfa;
    descriptions.push(
      `<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="${c.part}"${c.conformance ? ` pdfaid:conformance="${c.conformance}"` : ''}${c.rev ? ` pdfaid:rev="${c.rev}"` : ''}/>`,
    );
  }
  if (claims.pdfua) {
    descriptions.push(
      `<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"><pdfuaid:part>${claims.pdfua.part}</pdfuaid:part>${claims.pdfua.rev ? `<pdfuaid:rev>${claims.pdfua.rev}</pdfuaid:rev>` : ''}</rdf:Description>`,
    );
    // PDF/A-1 to -3 predefine no pdfuaid schema: a file claiming both describes it in an extension schema.
    if (claims.pdfa && claims.pdfa.part < 4) descriptions.push(PDFUAID_EXTENSION_SCHEMA);
  }
  if (claims.pdfx) {
    descriptions.push(`<rdf:Description rdf:about="" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/" pdfxid:GTS_PDFXVersion="${claims.pdfx}"/>`);
  }
  if (claims.title) {
    descriptions.push(
      `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${claims.title}</rdf:li></rdf:Alt></dc:title></rdf:Description>`,
    );
  }
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
${descriptions.join('\n')}
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
}

function colourOp(space: PageSpec['colourSpace'], colour: 'black' | 'red'): string {
  if (space === 'cmyk') return colour === 'black' ? '0 0 0 1 k' : '0 1 1 0 k';
  if (space === 'gray') return colour === 'black' ? '0 g' : '0.5 g';
  return colour === 'black' ? '0 0 0 rg' : '1 0 0 rg';
}

/**
 * Loads a PDF, lets `change` edit its objects, and saves it again (classic xref,
 * metadata untouched): for defects the builder has no option for.
 */
export async function mutatePdf(bytes: Uint8Array, change: (doc: PDFDocument) => unknown): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  await change(doc);
  return doc.save({ useObjectStreams: false });
}

/** Replaces bytes at the first occurrence of `find` with `replacement` of the same length. */
export function patchBytes(bytes: Uint8Array, find: string, replacement: string): Uint8Array {
  if (find.length !== replacement.length) throw new Error('patchBytes keeps offsets: same length only');
  const buf = Buffer.from(bytes);
  const at = buf.indexOf(Buffer.from(find, 'latin1'));
  if (at < 0) throw new Error(`patchBytes: ${JSON.stringify(find)} not found`);
  buf.write(replacement, at, 'latin1');
  return buf;
}

function escapePdfText(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

function linkAnnotation(ctx: PDFContext, action: Record<string, unknown>): PDFDict {
  return ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [72, 72, 200, 100], Border: [0, 0, 0], A: ctx.obj(action as never) });
}

/** An uncompressed RGB image of random pixels (noise does not compress, like photos). */
function rgbImageStream(ctx: PDFContext, w: number, h: number) {
  return ctx.flateStream(randomBytes(w * h * 3), { Type: 'XObject', Subtype: 'Image', Width: w, Height: h, ColorSpace: 'DeviceRGB', BitsPerComponent: 8 });
}

let widthsCache: number[] | undefined;
/** Helvetica's widths for codes 32–126 (Liberation Sans shares them). */
async function helveticaWidths(): Promise<number[]> {
  if (widthsCache) return widthsCache;
  const scratch = await PDFDocument.create();
  const helv = await scratch.embedFont(StandardFonts.Helvetica);
  widthsCache = Array.from({ length: 95 }, (_, i) => Math.round(helv.widthOfTextAtSize(String.fromCharCode(32 + i), 1000)));
  return widthsCache;
}

/** A simple TrueType font dictionary with the whole Liberation Sans program embedded. */
async function embeddedTrueType(ctx: PDFContext): Promise<PDFRef> {
  return embedLiberationSans(ctx, await helveticaWidths());
}

/**
 * Registers a TrueType font dictionary (WinAnsi, codes 32–126 with `widths`)
 * around the whole Liberation Sans program; returns its reference.
 */
export function embedLiberationSans(ctx: PDFContext, widths: number[]): PDFRef {
  const program = readFileSync(EMBEDDABLE_TTF_PATH);
  const fontFile = ctx.register(ctx.flateStream(program, { Length1: program.length }));
  const descriptor = ctx.register(
    ctx.obj({
      Type: 'FontDescriptor',
      FontName: 'LiberationSans',
      Flags: 32,
      FontBBox: [-203, -303, 1050, 910],
      ItalicAngle: 0,
      Ascent: 905,
      Descent: -212,
      CapHeight: 729,
      StemV: 80,
      FontFile2: fontFile,
    }),
  );
  return ctx.register(
    ctx.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: 'LiberationSans',
      FirstChar: 32,
      LastChar: 126,
      Widths: widths,
      Encoding: 'WinAnsiEncoding',
      FontDescriptor: descriptor,
    }),
  );
}

// ------------------------------------------------------------------ malformed PDFs

/** A real PDF cut off after its first objects: no page tree survives. */
export async function truncatedPdf(): Promise<Uint8Array> {
  const full = await buildPdf({ pages: 2 });
  return full.subarray(0, 60);
}

/** A PDF header followed by random bytes. */
export function garbageAfterHeader(size = 4096): Uint8Array {
  const head = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  return Buffer.concat([head, randomBytes(size)]);
}

/** Takes an existing PDF and replaces the object dictionary of its page tree with junk. */
export function corruptPdf(bytes: Uint8Array): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1').replace(/\/Type \/Pages/g, '/Type /Garbage').replace(/\/Kids \[/g, '/Junk [');
  return Buffer.from(text, 'latin1');
}

// ------------------------------------------------------------------ images

export interface ImageSpec {
  width?: number;
  height?: number;
  /** Pixels per inch stored in the file. */
  density?: number;
  alpha?: boolean;
  colour?: string;
}

function baseImage(s: ImageSpec) {
  return sharp({
    create: { width: s.width ?? 120, height: s.height ?? 80, channels: s.alpha ? 4 : 3, background: s.alpha ? { r: 40, g: 120, b: 200, alpha: 0.5 } : (s.colour ?? '#2878c8') },
  });
}

export async function pngBytes(s: ImageSpec = {}): Promise<Buffer> {
  let img = baseImage(s);
  if (s.density) img = img.withDensity(s.density);
  return img.png().toBuffer();
}

/** A JPEG; `cmyk` writes four-channel CMYK data (no ICC profile). */
export async function jpegBytes(s: ImageSpec & { cmyk?: boolean; icc?: boolean } = {}): Promise<Buffer> {
  let img = baseImage(s);
  if (s.density) img = img.withDensity(s.density);
  if (s.icc) img = img.withIccProfile('srgb');
  if (s.cmyk) img = img.toColourspace('cmyk');
  return img.jpeg({ quality: 90 }).toBuffer();
}

/** A TIFF with one page per colour. */
export async function tiffBytes(colours: string[] = ['#ff0000'], s: ImageSpec = {}): Promise<Buffer> {
  const pages = await Promise.all(colours.map((c) => baseImage({ ...s, colour: c }).png().toBuffer()));
  const img = pages.length === 1 ? sharp(pages[0]) : sharp(pages, { join: { animated: true } });
  return (s.density ? img.withDensity(s.density) : img).tiff().toBuffer();
}

export async function webpBytes(s: ImageSpec = {}): Promise<Buffer> {
  return baseImage(s).webp().toBuffer();
}

export async function gifBytes(s: ImageSpec = {}): Promise<Buffer> {
  return baseImage(s).gif().toBuffer();
}

// ------------------------------------------------------------------ other file types

/** SVG text in several real-world shapes. */
export function svgText(variant: 'plain' | 'xml-declaration' | 'bom-comment-doctype' = 'plain'): Buffer {
  const body = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
  switch (variant) {
    case 'plain':
      return Buffer.from(body);
    case 'xml-declaration':
      return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
    case 'bom-comment-doctype':
      return Buffer.from(
        `\uFEFF<?xml version="1.0"?>\n<!-- Generator: Some Editor 1.0 -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n${body}`,
      );
  }
}

export function epsBytes(): Buffer {
  return Buffer.from('%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nnewpath 0 0 moveto 10 10 lineto stroke\nshowpage\n%%EOF\n');
}

/** A stored (uncompressed) zip archive with the given entries. */
export function zipBytes(entries: { name: string; data: Buffer | string }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data);
    const nameBytes = Buffer.from(e.name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** A minimal Office Open XML package of the given kind. */
export function officeOpenXmlBytes(kind: 'docx' | 'xlsx' | 'pptx'): Buffer {
  const main = {
    docx: ['word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'],
    xlsx: ['xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'],
    pptx: ['ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'],
  }[kind];
  const types = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${main[0]}" ContentType="${main[1]}"/></Types>`;
  return zipBytes([
    { name: '[Content_Types].xml', data: types },
    { name: main[0]!, data: '<?xml version="1.0"?><root/>' },
  ]);
}

/** A minimal OpenDocument package (mimetype entry first, as the format requires). */
export function openDocumentBytes(kind: 'odt' | 'ods' | 'odp'): Buffer {
  const mime = { odt: 'text', ods: 'spreadsheet', odp: 'presentation' }[kind];
  return zipBytes([
    { name: 'mimetype', data: `application/vnd.oasis.opendocument.${mime}` },
    { name: 'content.xml', data: '<?xml version="1.0"?><office:document-content/>' },
  ]);
}

export function gzipBytes(): Buffer {
  return gzipSync(Buffer.from('hello world\n'.repeat(20)));
}

/** A one-file ustar archive. */
export function tarBytes(): Buffer {
  const data = Buffer.from('hello\n');
  const header = Buffer.alloc(512);
  header.write('hello.txt', 0);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(data.length.toString(8).padStart(11, '0') + '\0', 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  const body = Buffer.alloc(512);
  data.copy(body);
  return Buffer.concat([header, body, Buffer.alloc(1024)]);
}

/**
 * A Compound File Binary header (the container of legacy .doc/.xls/.ppt) whose
 * first directory entry names the given stream ("WordDocument", "Workbook").
 */
export function cfbBytes(streamName: string): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x003e, 24); // minor version
  header.writeUInt16LE(0x0003, 26); // major version 3 (512-byte sectors)
  header.writeUInt16LE(0xfffe, 28); // little-endian
  header.writeUInt16LE(9, 30); // sector shift
  const dir = Buffer.alloc(512);
  Buffer.from('Root Entry', 'utf16le').copy(dir, 0);
  Buffer.from(streamName, 'utf16le').copy(dir, 128);
  return Buffer.concat([header, dir]);
}

/** Leading signature bytes of formats the detector must classify (padded to 256 bytes). */
export function magicBytes(kind: '7z' | 'rar' | 'bz2' | 'xz' | 'otf' | 'woff' | 'woff2' | 'bmp'): Buffer {
  const magic: Record<typeof kind, number[]> = {
    '7z': [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4],
    rar: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07, 0x00],
    bz2: [0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59],
    xz: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00],
    otf: [0x4f, 0x54, 0x54, 0x4f, 0, 0x0a],
    woff: [0x77, 0x4f, 0x46, 0x46, 0, 1, 0, 0],
    woff2: [0x77, 0x4f, 0x46, 0x32, 0, 1, 0, 0],
    bmp: [0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0],
  };
  return Buffer.concat([Buffer.from(magic[kind]), Buffer.alloc(248, 0x11)]);
}

export function rtfBytes(): Buffer {
  return Buffer.from('{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}} Hello}');
}

/** The TrueType font file used for embedding. */
export function ttfBytes(): Buffer {
  return readFileSync(EMBEDDABLE_TTF_PATH);
}

/**
 * Streams a valid one-page PDF of about `approxBytes` to `path` without holding
 * it in memory: the page shows one large uncompressed RGB image of random
 * pixels (incompressible, like the photos of real print files). Returns the
 * exact size written.
 */
export async function writeLargePdf(path: string, approxBytes: number): Promise<number> {
  const width = 2048;
  const height = Math.max(1, Math.ceil(Math.max(approxBytes - 2048, 3 * width) / (3 * width)));
  const imageBytes = width * height * 3;
  const out = createWriteStream(path);
  let written = 0;
  const offsets: number[] = [];
  const write = async (chunk: Buffer | string) => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    written += b.length;
    if (!out.write(b)) await once(out, 'drain');
  };
  const object = async (n: number, body: string) => {
    offsets[n] = written;
    await write(`${n} 0 obj\n${body}\nendobj\n`);
  };
  // Place the image at 300 ppi, on a page of the same size.
  const wPt = (width / 300) * 72;
  const hPt = (height / 300) * 72;
  await write('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  await object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  await object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  await object(3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${wPt.toFixed(2)} ${hPt.toFixed(2)}] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>`);
  const content = `q ${wPt.toFixed(2)} 0 0 ${hPt.toFixed(2)} 0 0 cm /Im1 Do Q`;
  await object(4, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  offsets[5] = written;
  await write(`5 0 obj\n<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${imageBytes} >>\nstream\n`);
  const chunk = 1 << 20;
  for (let left = imageBytes; left > 0; left -= chunk) await write(randomBytes(Math.min(chunk, left)));
  await write('\nendstream\nendobj\n');
  const xref = written;
  let table = `xref\n0 6\n0000000000 65535 f \n`;
  for (let n = 1; n <= 5; n++) table += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  await write(`${table}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  out.end();
  await once(out, 'finish');
  return written;
}

/** Compresses bytes like a FlateDecode stream (for hand-built objects in tests). */
export const deflate = (data: Uint8Array | string): Buffer => deflateSync(typeof data === 'string' ? Buffer.from(data) : data);

export { PDFArray, PDFDict, PDFName, PDFString, PDFDocument };
