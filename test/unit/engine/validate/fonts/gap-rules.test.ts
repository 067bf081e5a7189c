/**
 * The general font clause of each PDF/A part (font dictionaries as ISO 32000
 * defines them) and the Private Use Area requirements of PDF/UA-2 (8.4.3 for
 * content, ActualText and Alt; 8.6 for human-readable text strings), each
 * against a file built to break exactly that requirement and the fixture that
 * keeps it.
 */
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFString, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { advance, failures, gidOf, ids, LIBERATION, simpleTrueType, TTF, WIDTHS, withFont } from './font-fixtures';

const failure = async (profile: ValidateProfileCode, bytes: Uint8Array, id: string) => (await failures(profile, bytes)).find((f) => f.ruleId === id);


/** A Type 0 font with an Identity-H CIDFontType2 descendant around Liberation Sans; `change` edits the Type 0 dictionary. */
function type0(change?: (font: PDFDict, cidFont: PDFRef, ctx: PDFContext) => void) {
  return (ctx: PDFContext): PDFRef => {
    const fontFile = ctx.register(ctx.flateStream(TTF, { Length1: TTF.length }));
    const descriptor = ctx.obj({ Type: 'FontDescriptor', FontName: 'LiberationSans', Flags: 4, FontBBox: [-203, -303, 1050, 910], ItalicAngle: 0, Ascent: 905, Descent: -212, CapHeight: 729, StemV: 80, FontFile2: fontFile } as never);
    const cidFont = ctx.register(
      ctx.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: 'LiberationSans',
        CIDSystemInfo: ctx.obj({ Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 } as never),
        FontDescriptor: ctx.register(descriptor),
        CIDToGIDMap: 'Identity',
        W: [gidOf('H'), [advance('H'), advance('I')]],
      } as never),
    );
    const font = ctx.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'LiberationSans', Encoding: 'Identity-H', DescendantFonts: [cidFont] } as never) as unknown as PDFDict;
    change?.(font, cidFont, ctx);
    return ctx.register(font);
  };
}
const hex4 = (n: number) => n.toString(16).padStart(4, '0');
const HI = `BT /F1 24 Tf 72 700 Td <${hex4(gidOf('H'))}${hex4(gidOf('I'))}> Tj ET`;

/** A Type 3 font with one square glyph `a`; `change` edits the font dictionary. */
function type3(change?: (font: PDFDict) => void) {
  return (ctx: PDFContext): PDFRef => {
    const proc = ctx.register(ctx.flateStream('750 0 0 0 750 750 d1 0 0 750 750 re f'));
    const font = ctx.obj({
      Type: 'Font',
      Subtype: 'Type3',
      FontBBox: [0, 0, 750, 750],
      FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
      CharProcs: ctx.obj({ a: proc } as never),
      Encoding: ctx.obj({ Type: 'Encoding', Differences: [97, PDFName.of('a')] } as never),
      FirstChar: 97,
      LastChar: 97,
      Widths: [750],
      Resources: ctx.obj({}),
    } as never) as unknown as PDFDict;
    change?.(font);
    return ctx.register(font);
  };
}

const TEXT = 'BT /F1 24 Tf 72 700 Td (HI) Tj ET';
const A = 'BT /F1 24 Tf 72 700 Td (a) Tj ET';
const DICTIONARY_RULES = ['pdfa.fonts.dictionary-type', 'pdfa.fonts.simple-font-widths', 'pdfa.fonts.composite-font-dictionary', 'pdfa.fonts.type3-dictionary', 'pdfa.fonts.font-file-subtype'];
const PUA_RULES = ['pdfua.fonts.private-use-alternative', 'pdfua.fonts.actual-text-private-use', 'pdfua.fonts.alt-private-use', 'pdfua.text-strings.private-use'];
const mine = (list: string[]) => list.filter((id) => DICTIONARY_RULES.includes(id) || PUA_RULES.includes(id));

describe('font dictionaries: the fixtures keep them', () => {
  for (const profile of ['1b', '2b', '4', 'ua2'] as ValidateProfileCode[]) {
    it(`simple TrueType, Type 0 and Type 3 fonts as ISO 32000 defines them pass in ${profile}`, async () => {
      expect(mine(await ids(profile, await withFont(profile, simpleTrueType(), TEXT)))).toEqual([]);
      expect(mine(await ids(profile, await withFont(profile, type0(), HI)))).toEqual([]);
      expect(mine(await ids(profile, await withFont(profile, type3(), A)))).toEqual([]);
    });
  }
});

describe('font dictionaries (PDF/A-1 6.3.2, PDF/A-2/3 6.2.11.2, PDF/A-4 6.2.10.2)', () => {
  it('fails a font dictionary whose Type is not Font, in each part\'s numbering', async () => {
    const noType = simpleTrueType((f) => f.delete(PDFName.of('Type')));
    expect(await failure('1b', await withFont('1b', noType, TEXT), 'pdfa.fonts.dictionary-type')).toMatchObject({ clause: '6.3.2', examples: [expect.objectContaining({ page: 1, context: expect.stringContaining('no Type entry') })] });
    expect(await failure('2b', await withFont('2b', noType, TEXT), 'pdfa.fonts.dictionary-type')).toMatchObject({ clause: '6.2.11.2' });
    expect(await failure('4', await withFont('4', noType, TEXT), 'pdfa.fonts.dictionary-type')).toMatchObject({ clause: '6.2.10.2' });
  });

  it('judges invisible text too ("regardless of rendering mode usage")', async () => {
    const noType = simpleTrueType((f) => f.set(PDFName.of('Type'), PDFName.of('FontDescriptor')));
    expect(await ids('2b', await withFont('2b', noType, 'BT 3 Tr /F1 24 Tf 72 700 Td (HI) Tj ET'))).toContain('pdfa.fonts.dictionary-type');
  });

  it('fails an unknown Subtype, a missing BaseFont, and a descendant that is not a CIDFont', async () => {
    expect(await ids('2b', await withFont('2b', simpleTrueType((f) => f.set(PDFName.of('Subtype'), PDFName.of('OpenType'))), TEXT))).toContain('pdfa.fonts.dictionary-type');
    expect(await ids('2b', await withFont('2b', simpleTrueType((f) => f.delete(PDFName.of('BaseFont'))), TEXT))).toContain('pdfa.fonts.dictionary-type');
    const notCid = type0((_f, cid, ctx) => (ctx.lookup(cid) as PDFDict).set(PDFName.of('Subtype'), PDFName.of('TrueType')));
    const r = await failure('2b', await withFont('2b', notCid, HI), 'pdfa.fonts.dictionary-type');
    expect(r?.examples[0]?.context).toContain('its CIDFont');
    // A Type 3 font has no BaseFont to give.
    expect(await ids('2b', await withFont('2b', type3(), A))).not.toContain('pdfa.fonts.dictionary-type');
  });

  it('fails a simple font without FirstChar or LastChar, or whose Widths does not cover LastChar − FirstChar + 1 codes', async () => {
    const short = simpleTrueType((f, ctx) => f.set(PDFName.of('Widths'), ctx.obj(WIDTHS.slice(0, 94))));
    const r = await failure('2b', await withFont('2b', short, TEXT), 'pdfa.fonts.simple-font-widths');
    expect(r).toMatchObject({ clause: '6.2.11.2', examples: [expect.objectContaining({ context: expect.stringContaining('Widths has 94 entries, LastChar − FirstChar + 1 is 95') })] });
    expect(await ids('1b', await withFont('1b', simpleTrueType((f) => f.delete(PDFName.of('FirstChar'))), TEXT))).toContain('pdfa.fonts.simple-font-widths');
    expect(await ids('4', await withFont('4', simpleTrueType((f) => f.delete(PDFName.of('LastChar'))), TEXT))).toContain('pdfa.fonts.simple-font-widths');
    expect(await ids('4', await withFont('4', type3((f) => f.delete(PDFName.of('Widths'))), A))).toContain('pdfa.fonts.simple-font-widths');
  });

  it('exempts a standard 14 font shown without a program of its own (readers know its widths)', async () => {
    const helvetica = (ctx: PDFContext) => ctx.register(ctx.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
    expect(await ids('2b', await withFont('2b', helvetica, TEXT))).not.toContain('pdfa.fonts.simple-font-widths');
    // Embedded under a standard name, it is an ordinary font and needs its widths.
    const embeddedHelvetica = simpleTrueType((f) => {
      f.set(PDFName.of('BaseFont'), PDFName.of('Helvetica'));
      f.delete(PDFName.of('Widths'));
    });
    expect(await ids('2b', await withFont('2b', embeddedHelvetica, TEXT))).toContain('pdfa.fonts.simple-font-widths');
  });

  it('fails a Type 0 font whose DescendantFonts holds more than one font, or none', async () => {
    const two = type0((f, cid, ctx) => f.set(PDFName.of('DescendantFonts'), ctx.obj([cid, cid])));
    const r = await failure('4', await withFont('4', two, HI), 'pdfa.fonts.composite-font-dictionary');
    expect(r).toMatchObject({ clause: '6.2.10.2', examples: [expect.objectContaining({ context: expect.stringContaining('DescendantFonts has 2 entries') })] });
    const none = type0((f, _cid, ctx) => f.set(PDFName.of('DescendantFonts'), ctx.obj([])));
    expect(await ids('2b', await withFont('2b', none, HI))).toContain('pdfa.fonts.composite-font-dictionary');
  });

  it('fails a Type 3 font without FontMatrix, FontBBox, CharProcs or Encoding', async () => {
    for (const key of ['FontMatrix', 'FontBBox', 'CharProcs', 'Encoding']) {
      const r = await failure('2b', await withFont('2b', type3((f) => f.delete(PDFName.of(key))), A), 'pdfa.fonts.type3-dictionary');
      expect(r, key).toMatchObject({ clause: '6.2.11.2' });
    }
  });

  it('fails a FontFile3 program of a format the part does not know (OpenType only from PDF 1.6 on)', async () => {
    const fontFile3 = (subtype: string) =>
      simpleTrueType(undefined, (d, ctx) => {
        d.delete(PDFName.of('FontFile2'));
        d.set(PDFName.of('FontFile3'), ctx.register(ctx.flateStream(TTF, { Subtype: subtype } as never)));
      });
    const r = await failure('2b', await withFont('2b', fontFile3('TrueType'), TEXT), 'pdfa.fonts.font-file-subtype');
    expect(r).toMatchObject({ clause: '6.2.11.2', examples: [expect.objectContaining({ context: expect.stringContaining('FontFile3 Subtype TrueType') })] });
    expect(await ids('2b', await withFont('2b', fontFile3('OpenType'), TEXT))).not.toContain('pdfa.fonts.font-file-subtype');
    expect(await ids('1b', await withFont('1b', fontFile3('OpenType'), TEXT))).toContain('pdfa.fonts.font-file-subtype');
  });

  it('does not apply to PDF/UA (its font clauses start at character collections)', async () => {
    expect(await ids('ua2', await withFont('ua2', simpleTrueType((f) => f.delete(PDFName.of('Type'))), TEXT))).not.toContain('pdfa.fonts.dictionary-type');
  });
});

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
