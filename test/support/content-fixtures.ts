/**
 * PDFs whose pages are written as raw content streams with the resources they
 * use: for tests of the content interpreter and of preflight checks that
 * depend on what a page paints (image resolution, fonts and sizes, colour
 * spaces, overprint, transparency, coverage…).
 *
 * A page is its content string plus resources by kind. Resources are specs
 * built with the helpers of content-fixture-builder.ts and
 * content-fixture-resources.ts (all re-exported here: `image`, `form`,
 * `stream`, `standardFont`, `trueTypeFont`, `type0Font`, `type3Font`,
 * `separation`, `deviceN`, `iccBased`, `indexed`, `lab`, `axialShading`,
 * `tilingPattern`, `shadingPattern`, `softMask`…) or raw values. The builder
 * turns each spec object into one indirect object, so using the same spec twice
 * gives the same object (and a form whose resources name itself is a cycle).
 * Raw values: `'/Name'` is a name, other strings are text strings, plain
 * objects are dictionaries, arrays are arrays, Uint8Arrays hex strings, specs
 * become references.
 *
 * ```ts
 * const logo = image({ width: 300, height: 150, colourSpace: 'DeviceCMYK' });
 * const bytes = await contentPdf({
 *   pages: [{
 *     content: 'q 144 0 0 72 72 72 cm /Im1 Do Q BT /F1 9 Tf 72 700 Td (Hello) Tj ET',
 *     resources: {
 *       xobjects: { Im1: logo },
 *       fonts: { F1: standardFont('Helvetica') },
 *       extGStates: { GS1: { OP: true, op: true, OPM: 1 } },
 *       colourSpaces: { CS0: separation('PANTONE 185 C') },
 *     },
 *     annotations: [{ subtype: 'Stamp', rect: [300, 300, 340, 310], appearance: form({ content: '0 0 40 10 re f' }) }],
 *   }],
 * });
 * ```
 *
 * Fonts: `standardFont` is not embedded; `trueTypeFont({ embedded: true })`
 * and `type0Font({ embedded: true })` embed Liberation Sans (pdfjs-dist ships
 * it); `type3Font` draws its glyphs with content streams. Images carry real
 * Flate data unless `filter` names an image codec (then the bytes are a
 * placeholder: enough for the interpreter, not for a renderer). A stream whose
 * dictionary states its own /Filter is written as given (undecodable streams).
 */
import { PDFDict, PDFDocument, PDFHeader, PDFName, type PDFObject } from '@cantoo/pdf-lib';
import { Builder, type FormSpec, type ResourcesSpec, type Value } from './content-fixture-builder';
import { A4, type Rect } from './pdf-fixtures';

export * from './content-fixture-builder';
export * from './content-fixture-resources';

export interface ContentPageSpec {
  /** Page size in points; MediaBox [0 0 w h] (default A4). */
  size?: [number, number];
  mediaBox?: Rect;
  cropBox?: Rect;
  trimBox?: Rect;
  bleedBox?: Rect;
  artBox?: Rect;
  rotate?: number;
  userUnit?: number;
  /** The content stream; several strings make a /Contents array of streams. */
  content: string | string[];
  resources?: ResourcesSpec;
  /** Put the resources on the page tree node instead of the page (inheritance, ISO 32000-1 7.7.3.4). */
  inheritResources?: boolean;
  /** Page transparency group: `{ CS: '/DeviceCMYK', I: true }` (S /Transparency added). */
  group?: Record<string, Value>;
  annotations?: AnnotationSpec[];
  /** Anything else, merged into the page dictionary last (it may replace /Contents). */
  raw?: Record<string, Value>;
}

export interface AnnotationSpec {
  /** Subtype (default Square). */
  subtype?: string;
  rect: Rect;
  /** Annotation flags F (default 4, Print; 2 Hidden, 32 NoView). */
  flags?: number;
  /** Normal appearance: one form, or several states of which `state` (/AS) is shown. */
  appearance?: FormSpec | { states: Record<string, FormSpec>; state?: string };
  raw?: Record<string, Value>;
}

export async function contentPdf(spec: { pages: ContentPageSpec[]; version?: string }): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const b = new Builder(doc.context);
  for (const p of spec.pages) {
    const page = doc.addPage(p.size ?? A4);
    const node = page.node;
    const set = (key: string, v: Value | undefined) => {
      if (v !== undefined) node.set(PDFName.of(key), b.value(v));
    };
    set('MediaBox', p.mediaBox);
    set('CropBox', p.cropBox);
    set('TrimBox', p.trimBox);
    set('BleedBox', p.bleedBox);
    set('ArtBox', p.artBox);
    set('Rotate', p.rotate);
    set('UserUnit', p.userUnit);
    const resources = b.resources(p.resources ?? {});
    if (p.inheritResources) {
      node.delete(PDFName.of('Resources'));
      const parent = node.lookup(PDFName.of('Parent'));
      if (parent instanceof PDFDict) parent.set(PDFName.of('Resources'), resources);
    } else node.set(PDFName.of('Resources'), resources);
    const contents = Array.isArray(p.content) ? p.content : [p.content];
    const refs = contents.map((c) => b.ref(b.stream({}, c)));
    node.set(PDFName.of('Contents'), refs.length === 1 ? refs[0]! : b.context.obj(refs));
    if (p.group) set('Group', { Type: '/Group', S: '/Transparency', ...p.group });
    if (p.annotations?.length) node.set(PDFName.of('Annots'), b.context.obj(p.annotations.map((a) => b.ref(annotation(b, a)))));
    for (const [k, v] of Object.entries(p.raw ?? {})) set(k, v);
  }
  if (spec.version) {
    const [major, minor] = spec.version.split('.').map(Number);
    doc.context.header = PDFHeader.forVersion(major!, minor!);
  }
  return doc.save({ useObjectStreams: false });
}

function annotation(b: Builder, a: AnnotationSpec): PDFObject {
  const dict: Record<string, Value> = { Type: '/Annot', Subtype: `/${a.subtype ?? 'Square'}`, Rect: a.rect, F: a.flags ?? 4 };
  if (a.appearance) {
    if ('states' in a.appearance) {
      dict['AP'] = { N: a.appearance.states };
      if (a.appearance.state) dict['AS'] = `/${a.appearance.state}`;
    } else dict['AP'] = { N: a.appearance };
  }
  return b.value({ ...dict, ...(a.raw ?? {}) });
}
