/**
 * Structure rules not covered elsewhere: the P entry of every structure element
 * (PDF/UA-1 7.1, PDF/UA-2 8.2.1), no unnumbered H headings (PDF/UA-2 8.2.5.12),
 * ListNumbering on labelled lists (8.2.5.25), one link target per Link element
 * (8.2.5.20) and cells that do not overlap (8.2.5.26). Each fixture is the clean
 * tagged PDF/UA file with the Document element's children replaced by the tree
 * under test (in the Document's namespace, so PDF/UA-2 trees are PDF 2.0 types).
 */
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFName, PDFString, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfuaSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('structure-remaining');

/** A Link annotation on page 1 going to a URI, or to a page destination when `uri` is a number (0-based page). */
interface LinkKid {
  link: string | number;
}
/** A structure element: type, extra entries, attribute object (with its owner O), kids. */
interface El {
  s: string;
  entries?: Record<string, unknown>;
  attrs?: Record<string, unknown>;
  kids?: (El | LinkKid)[];
  /** Leave out the P (parent) entry. */
  noParent?: boolean;
}
const el = (s: string, kids: (El | LinkKid)[] = [], extra: Omit<El, 's' | 'kids'> = {}): El => ({ s, kids, ...extra });
const text = (s: string) => PDFString.of(s);

/** Adds a described Link annotation to page 1 and returns its reference. */
function addLink(d: PDFDocument, target: string | number): PDFRef {
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
async function tagged(part: 1 | 2, kids: El[], pages = 1): Promise<Uint8Array> {
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
async function failureOf(ruleId: string, part: 1 | 2, bytes: Uint8Array) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [part === 1 ? 'ua1' : 'ua2'] });
  return r.profiles[0]!.failures.find((f) => f.ruleId === ruleId);
}

describe('the parent entry of structure elements', () => {
  it('requires a P entry in every structure element (UA-1 7.1, UA-2 8.2.1)', async () => {
    const orphan = [el('Sect', [el('P'), el('P', [], { noParent: true })])];
    expect(await failureOf('pdfua.structure.parent-entry', 1, await tagged(1, orphan))).toMatchObject({
      clause: '7.1',
      occurrences: 1,
      examples: [{ page: 1, objectNumber: expect.any(Number), context: 'P: no P (parent) entry' }],
    });
    expect(await failureOf('pdfua.structure.parent-entry', 2, await tagged(2, orphan))).toMatchObject({ clause: '8.2.1', occurrences: 1 });
    expect(await failureOf('pdfua.structure.parent-entry', 1, await tagged(1, [el('Sect', [el('P'), el('P')])]))).toBeUndefined();
  });
});

describe('PDF/UA-2 headings and lists', () => {
  it('forbids the unnumbered heading H (8.2.5.12)', async () => {
    expect(await failureOf('pdfua.headings.no-h', 2, await tagged(2, [el('H'), el('P')]))).toMatchObject({ clause: '8.2.5.12', occurrences: 1, examples: [{ page: 1, context: 'H: H used' }] });
    expect(await failureOf('pdfua.headings.no-h', 2, await tagged(2, [el('H1'), el('P')]))).toBeUndefined();
  });

  it('requires a labelled list to declare its numbering other than None (8.2.5.25)', async () => {
    const items = [el('LI', [el('Lbl', [], { entries: { ActualText: text('1.') } }), el('LBody')]), el('LI', [el('Lbl', [], { entries: { ActualText: text('2.') } }), el('LBody')])];
    const list = (attrs?: Record<string, unknown>) => [el('L', items, attrs ? { attrs: { O: PDFName.of('List'), ...attrs } } : {})];
    expect(await failureOf('pdfua.list.numbering', 2, await tagged(2, list()))).toMatchObject({
      clause: '8.2.5.25',
      occurrences: 1,
      examples: [{ page: 1, objectNumber: expect.any(Number), context: 'L: labelled list without ListNumbering (or None)' }],
    });
    expect(await failureOf('pdfua.list.numbering', 2, await tagged(2, list({ ListNumbering: PDFName.of('None') })))).toMatchObject({ occurrences: 1 });
    expect(await failureOf('pdfua.list.numbering', 2, await tagged(2, list({ ListNumbering: PDFName.of('Decimal') })))).toBeUndefined();
    // A list without labels has nothing to number.
    expect(await failureOf('pdfua.list.numbering', 2, await tagged(2, [el('L', [el('LI', [el('LBody')])])]))).toBeUndefined();
  });
});

describe('PDF/UA-2 links (8.2.5.20)', () => {
  it('requires link annotations going to different targets to be in separate Link elements', async () => {
    const mixed = await failureOf('pdfua.link.one-target', 2, await tagged(2, [el('P', [el('Link', [{ link: 'https://example.com/a' }, { link: 'https://example.com/b' }])])]));
    expect(mixed).toMatchObject({ clause: '8.2.5.20', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: 'Link: link annotations to 2 different targets' }] });
    const destinations = await failureOf('pdfua.link.one-target', 2, await tagged(2, [el('P', [el('Link', [{ link: 0 }, { link: 1 }])])], 2));
    expect(destinations).toMatchObject({ occurrences: 1 });
    // One link broken over two lines: two annotations, one target.
    expect(await failureOf('pdfua.link.one-target', 2, await tagged(2, [el('P', [el('Link', [{ link: 'https://example.com/a' }, { link: 'https://example.com/a' }])])]))).toBeUndefined();
    expect(await failureOf('pdfua.link.one-target', 2, await tagged(2, [el('P', [el('Link', [{ link: 'https://example.com/a' }]), el('Link', [{ link: 'https://example.com/b' }])])]))).toBeUndefined();
  });
});

describe('PDF/UA tables (UA-2 8.2.5.26, UA-1 7.2)', () => {
  const table = (attrs?: Record<string, unknown>) => ({ O: PDFName.of('Table'), ...attrs });
  const th = (attrs: Record<string, unknown> = {}) => el('TH', [], { attrs: table({ Scope: PDFName.of('Column'), ...attrs }) });
  const td = (attrs?: Record<string, unknown>) => el('TD', [], attrs ? { attrs: table(attrs) } : {});

  it('rejects a cell that spans into a position a cell from an earlier row already covers', async () => {
    // Row 1: the second cell spans down into row 2; row 2's cell spans two columns over it.
    const overlapping = [el('Table', [el('TR', [th(), th({ RowSpan: 2 })]), el('TR', [td({ ColSpan: 2 })])])];
    expect(await failureOf('pdfua.table.cells-overlap', 2, await tagged(2, overlapping))).toMatchObject({
      clause: '8.2.5.26',
      occurrences: 1,
      examples: [{ page: 1, objectNumber: expect.any(Number), context: 'TD: row 2, column 1: overlaps another cell' }],
    });
    expect(await failureOf('pdfua.table.cells-overlap', 1, await tagged(1, overlapping))).toMatchObject({ clause: '7.2' });
    const regular = [el('Table', [el('TR', [th(), th({ RowSpan: 2 })]), el('TR', [td()])])];
    expect(await failureOf('pdfua.table.cells-overlap', 2, await tagged(2, regular))).toBeUndefined();
  });
});
