/**
 * For the structure rules' tests: the clean tagged PDF/UA file with the
 * Document element's children replaced by the tree under test (in the
 * Document's namespace, so PDF/UA-2 trees are PDF 2.0 types), and the failure
 * of one rule.
 */
import { PDFArray, PDFDict, PDFName, PDFString, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfuaSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

export const files = tempFiles('structure-tagged');

/** A Link annotation on page 1 going to a URI, or to a page destination when `uri` is a number (0-based page). */
export interface LinkKid {
  link: string | number;
}
/** A structure element: type, extra entries, attribute object (with its owner O), kids. */
export interface El {
  s: string;
  entries?: Record<string, unknown>;
  attrs?: Record<string, unknown>;
  kids?: (El | LinkKid)[];
  /** Leave out the P (parent) entry. */
  noParent?: boolean;
}
export const el = (s: string, kids: (El | LinkKid)[] = [], extra: Omit<El, 's' | 'kids'> = {}): El => ({ s, kids, ...extra });
export const text = (s: string) => PDFString.of(s);

/** Adds a described Link annotation to page 1 and returns its reference. */
export function addLink(d: PDFDocument, target: string | number): PDFRef {
  const ctx = d.context;
  const action = typeof target === 'string' ? ctx.obj({ S: 'URI', URI: text(target) }) : ctx.obj({ S: 'GoTo', D: [d.getPage(target).ref, PDFName.of('Fit')] });
  const ref = ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [72, 72, 200, 100], Border: [0, 0, 0], Contents: text('A link'), A: action }));
  const page = d.getPage(0).node;
  const annots = page.lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(ref);
  else page.set(PDFName.of('Annots'), ctx.obj([ref]));
  page.set(PDFName.of('Tabs'), PDFName.of('S'));
  return ref;
}

/** The clean PDF/UA fixture of the given part whose Document element holds `kids` instead of its paragraph. */
export async function tagged(part: 1 | 2, kids: El[], pages = 1): Promise<Uint8Array> {
  return mutatePdf(await buildPdf(pdfuaSpec(part, { pages })), (d) => {
    const ctx = d.context;
    const root = d.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
    const docRef = root.get(PDFName.of('K')) as PDFRef;
    const docElem = ctx.lookup(docRef) as PDFDict;
    const ns = docElem.get(PDFName.of('NS'));
    const nums = (root.lookup(PDFName.of('ParentTree')) as PDFDict).lookup(PDFName.of('Nums')) as PDFArray;
    let nextKey = d.getPageCount();
    const make = (e: El, parent: PDFRef): PDFRef => {
      const ref = ctx.nextRef();
      const dict = ctx.obj({ Type: 'StructElem', S: e.s, Pg: d.getPage(0).ref, ...(ns ? { NS: ns } : {}) } as never) as unknown as PDFDict;
      if (!e.noParent) dict.set(PDFName.of('P'), parent);
      for (const [k, v] of Object.entries(e.entries ?? {})) dict.set(PDFName.of(k), ctx.obj(v as never));
      if (e.attrs) dict.set(PDFName.of('A'), ctx.obj(e.attrs as never));
      ctx.assign(ref, dict);
      const kidObjs = (e.kids ?? []).map((k) => {
        if ('link' in k) {
          const annot = addLink(d, k.link);
          (ctx.lookup(annot) as PDFDict).set(PDFName.of('StructParent'), ctx.obj(nextKey));
          nums.push(ctx.obj(nextKey++));
          nums.push(ref);
          return ctx.obj({ Type: 'OBJR', Obj: annot, Pg: d.getPage(0).ref });
        }
        return make(k, ref);
      });
      if (kidObjs.length) dict.set(PDFName.of('K'), ctx.obj(kidObjs));
      return ref;
    };
    docElem.set(PDFName.of('K'), ctx.obj(kids.map((k) => make(k, docRef))));
    root.set(PDFName.of('ParentTreeNextKey'), ctx.obj(nextKey));
  });
}

/** The failure of one rule for a file validated against ua1 or ua2, or undefined when the rule passed. */
export async function failureOf(ruleId: string, part: 1 | 2, bytes: Uint8Array) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [part === 1 ? 'ua1' : 'ua2'] });
  return r.profiles[0]!.failures.find((f) => f.ruleId === ruleId);
}
