/**
 * Private Use Area rules (lambdas/engine/validate/fonts/pua-rules.ts) of
 * PDF/UA-2: 8.4.3 for content, ActualText and Alt; 8.6 for human-readable text
 * strings. Each against a file built to break exactly that requirement and the
 * fixture that keeps it.
 */
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { failure, ids, simpleTrueType, TEXT, withFont } from './font-fixtures';

/** A TrueType font whose ToUnicode maps H (0x48) to U+E000, a Private Use Area value. */
const puaFont = simpleTrueType((f, ctx) =>
  f.set(PDFName.of('ToUnicode'), ctx.register(ctx.flateStream(`/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <00> <FF> endcodespacerange\n1 beginbfchar <48> <E000> endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end`))),
);
/** The UA-2 fixture tags the page's text as MCID 0 of a P element. */
const tagged = (inner: string) => `/P <</MCID 0>> BDC ${inner} EMC`;

describe('Private Use Area in content (PDF/UA-2 8.4.3)', () => {
  it('fails real content mapping to a Private Use Area value with neither ActualText nor Alt', async () => {
    const r = await failure('ua2', await withFont('ua2', puaFont, tagged(TEXT)), 'pdfua.fonts.private-use-alternative');
    expect(r).toMatchObject({ clause: '8.4.3', examples: [expect.objectContaining({ page: 1, context: expect.stringContaining('code 72 maps to U+E000') })] });
  });

  it('accepts it inside a sequence with ActualText or Alt, or on a structure element that has one, or as an artifact', async () => {
    const id = 'pdfua.fonts.private-use-alternative';
    expect(await ids('ua2', await withFont('ua2', puaFont, tagged(`BT /F1 24 Tf 72 700 Td /Span << /ActualText (H) >> BDC (H) Tj EMC (I) Tj ET`)))).not.toContain(id);
    expect(await ids('ua2', await withFont('ua2', puaFont, tagged(`BT /F1 24 Tf 72 700 Td /Span << /Alt (star) >> BDC (H) Tj EMC (I) Tj ET`)))).not.toContain(id);
    expect(await ids('ua2', await withFont('ua2', puaFont, `/Artifact BMC ${TEXT} EMC`))).not.toContain(id);
    const altOnElement = (doc: PDFDocument) => {
      const root = doc.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
      const stack: unknown[] = [root.lookup(PDFName.of('K'))];
      while (stack.length) {
        const v = stack.pop();
        if (v instanceof PDFArray) for (let i = 0; i < v.size(); i++) stack.push(v.lookup(i));
        else if (v instanceof PDFDict) {
          if (v.lookup(PDFName.of('S')) === PDFName.of('P')) v.set(PDFName.of('Alt'), PDFString.of('star'));
          stack.push(v.lookup(PDFName.of('K')));
        }
      }
    };
    expect(await ids('ua2', await withFont('ua2', puaFont, tagged(TEXT), altOnElement))).not.toContain(id);
  });

  it('fails ActualText and Alt that hold Private Use Area values, in content and on structure elements', async () => {
    const actual = await failure('ua2', await withFont('ua2', simpleTrueType(), tagged(`BT /F1 24 Tf 72 700 Td /Span << /ActualText <FEFFE000> >> BDC (H) Tj EMC ET`)), 'pdfua.fonts.actual-text-private-use');
    expect(actual).toMatchObject({ clause: '8.4.3', examples: [expect.objectContaining({ page: 1, context: 'marked-content ActualText "<U+E000>"' })] });
    expect(await ids('ua2', await withFont('ua2', simpleTrueType(), tagged(`BT /F1 24 Tf 72 700 Td /Span << /Alt <FEFF0041F8FF> >> BDC (H) Tj EMC ET`)))).toContain('pdfua.fonts.alt-private-use');
    const elementAlt = (doc: PDFDocument) => {
      const ctx = doc.context;
      const root = doc.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
      const figure = ctx.register(ctx.obj({ Type: 'StructElem', S: 'Figure', P: root, Alt: PDFHexString.of('FEFFE001') } as never));
      const k = root.lookup(PDFName.of('K'));
      root.set(PDFName.of('K'), ctx.obj([...(k instanceof PDFArray ? k.asArray() : [root.get(PDFName.of('K'))!]), figure]));
    };
    expect(await failure('ua2', await withFont('ua2', simpleTrueType(), tagged(TEXT), elementAlt), 'pdfua.fonts.alt-private-use')).toMatchObject({ clause: '8.4.3' });
    const clean = await ids('ua2', await withFont('ua2', simpleTrueType(), tagged(`BT /F1 24 Tf 72 700 Td /Span << /ActualText (H) /Alt (H) >> BDC (H) Tj EMC ET`)));
    expect(clean).not.toContain('pdfua.fonts.actual-text-private-use');
    expect(clean).not.toContain('pdfua.fonts.alt-private-use');
  });
});

describe('Private Use Area in text strings (PDF/UA-2 8.6)', () => {
  const id = 'pdfua.text-strings.private-use';

  it('fails a document information Title, an outline title, an annotation Contents and a catalog Lang holding Private Use Area values', async () => {
    // pdf-lib writes text as UTF-16BE with a byte order mark.
    const info = (doc: PDFDocument) => doc.setTitle('A\uE000');
    expect(await failure('ua2', await withFont('ua2', simpleTrueType(), tagged(TEXT), info), id)).toMatchObject({ clause: '8.6', examples: [expect.objectContaining({ context: 'document information Title "A<U+E000>"' })] });

    const outline = (doc: PDFDocument) => {
      const ctx = doc.context;
      const outlines = ctx.nextRef();
      const item = ctx.register(ctx.obj({ Title: PDFHexString.of('FEFFF8FF'), Parent: outlines } as never));
      ctx.assign(outlines, ctx.obj({ Type: 'Outlines', First: item, Last: item, Count: 1 } as never));
      doc.catalog.set(PDFName.of('Outlines'), outlines);
    };
    expect(await ids('ua2', await withFont('ua2', simpleTrueType(), tagged(TEXT), outline))).toContain(id);

    const annotation = (doc: PDFDocument) => {
      const ctx = doc.context;
      const annot = ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Text', Rect: [0, 0, 10, 10], Contents: PDFHexString.of('FEFFDB80DC00') } as never));
      doc.getPage(0).node.set(PDFName.of('Annots'), ctx.obj([annot]));
    };
    expect(await failure('ua2', await withFont('ua2', simpleTrueType(), tagged(TEXT), annotation), id)).toMatchObject({ examples: [expect.objectContaining({ page: 1, context: 'annotation Contents "<U+F0000>"' })] });

    const lang = (doc: PDFDocument) => doc.catalog.set(PDFName.of('Lang'), PDFHexString.of('FEFFF00C'));
    expect(await ids('ua2', await withFont('ua2', simpleTrueType(), tagged(TEXT), lang))).toContain(id);
  });

  it('accepts text strings without Private Use Area values, and applies only to PDF/UA-2', async () => {
    const info = (doc: PDFDocument) => doc.setSubject('A\u2192B');
    expect(await ids('ua2', await withFont('ua2', simpleTrueType(), tagged(TEXT), info))).not.toContain(id);
    const pua = (doc: PDFDocument) => doc.setSubject('\uE000');
    expect(await ids('2b', await withFont('2b', simpleTrueType(), TEXT, pua))).not.toContain(id);
  });
});
