/**
 * The speed bench's generated PDF: the page count asked for, distinct image
 * objects on every page (what preflight and pdfimages walk), one embedded font.
 */
import { describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFStream } from '@cantoo/pdf-lib';
import { inflateSync } from 'node:zlib';
import { buildSpeedPdf } from '../../bench/support/speed-pdf';

async function load(pages: number) {
  return PDFDocument.load(await buildSpeedPdf({ pages }), { updateMetadata: false });
}

const xobjectsOf = (doc: PDFDocument, dict: PDFDict): Map<string, PDFRef> => {
  const x = doc.context.lookup(dict.get(PDFName.of('XObject')), PDFDict);
  return new Map(x.entries().map(([k, v]) => [k.asString(), v as PDFRef]));
};

describe('buildSpeedPdf', () => {
  it('makes the number of pages asked for', async () => {
    expect((await load(3)).getPageCount()).toBe(3);
  });

  it('gives every page its own three images and a form holding a fourth', async () => {
    const doc = await load(2);
    const refs = doc.getPages().map((p) => xobjectsOf(doc, p.node.Resources()!));
    for (const r of refs) expect([...r.keys()].sort()).toEqual(['/Fm1', '/Im0', '/Im2', '/Im3']);
    const all = refs.flatMap((r) => [...r.values()].map((ref) => ref.toString()));
    expect(new Set(all).size).toBe(all.length);
    const form = doc.context.lookup(refs[0]!.get('/Fm1'), PDFStream);
    const inner = xobjectsOf(doc, doc.context.lookup(form.dict.get(PDFName.of('Resources')), PDFDict));
    expect(doc.context.lookup(inner.get('/Im1'), PDFStream).dict.get(PDFName.of('Subtype'))).toBe(PDFName.of('Image'));
  });

  it('writes image data that decodes to the size its dictionary states', async () => {
    const doc = await load(1);
    const im0 = doc.context.lookup(xobjectsOf(doc, doc.getPages()[0]!.node.Resources()!).get('/Im0'));
    expect(im0).toBeInstanceOf(PDFRawStream);
    expect(inflateSync((im0 as PDFRawStream).contents).length).toBe(600 * 400 * 3);
  });

  it('embeds its font program', async () => {
    const doc = await load(1);
    const fonts = doc.context.lookup(doc.getPages()[0]!.node.Resources()!.get(PDFName.of('Font')), PDFDict);
    const font = doc.context.lookup(fonts.get(PDFName.of('F1')), PDFDict);
    const descriptor = doc.context.lookup(font.get(PDFName.of('FontDescriptor')), PDFDict);
    expect(doc.context.lookup(descriptor.get(PDFName.of('FontFile2')))).toBeInstanceOf(PDFStream);
  });
});
