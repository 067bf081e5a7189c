/**
 * Tagged PDFs built in code for the tagged-content and language tests: one page
 * whose content is written verbatim, a structure tree of elements (each owning
 * marked-content sequences of the page by MCID) and a ParentTree that maps the
 * page's MCIDs back to their elements, as ISO 32000-1 14.7 describes.
 */
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { validate } from '../../../../../lambdas/engine/validate/index';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { tempFiles } from '../../temp-files';

export interface ElementSpec {
  /** Structure type (S). */
  s: string;
  /** MCIDs of the page this element owns. */
  mcids?: number[];
  lang?: string;
  alt?: string;
  actualText?: string;
  e?: string;
  kids?: ElementSpec[];
}

export interface TaggedSpec {
  /** Page content; /F1 is Helvetica. */
  content: string;
  /** Children of the Document element. */
  elements?: ElementSpec[];
  /** Catalog Lang; absent when undefined. */
  lang?: string;
  /** Named property lists of the page (/Properties resources), as Lang values. */
  properties?: Record<string, { Lang?: string; MCID?: number }>;
  /** Edits the finished document (outlines, annotations, fields…). */
  edit?: (doc: PDFDocument, parts: { page: PDFDict; pageRef: PDFRef; documentElement: PDFRef }) => void;
}

export async function taggedPdf(spec: TaggedSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const resources = ctx.obj({ Font: { F1: font.ref } }) as PDFDict;
  if (spec.properties) {
    const props = ctx.obj({}) as PDFDict;
    for (const [key, v] of Object.entries(spec.properties)) {
      const d = ctx.obj({}) as PDFDict;
      if (v.Lang !== undefined) d.set(PDFName.of('Lang'), PDFString.of(v.Lang));
      if (v.MCID !== undefined) d.set(PDFName.of('MCID'), PDFNumber.of(v.MCID));
      props.set(PDFName.of(key), d);
    }
    resources.set(PDFName.of('Properties'), props);
  }
  page.node.set(PDFName.of('Resources'), resources);
  page.node.set(PDFName.of('Contents'), ctx.register(ctx.stream(spec.content)));
  page.node.set(PDFName.of('StructParents'), PDFNumber.of(0));
  const pageRef = page.ref;

  const rootRef = ctx.nextRef();
  const docRef = ctx.nextRef();
  const byMcid: PDFRef[] = [];
  const build = (e: ElementSpec, parent: PDFRef): PDFRef => {
    const ref = ctx.nextRef();
    const kids: (PDFRef | number)[] = [];
    for (const k of e.kids ?? []) kids.push(build(k, ref));
    for (const mcid of e.mcids ?? []) {
      kids.push(mcid);
      byMcid[mcid] = ref;
    }
    const d = ctx.obj({ Type: 'StructElem', S: e.s, P: parent, Pg: pageRef, K: kids }) as PDFDict;
    if (e.lang !== undefined) d.set(PDFName.of('Lang'), PDFString.of(e.lang));
    if (e.alt !== undefined) d.set(PDFName.of('Alt'), PDFString.of(e.alt));
    if (e.actualText !== undefined) d.set(PDFName.of('ActualText'), PDFString.of(e.actualText));
    if (e.e !== undefined) d.set(PDFName.of('E'), PDFString.of(e.e));
    ctx.assign(ref, d);
    return ref;
  };
  const top = (spec.elements ?? []).map((e) => build(e, docRef));
  ctx.assign(docRef, ctx.obj({ Type: 'StructElem', S: 'Document', P: rootRef, K: top }));
  const nums = ctx.obj([0, ctx.obj(Array.from(byMcid, (r) => r ?? null))]);
  ctx.assign(rootRef, ctx.obj({ Type: 'StructTreeRoot', K: docRef, ParentTree: { Nums: nums }, ParentTreeNextKey: 1 }));
  doc.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
  doc.catalog.set(PDFName.of('MarkInfo'), ctx.obj({ Marked: true }));
  if (spec.lang !== undefined) doc.catalog.set(PDFName.of('Lang'), PDFString.of(spec.lang));
  spec.edit?.(doc, { page: page.node, pageRef, documentElement: docRef });
  return doc.save({ useObjectStreams: false });
}

const files = tempFiles('language');

/** Failures of one profile: rule id → { occurrences, first example context }. */
export async function failuresOf(bytes: Uint8Array, profile: ValidateProfileCode): Promise<Map<string, { occurrences: number; context: string | undefined; page: number | undefined }>> {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  const out = new Map<string, { occurrences: number; context: string | undefined; page: number | undefined }>();
  for (const f of r.profiles[0]!.failures) {
    const first = f.examples[0] as { context?: string; page?: number } | undefined;
    out.set(f.ruleId, { occurrences: f.occurrences, context: first?.context, page: first?.page });
  }
  return out;
}

/** A line of Helvetica text inside a marked-content sequence with the given MCID. */
export const taggedText = (tag: string, mcid: number, text = 'Hello', extra = ''): string => `/${tag} <</MCID ${mcid}${extra}>> BDC BT /F1 12 Tf 72 700 Td (${text}) Tj ET EMC`;
