/**
 * The font rules, each against a file that breaks it and the fixture that keeps
 * it: fonts are built in code around Liberation Sans (TrueType, shipped by
 * pdfjs-dist), as simple fonts, as Type 0 fonts with a CIDFontType2
 * descendant, and as Type 3 fonts.
 */
import { describe, expect, it } from 'vitest';
import { PDFName, PDFRef, PDFString, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { failures, HI, ids, LIBERATION, simpleTrueType, toUnicode, type0, WIDTHS, withFont } from './font-fixtures';

const FONT_RULE = /^(pdfa\.|pdfua\.)?fonts\./;
const fontIds = async (profile: ValidateProfileCode, bytes: Uint8Array) => (await ids(profile, bytes)).filter((id) => FONT_RULE.test(id));



/** A Type 3 font with one square glyph `a` whose procedure says it is `procWidth` wide. */
function type3(dictWidth: number, procWidth: number, glyphName = 'a') {
  return (ctx: PDFContext): PDFRef => {
    const proc = ctx.register(ctx.flateStream(`${procWidth} 0 0 0 750 750 d1 0 0 750 750 re f`));
    return ctx.register(
      ctx.obj({
        Type: 'Font',
        Subtype: 'Type3',
        FontBBox: [0, 0, 750, 750],
        FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
        CharProcs: ctx.obj({ [glyphName]: proc } as never),
        Encoding: ctx.obj({ Type: 'Encoding', Differences: [97, PDFName.of(glyphName)] } as never),
        FirstChar: 97,
        LastChar: 97,
        Widths: [dictWidth],
        Resources: ctx.obj({}),
      } as never),
    );
  };
}

const TEXT = 'BT /F1 24 Tf 72 700 Td (HI) Tj ET';

describe('font rules: the fixtures keep them', () => {
  for (const profile of ['1b', '2b', '2u', '4', 'ua1', 'ua2'] as ValidateProfileCode[]) {
    it(`an embedded WinAnsi TrueType font with its program's widths passes every font rule of ${profile}`, async () => {
      expect(await fontIds(profile, await withFont(profile, simpleTrueType(), TEXT))).toEqual([]);
    });
  }
  it('a Type 0 font with Identity-H, a CIDToGIDMap and an exact CIDSet passes every font rule', async () => {
    const all = new Uint8Array(Math.ceil(LIBERATION.glyphCount / 8));
    for (let g = 0; g < LIBERATION.glyphCount; g++) all[g >> 3]! |= 0x80 >> (g & 7);
    expect(await fontIds('2b', await withFont('2b', type0({ subset: true, cidSet: all }), HI))).toEqual([]);
  });
});

describe('embedding', () => {
  it('fails a font whose program is not embedded, naming it, and exempts invisible text', async () => {
    const notEmbedded = simpleTrueType(undefined, (d) => d.delete(PDFName.of('FontFile2')));
    const f = (await failures('2b', await withFont('2b', notEmbedded, TEXT))).find((x) => x.ruleId === 'pdfa.fonts.embedded');
    expect(f).toMatchObject({ clause: '6.2.11.4.1', examples: [{ page: 1, context: 'font LiberationSans (TrueType) is not embedded' }] });
    expect(await ids('ua1', await withFont('ua1', notEmbedded, TEXT))).toContain('pdfua.fonts.embedded');
    expect(await ids('2b', await withFont('2b', notEmbedded, `BT 3 Tr /F1 24 Tf 72 700 Td (HI) Tj ET`))).not.toContain('pdfa.fonts.embedded');
  });

  it('fails a glyph the embedded program does not define', async () => {
    const font = simpleTrueType((f, ctx) => f.set(PDFName.of('Encoding'), ctx.obj({ Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: [72, PDFName.of('uniE8FF')] } as never)));
    const r = await failures('2b', await withFont('2b', font, TEXT));
    expect(r.find((x) => x.ruleId === 'fonts.glyphs-present')).toMatchObject({ clause: '6.2.11.4.1' });
  });

  it('fails a Type 3 code whose glyph has no procedure', async () => {
    expect(await ids('2b', await withFont('2b', type3(750, 750), 'BT /F1 24 Tf 72 700 Td (b) Tj ET'))).toContain('fonts.glyphs-present');
    expect(await ids('2b', await withFont('2b', type3(750, 750), 'BT /F1 24 Tf 72 700 Td (a) Tj ET'))).not.toContain('fonts.glyphs-present');
  });

  it('fails a subset CIDSet that lists a CID the program lacks (PDF/A-2) or omits one the text uses (PDF/A-1)', async () => {
    const tooMany = new Uint8Array(Math.ceil(LIBERATION.glyphCount / 8) + 2).fill(0xff);
    expect(await ids('2b', await withFont('2b', type0({ subset: true, cidSet: tooMany }), HI))).toContain('fonts.subset-glyph-lists');
    const none = new Uint8Array(Math.ceil(LIBERATION.glyphCount / 8));
    const r = await failures('1b', await withFont('1b', type0({ subset: true, cidSet: none }), HI));
    expect(r.find((x) => x.ruleId === 'fonts.subset-glyph-lists')).toMatchObject({ clause: '6.3.5' });
    // PDF/A-2 accepts a subset without CIDSet; PDF/A-1 requires one.
    expect(await ids('2b', await withFont('2b', type0({ subset: true }), HI))).not.toContain('fonts.subset-glyph-lists');
    expect(await ids('1b', await withFont('1b', type0({ subset: true }), HI))).toContain('fonts.subset-glyph-lists');
  });
});

describe('composite fonts', () => {
  it('fails an embedded CIDFontType2 without CIDToGIDMap', async () => {
    const r = await failures('2b', await withFont('2b', type0({ cidToGid: false }), HI));
    expect(r.find((x) => x.ruleId === 'fonts.cid-to-gid-map')).toMatchObject({ clause: '6.2.11.3.2' });
    expect(await ids('ua2', await withFont('ua2', type0({ cidToGid: false }), HI))).toContain('fonts.cid-to-gid-map');
  });

  it('fails a CMap whose character collection differs from the CIDFont\'s', async () => {
    const r = await failures('4', await withFont('4', type0({ encoding: PDFName.of('UniJIS-UCS2-H') }), HI));
    expect(r.find((x) => x.ruleId === 'fonts.cid-system-info')).toMatchObject({ clause: '6.2.10.3.1' });
    expect(r.map((x) => x.ruleId)).not.toContain('fonts.cmaps');
    const same = type0({ encoding: PDFName.of('UniJIS-UCS2-H'), systemInfo: ['Adobe', 'Japan1', 4] });
    expect(await ids('4', await withFont('4', same, HI))).not.toContain('fonts.cid-system-info');
  });
});

describe('CIDs within the implementation limit', () => {
  const cmapTo = (firstCid: number) => (ctx: PDFContext) =>
    type0({
      encoding: ctx.register(
        ctx.flateStream(`/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Big-H def\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n1 begincidrange <0000> <FFFF> ${firstCid} endcidrange\nendcmap CMapName currentdict /CMap defineresource pop end end`, {
          Type: 'CMap',
          CMapName: 'Big-H',
          CIDSystemInfo: ctx.obj({ Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 } as never),
        } as never),
      ),
    })(ctx);

  it('fails an embedded CMap mapping a code to a CID above 65 535 (PDF/A-1 6.1.12, PDF/A-2 6.1.13)', async () => {
    const r = await failures('2b', await withFont('2b', cmapTo(70000), HI));
    expect(r.find((x) => x.ruleId === 'pdfa.limits.cid')).toMatchObject({ clause: '6.1.13', examples: [expect.objectContaining({ context: expect.stringContaining('maps to CID 135535') })] });
    expect((await failures('1b', await withFont('1b', cmapTo(70000), HI))).find((x) => x.ruleId === 'pdfa.limits.cid')).toMatchObject({ clause: '6.1.12' });
    expect(await ids('2b', await withFont('2b', cmapTo(0), HI))).not.toContain('pdfa.limits.cid');
  });
});

describe('metrics', () => {
  it('fails a width in the dictionary that differs from the program by more than one unit', async () => {
    const wrong = simpleTrueType((f, ctx) => f.set(PDFName.of('Widths'), ctx.obj(WIDTHS.map((w, i) => (i === 'H'.charCodeAt(0) - 32 ? w + 50 : w)))));
    const r = await failures('2b', await withFont('2b', wrong, TEXT));
    expect(r.find((x) => x.ruleId === 'fonts.widths-match-program')).toMatchObject({ clause: '6.2.11.5', examples: [expect.objectContaining({ page: 1, context: expect.stringContaining('code 72 (H)') })] });
    expect(await ids('ua1', await withFont('ua1', wrong, TEXT))).toContain('fonts.widths-match-program');
    const close = simpleTrueType((f, ctx) => f.set(PDFName.of('Widths'), ctx.obj(WIDTHS.map((w, i) => (i === 'H'.charCodeAt(0) - 32 ? w + 1 : w)))));
    expect(await ids('2b', await withFont('2b', close, TEXT))).not.toContain('fonts.widths-match-program');
  });

  it('compares a Type 3 font\'s Widths with its glyph procedure\'s d1 width', async () => {
    expect(await ids('4', await withFont('4', type3(0, 750), 'BT /F1 24 Tf 72 700 Td (a) Tj ET'))).toContain('fonts.widths-match-program');
    expect(await ids('4', await withFont('4', type3(750, 750), 'BT /F1 24 Tf 72 700 Td (a) Tj ET'))).not.toContain('fonts.widths-match-program');
  });
});

describe('TrueType encodings', () => {
  it('fails a non-symbolic TrueType font without MacRoman or WinAnsi encoding', async () => {
    const r = await failures('2b', await withFont('2b', simpleTrueType((f) => f.delete(PDFName.of('Encoding'))), TEXT));
    expect(r.find((x) => x.ruleId === 'fonts.truetype-encoding')).toMatchObject({ clause: '6.2.11.6' });
  });

  it('fails a symbolic TrueType font with an Encoding entry', async () => {
    const symbolic = simpleTrueType(undefined, (d) => d.set(PDFName.of('Flags'), d.context.obj(4)));
    expect(await ids('ua2', await withFont('ua2', symbolic, TEXT))).toContain('fonts.truetype-encoding');
  });

  it('accepts Differences with Unicode glyph names in PDF/A-2 but not in PDF/A-1', async () => {
    const diffs = simpleTrueType((f, ctx) => f.set(PDFName.of('Encoding'), ctx.obj({ Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: [72, PDFName.of('H')] } as never)));
    expect(await ids('2b', await withFont('2b', diffs, TEXT))).not.toContain('fonts.truetype-encoding');
    expect(await ids('1b', await withFont('1b', diffs, TEXT))).toContain('fonts.truetype-encoding');
  });
});

describe('Unicode, ActualText and .notdef', () => {
  it('fails codes without a Unicode mapping at levels A and U and in PDF/UA, not at level B', async () => {
    const unknownName = type3(750, 750, 'glyph1');
    const text = 'BT /F1 24 Tf 72 700 Td (a) Tj ET';
    expect(await ids('2u', await withFont('2u', unknownName, text))).toContain('pdfa.fonts.unicode');
    expect(await ids('ua2', await withFont('ua2', unknownName, text))).toContain('pdfua.fonts.unicode');
    expect(await ids('2b', await withFont('2b', unknownName, text))).not.toContain('pdfa.fonts.unicode');
    expect(await ids('2u', await withFont('2u', type3(750, 750, 'a'), text))).not.toContain('pdfa.fonts.unicode');
  });

  it('fails a ToUnicode value of U+0000, U+FEFF or U+FFFE', async () => {
    const zero = simpleTrueType((f, ctx) => f.set(PDFName.of('ToUnicode'), toUnicode(ctx, '1 beginbfchar <48> <0000> endbfchar')));
    const r = await failures('4', await withFont('4', zero, TEXT));
    expect(r.find((x) => x.ruleId === 'fonts.unicode-values')).toMatchObject({ clause: '6.2.10.7', examples: [expect.objectContaining({ context: expect.stringContaining('U+0000') })] });
    const fine = simpleTrueType((f, ctx) => f.set(PDFName.of('ToUnicode'), toUnicode(ctx, '1 beginbfchar <48> <0048> endbfchar')));
    expect(await ids('4', await withFont('4', fine, TEXT))).not.toContain('fonts.unicode-values');
  });

  it('fails a Private Use Area character without ActualText at level A, and accepts it inside an ActualText span', async () => {
    const pua = simpleTrueType((f, ctx) => f.set(PDFName.of('ToUnicode'), toUnicode(ctx, '1 beginbfchar <48> <E000> endbfchar')));
    expect(await ids('2a', await withFont('2a', pua, TEXT))).toContain('pdfa.fonts.private-use-actual-text');
    const spanned = 'BT /F1 24 Tf 72 700 Td /Span << /ActualText (H) >> BDC (H) Tj EMC (I) Tj ET';
    expect(await ids('2a', await withFont('2a', pua, spanned))).not.toContain('pdfa.fonts.private-use-actual-text');
  });

  it('accepts a Private Use Area character whose structure element carries ActualText (through its MCID)', async () => {
    const pua = simpleTrueType((f, ctx) => f.set(PDFName.of('ToUnicode'), toUnicode(ctx, '1 beginbfchar <48> <E000> endbfchar')));
    const tagged = 'BT /F1 24 Tf 72 700 Td /P << /MCID 0 >> BDC (H) Tj EMC ET';
    const withElement = (actualText: boolean) => (doc: PDFDocument) => {
      const ctx = doc.context;
      const root = ctx.nextRef();
      const elem = ctx.register(ctx.obj({ Type: 'StructElem', S: 'P', P: root, Pg: doc.getPage(0).ref, K: 0, ...(actualText ? { ActualText: PDFString.of('H') } : {}) } as never));
      ctx.assign(root, ctx.obj({ Type: 'StructTreeRoot', K: elem } as never));
      doc.catalog.set(PDFName.of('StructTreeRoot'), root);
    };
    expect(await ids('2a', await withFont('2a', pua, tagged, withElement(true)))).not.toContain('pdfa.fonts.private-use-actual-text');
    expect(await ids('2a', await withFont('2a', pua, tagged, withElement(false)))).toContain('pdfa.fonts.private-use-actual-text');
  });

  it('fails ActualText holding Private Use Area characters in PDF/A-4', async () => {
    const content = 'BT /F1 24 Tf 72 700 Td /Span << /ActualText <FEFFE000> >> BDC (H) Tj EMC ET';
    expect(await ids('4', await withFont('4', simpleTrueType(), content))).toContain('pdfa.fonts.actual-text-private-use');
    expect(await ids('4', await withFont('4', simpleTrueType(), TEXT))).not.toContain('pdfa.fonts.actual-text-private-use');
  });

  it('fails text that shows the .notdef glyph', async () => {
    const r = await failures('ua1', await withFont('ua1', simpleTrueType(), 'BT /F1 24 Tf 72 700 Td <48007F> Tj ET'));
    expect(r.find((x) => x.ruleId === 'fonts.no-notdef')).toMatchObject({ clause: '7.21.8' });
  });
});
