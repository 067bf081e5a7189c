/**
 * PDF/UA-1 7.1 and PDF/UA-2 8.2.2: everything painted is tagged real content
 * or an Artifact, and the two never nest in each other.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFString } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { failuresOf, taggedPdf, taggedText } from './tagged-fixture';

const TAGGED = 'pdfua.content.tagged-or-artifact';

describe('content is tagged or an artifact', () => {
  it('passes text owned by a structure element and a path inside an Artifact', async () => {
    const bytes = await taggedPdf({
      lang: 'en-GB',
      content: `${taggedText('P', 0)} /Artifact BMC 0 0 m 100 0 l S EMC`,
      elements: [{ s: 'P', mcids: [0] }],
    });
    const f = await failuresOf(bytes, 'ua1');
    expect(f.has(TAGGED)).toBe(false);
    expect(f.has('pdfua.content.artifact-in-tagged')).toBe(false);
    expect(f.has('pdfua.content.tagged-in-artifact')).toBe(false);
  });

  it('fails text outside any marked-content sequence, naming its font and page (UA-1 and UA-2)', async () => {
    const bytes = await taggedPdf({
      lang: 'en-GB',
      content: `${taggedText('P', 0)} BT /F1 12 Tf 72 600 Td (stray) Tj ET`,
      elements: [{ s: 'P', mcids: [0] }],
    });
    const ua1 = await failuresOf(bytes, 'ua1');
    expect(ua1.get(TAGGED)).toMatchObject({ occurrences: 1, page: 1 });
    expect(ua1.get(TAGGED)?.context).toMatch(/text in font Helvetica/);
    expect((await failuresOf(bytes, 'ua2')).has(TAGGED)).toBe(true);
  });

  it('fails content in a sequence whose MCID no structure element owns', async () => {
    const bytes = await taggedPdf({ lang: 'en-GB', content: `${taggedText('P', 0)} /P <</MCID 7>> BDC 0 0 10 10 re f EMC`, elements: [{ s: 'P', mcids: [0] }] });
    expect((await failuresOf(bytes, 'ua1')).get(TAGGED)?.context).toMatch(/^path/);
  });

  it('counts content in a form XObject as tagged when the form is drawn inside tagged content', async () => {
    const bytes = await taggedPdf({
      lang: 'en-GB',
      content: '/Figure <</MCID 0>> BDC /Fm1 Do EMC /Fm2 Do',
      elements: [{ s: 'Figure', mcids: [0], alt: 'A square' }],
      edit: (doc, { page }) => {
        const ctx = doc.context;
        const form = (body: string) => {
          const s = ctx.stream(body, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 100] });
          return ctx.register(s);
        };
        const resources = page.lookup(PDFName.of('Resources'), PDFDict);
        resources.set(PDFName.of('XObject'), ctx.obj({ Fm1: form('0 0 10 10 re f'), Fm2: form('/Artifact BMC 0 0 10 10 re f EMC') }));
      },
    });
    expect((await failuresOf(bytes, 'ua1')).has(TAGGED)).toBe(false);
  });

  it('counts a form XObject tagged as a whole through its StructParent as tagged content', async () => {
    const build = (structParent: boolean) =>
      taggedPdf({
        lang: 'en-GB',
        content: `${taggedText('P', 0)} /Fm1 Do`,
        elements: [{ s: 'P', mcids: [0] }],
        edit: (doc, { page, pageRef, documentElement }) => {
          const ctx = doc.context;
          const form = ctx.register(ctx.stream('0 0 10 10 re f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 100], ...(structParent ? { StructParent: 1 } : {}) }));
          page.lookup(PDFName.of('Resources'), PDFDict).set(PDFName.of('XObject'), ctx.obj({ Fm1: form }));
          const figure = ctx.register(ctx.obj({ Type: 'StructElem', S: 'Figure', P: documentElement, Pg: pageRef, Alt: PDFString.of('logo'), K: { Type: 'OBJR', Obj: form, Pg: pageRef } }));
          const docElem = ctx.lookup(documentElement, PDFDict);
          docElem.set(PDFName.of('K'), ctx.obj([...(docElem.lookup(PDFName.of('K'), PDFArray).asArray()), figure]));
          const root = doc.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
          root.lookup(PDFName.of('ParentTree'), PDFDict).lookup(PDFName.of('Nums'), PDFArray).push(PDFNumber.of(1));
          root.lookup(PDFName.of('ParentTree'), PDFDict).lookup(PDFName.of('Nums'), PDFArray).push(figure);
        },
      });
    expect((await failuresOf(await build(true), 'ua1')).has(TAGGED)).toBe(false);
    expect((await failuresOf(await build(false), 'ua1')).has(TAGGED)).toBe(true);
  });

  it('does not let a stray EMC in a form close the sequence the form is drawn in', async () => {
    const bytes = await taggedPdf({
      lang: 'en-GB',
      content: '/P <</MCID 0>> BDC /Fm1 Do 0 0 5 5 re f EMC',
      elements: [{ s: 'P', mcids: [0] }],
      edit: (doc, { page }) => {
        const ctx = doc.context;
        const form = ctx.register(ctx.stream('EMC EMC 0 0 10 10 re f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 100] }));
        page.lookup(PDFName.of('Resources'), PDFDict).set(PDFName.of('XObject'), ctx.obj({ Fm1: form }));
      },
    });
    expect((await failuresOf(bytes, 'ua1')).has(TAGGED)).toBe(false);
  });

  it('fails an Artifact inside tagged content, and tagged content inside an Artifact', async () => {
    const bytes = await taggedPdf({
      lang: 'en-GB',
      content: '/P <</MCID 0>> BDC /Artifact BMC 0 0 1 1 re f EMC EMC /Artifact BMC /Span <</MCID 1>> BDC 0 0 1 1 re f EMC EMC',
      elements: [{ s: 'P', mcids: [0] }, { s: 'Span', mcids: [1] }],
    });
    const f = await failuresOf(bytes, 'ua1');
    expect(f.get('pdfua.content.artifact-in-tagged')?.occurrences).toBe(1);
    expect(f.get('pdfua.content.tagged-in-artifact')?.occurrences).toBe(1);
  });

  it('ignores annotation appearances, which belong to their annotation', async () => {
    const bytes = await taggedPdf({
      lang: 'en-GB',
      content: taggedText('P', 0),
      elements: [{ s: 'P', mcids: [0] }],
      edit: (doc, { page }) => {
        const ctx = doc.context;
        const ap = ctx.register(ctx.stream('0 0 10 10 re f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10] }));
        const annot = ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Square', Rect: [0, 0, 10, 10], F: 4, AP: { N: ap } }));
        page.set(PDFName.of('Annots'), ctx.obj([annot]));
      },
    });
    expect((await failuresOf(bytes, 'ua1')).has(TAGGED)).toBe(false);
  });
});
