/**
 * Font dictionary rules (lambdas/engine/validate/fonts/dictionary-rules.ts): the
 * general font clause of each PDF/A part (font dictionaries as ISO 32000
 * defines them), each against a file built to break exactly that requirement
 * and the fixture that keeps it.
 */
import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName, PDFRef, PDFString, type PDFContext } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { advance, failure, gidOf, ids, simpleTrueType, TEXT, TTF, WIDTHS, withFont } from './font-fixtures';

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
