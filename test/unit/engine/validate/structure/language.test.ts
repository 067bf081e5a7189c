/**
 * Natural language (PDF/UA-1 7.2, PDF/UA-2 8.4.4, PDF/A-1a 6.8.4, PDF/A-2a 6.7.4):
 * every Lang is a language tag, and the language of every text can be found.
 */
import { PDFName, PDFString } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { failuresOf, taggedPdf, taggedText } from './tagged-fixture';

describe('Lang values', () => {
  it('accepts language tags on the catalog, structure elements and property lists', async () => {
    const bytes = await taggedPdf({
      lang: 'en-GB',
      content: `${taggedText('P', 0)} /Span /MC0 BDC BT /F1 12 Tf (Bonjour) Tj ET EMC`,
      properties: { MC0: { Lang: 'fr' } },
      elements: [{ s: 'P', mcids: [0], lang: 'de-CH' }],
    });
    expect((await failuresOf(bytes, 'ua1')).has('pdfua.lang.valid')).toBe(false);
  });

  it('fails a malformed Lang on a structure element (UA-1 7.2, UA-2 8.4.4, PDF/A-2a 6.7.4)', async () => {
    const bytes = await taggedPdf({ lang: 'en', content: taggedText('P', 0), elements: [{ s: 'P', mcids: [0], lang: 'en_US' }] });
    const ua1 = await failuresOf(bytes, 'ua1');
    expect(ua1.get('pdfua.lang.valid')?.context).toMatch(/P: Lang "en_US"/);
    expect((await failuresOf(bytes, 'ua2')).has('pdfua.lang.valid')).toBe(true);
    expect((await failuresOf(bytes, '2a')).has('pdfa.lang.valid')).toBe(true);
  });

  it('fails a malformed Lang in an inline marked-content property list', async () => {
    const bytes = await taggedPdf({ lang: 'en', content: taggedText('P', 0, 'Hi', ' /Lang (english!)'), elements: [{ s: 'P', mcids: [0] }] });
    expect((await failuresOf(bytes, 'ua1')).get('pdfua.lang.valid')?.context).toMatch(/english!/);
  });

  it('PDF/A-1a takes RFC 1766 tags (letters only) and accepts an empty Lang', async () => {
    const digits = await taggedPdf({ lang: 'es-419', content: taggedText('P', 0), elements: [{ s: 'P', mcids: [0] }] });
    expect((await failuresOf(digits, '1a')).has('pdfa.lang.valid')).toBe(true);
    expect((await failuresOf(digits, '2a')).has('pdfa.lang.valid')).toBe(false);
    const empty = await taggedPdf({ lang: '', content: taggedText('P', 0), elements: [{ s: 'P', mcids: [0] }] });
    expect((await failuresOf(empty, '1a')).has('pdfa.lang.valid')).toBe(false);
  });

  it('PDF/UA-2 requires a non-empty catalog Lang even when elements carry one', async () => {
    const bytes = await taggedPdf({ content: taggedText('P', 0), elements: [{ s: 'P', mcids: [0], lang: 'en' }] });
    expect((await failuresOf(bytes, 'ua2')).has('pdfua.lang.catalog')).toBe(true);
    expect((await failuresOf(bytes, 'ua1')).has('pdfua.lang.content-text')).toBe(false);
  });
});

describe('the language of text can be determined (UA-1 7.2)', () => {
  it('takes it from the catalog', async () => {
    const bytes = await taggedPdf({ lang: 'en', content: 'BT /F1 12 Tf (untagged) Tj ET' });
    expect((await failuresOf(bytes, 'ua1')).has('pdfua.lang.content-text')).toBe(false);
  });

  it('takes it from the owning element or an ancestor, or from the sequence itself', async () => {
    const bytes = await taggedPdf({
      content: `${taggedText('P', 0)} ${taggedText('Span', 1)} ${taggedText('P', 2, 'x', ' /Lang (fr)')}`,
      elements: [{ s: 'P', mcids: [0], lang: 'en' }, { s: 'Sect', lang: 'de', kids: [{ s: 'Span', mcids: [1] }] }, { s: 'P', mcids: [2] }],
    });
    expect((await failuresOf(bytes, 'ua1')).has('pdfua.lang.content-text')).toBe(false);
  });

  it('fails text whose language nothing gives', async () => {
    const bytes = await taggedPdf({ content: `${taggedText('P', 0)} ${taggedText('P', 1)}`, elements: [{ s: 'P', mcids: [0], lang: 'en' }, { s: 'P', mcids: [1] }] });
    const f = await failuresOf(bytes, 'ua1');
    expect(f.get('pdfua.lang.content-text')).toMatchObject({ occurrences: 1, page: 1 });
  });

  it('fails Alt, ActualText and E of elements without a language', async () => {
    const bytes = await taggedPdf({
      content: taggedText('Figure', 0, 'x', ' /Lang (en)'),
      elements: [{ s: 'Figure', mcids: [0], alt: 'A chart', actualText: 'x', e: 'ex' }, { s: 'Sect', lang: 'en', kids: [{ s: 'Formula', alt: 'E = mc2' }] }],
    });
    const f = await failuresOf(bytes, 'ua1');
    expect(f.get('pdfua.lang.alternate-text')?.occurrences).toBe(3);
    expect(f.get('pdfua.lang.alternate-text')?.context).toMatch(/Figure: ActualText/);
  });

  it('fails ActualText of a Span sequence without a language', async () => {
    const bytes = await taggedPdf({ content: `${taggedText('P', 0, 'a', ' /Lang (en)')} /Span <</ActualText (x)>> BDC BT /F1 1 Tf (a) Tj ET EMC`, elements: [{ s: 'P', mcids: [0] }] });
    expect((await failuresOf(bytes, 'ua1')).get('pdfua.lang.alternate-text')?.context).toMatch(/Span sequence with ActualText/);
  });

  it('fails outlines, annotation Contents and field TU when the catalog has no Lang', async () => {
    const bytes = await taggedPdf({
      content: taggedText('P', 0, 'a', ' /Lang (en)'),
      elements: [{ s: 'P', mcids: [0] }],
      edit: (doc, { page, pageRef }) => {
        const ctx = doc.context;
        const outlines = ctx.nextRef();
        const item = ctx.register(ctx.obj({ Title: PDFString.of('Chapter 1'), Parent: outlines, Dest: [pageRef, 'Fit'] }));
        ctx.assign(outlines, ctx.obj({ Type: 'Outlines', First: item, Last: item, Count: 1 }));
        doc.catalog.set(PDFName.of('Outlines'), outlines);
        const note = ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Text', Rect: [0, 0, 10, 10], Contents: PDFString.of('note') }));
        const field = ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Tx', T: PDFString.of('name'), TU: PDFString.of('Your name'), Rect: [0, 20, 10, 30] }));
        page.set(PDFName.of('Annots'), ctx.obj([note, field]));
        doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [field] }));
      },
    });
    const f = await failuresOf(bytes, 'ua1');
    expect(f.get('pdfua.lang.outline')?.context).toMatch(/Chapter 1/);
    expect(f.get('pdfua.lang.annotation-contents')?.context).toMatch(/Text annotation/);
    expect(f.get('pdfua.lang.field-tooltip')?.context).toMatch(/field name/);
  });

  it('fails an XMP language alternative with only x-default when the catalog has no Lang, not one that names a language', async () => {
    const xmp = (items: string) =>
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt>${items}</rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>`;
    const withXmp = (packet: string) =>
      taggedPdf({
        content: taggedText('P', 0, 'a', ' /Lang (en)'),
        elements: [{ s: 'P', mcids: [0] }],
        edit: (doc) => doc.catalog.set(PDFName.of('Metadata'), doc.context.register(doc.context.stream(packet, { Type: 'Metadata', Subtype: 'XML' }))),
      });
    const only = await withXmp(xmp('<rdf:li xml:lang="x-default">Title</rdf:li>'));
    expect((await failuresOf(only, 'ua1')).has('pdfua.lang.metadata')).toBe(true);
    const named = await withXmp(xmp('<rdf:li xml:lang="x-default">Title</rdf:li><rdf:li xml:lang="en">Title</rdf:li>'));
    expect((await failuresOf(named, 'ua1')).has('pdfua.lang.metadata')).toBe(false);
  });
});
