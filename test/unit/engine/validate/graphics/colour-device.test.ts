/**
 * Device colour rules (lambdas/engine/validate/graphics/colour-device.ts): the
 * alternate space of Separation and DeviceN colour spaces (6.2.4.4), and
 * device colour in every annotation appearance stream and under the current
 * transparency blending space (6.2.4.3).
 */
import { describe, expect, it } from 'vitest';
import { PDFName, PDFString } from '@cantoo/pdf-lib';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfaSpec } from '../../../../support/pdf-fixtures';
import { colourFailures, files, iccProfile, ids, separation, spotPage, square, tint, type Page } from './colour-fixtures';

describe('alternate colour spaces of Separation and DeviceN (6.2.4.4)', () => {
  it('a DeviceCMYK alternate with an RGB output intent fails; a DeviceRGB alternate passes', async () => {
    const bad = await colourFailures(pdfaSpec(2, 'b'), '2b', spotPage(() => PDFName.of('DeviceCMYK'), 4));
    const f = bad.find((x) => x.ruleId === 'pdfa.colour.alternate-space');
    expect(f).toMatchObject({ clause: '6.2.4.4', examples: [{ page: 1, context: expect.stringContaining('DeviceCMYK as a Separation/DeviceN alternate') }] });
    expect(ids(await colourFailures(pdfaSpec(2, 'b'), '2b', spotPage(() => PDFName.of('DeviceRGB'), 3)))).toEqual([]);
  });

  it('applies to DeviceN and to PDF/A-3 and -4 as well', async () => {
    const deviceN: Page = {
      content: `/Dn cs 1 sc ${square}`,
      colourSpaces: (doc) => ({
        Dn: [PDFName.of('DeviceN'), [PDFName.of('Spot')], PDFName.of('DeviceCMYK'), tint(doc, 4), doc.context.obj({ Colorants: doc.context.obj({ Spot: separation(doc, PDFName.of('DeviceCMYK'), 4) } as never) } as never)],
      }),
    };
    expect(ids(await colourFailures(pdfaSpec(3, 'b'), '3b', deviceN))).toContain('pdfa.colour.alternate-space');
    const a4 = await colourFailures(pdfaSpec(4), '4', spotPage(() => PDFName.of('DeviceCMYK'), 4));
    expect(a4.find((x) => x.ruleId === 'pdfa.colour.alternate-space')).toMatchObject({ clause: '6.2.4.4' });
  });
});

describe('device colour in annotation appearances no viewer shows (6.2.4.3)', () => {
  /** A check box whose shown state (/AS /Off) is empty and whose /On state paints in `colour`. */
  async function checkBox(colour: string, extra: Record<string, unknown> = {}) {
    const bytes = await mutatePdf(await buildPdf(pdfaSpec(4)), (doc) => {
      const form = (content: string) => doc.context.register(doc.context.stream(content, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 20, 20] } as never));
      const states = doc.context.obj({ On: form(`${colour} ${square}`), Off: form('') } as never);
      const widget = doc.context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Btn', T: PDFString.of('box'), Rect: [0, 0, 20, 20], F: 4, AS: 'Off', AP: doc.context.obj({ N: states } as never), ...extra } as never);
      doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([widget]));
    });
    const result = await validate({ path: files.write(bytes, 'pdf'), profiles: ['4'] });
    return result.profiles[0]!.failures.filter((f) => f.ruleId.startsWith('pdfa.colour'));
  }

  it('judges the state not shown: DeviceCMYK there fails against an RGB output intent, DeviceRGB passes', async () => {
    expect(ids(await checkBox('0 0 0 1 k'))).toEqual(['pdfa.colour.cmyk']);
    expect(ids(await checkBox('1 0 0 rg'))).toEqual([]);
  });

  it('judges the appearance of an annotation without a Rect too', async () => {
    expect(ids(await checkBox('0 0 0 1 k', { Rect: undefined }))).toEqual(['pdfa.colour.cmyk']);
  });
});

describe('the current transparency blending space in PDF/A-4 (6.2.4.3)', () => {
  /** No output intent; a page group blending in ICC CMYK; a form with an ICC RGB group (isolated or not) painting in DeviceRGB. */
  async function rgbInForm(isolated: boolean) {
    const bytes = await mutatePdf(await buildPdf({ ...pdfaSpec(4), outputIntent: undefined }), (doc) => {
      const icc = (space: string, n: number) => [PDFName.of('ICCBased'), doc.context.register(doc.context.stream(iccProfile(space, space === 'CMYK' ? 'prtr' : 'mntr'), { N: n }))];
      const group = doc.context.obj({ S: 'Transparency', CS: icc('RGB ', 3), I: isolated } as never);
      const form = doc.context.register(doc.context.stream(`1 0 0 rg ${square}`, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 100], Group: group } as never));
      const node = doc.getPage(0).node;
      node.set(PDFName.of('Group'), doc.context.obj({ S: 'Transparency', CS: icc('CMYK', 4) } as never));
      node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream('/Fm0 Do')));
      node.set(PDFName.of('Resources'), doc.context.obj({ XObject: doc.context.obj({ Fm0: form } as never) } as never));
    });
    const result = await validate({ path: files.write(bytes, 'pdf'), profiles: ['4'] });
    return result.profiles[0]!.failures.filter((f) => f.ruleId.startsWith('pdfa.colour'));
  }

  it("an isolated form group's RGB space calibrates DeviceRGB inside it", async () => {
    expect(ids(await rgbInForm(true))).toEqual([]);
  });

  it('a non-isolated group blends in the space in effect (here CMYK), so DeviceRGB inside it fails', async () => {
    expect(ids(await rgbInForm(false))).toEqual(['pdfa.colour.rgb']);
  });
});

describe('device colour in the glyphs of a Type 3 font in use (6.2.4.3)', () => {
  /** Text shows glyph "a" (empty) of a Type 3 font whose glyph "b", never shown, is `glyphB`. */
  async function type3(glyphB: string) {
    const bytes = await mutatePdf(await buildPdf(pdfaSpec(4)), (doc) => {
      const proc = (content: string) => doc.context.register(doc.context.stream(content));
      const font = doc.context.obj({
        Type: 'Font',
        Subtype: 'Type3',
        FontBBox: [0, 0, 1, 1],
        FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
        CharProcs: doc.context.obj({ a: proc('1000 0 d0'), b: proc(glyphB) } as never),
        Encoding: doc.context.obj({ Type: 'Encoding', Differences: [97, PDFName.of('a'), PDFName.of('b')] } as never),
        FirstChar: 97,
        LastChar: 98,
        Widths: [1000, 1000],
      } as never);
      const node = doc.getPage(0).node;
      node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream('BT /T3 12 Tf 10 10 Td (a) Tj ET')));
      node.set(PDFName.of('Resources'), doc.context.obj({ Font: doc.context.obj({ T3: font } as never) } as never));
    });
    const result = await validate({ path: files.write(bytes, 'pdf'), profiles: ['4'] });
    return result.profiles[0]!.failures.filter((f) => f.ruleId.startsWith('pdfa.colour'));
  }

  it('judges a coloured glyph the text never shows: DeviceCMYK there fails against an RGB output intent', async () => {
    expect(ids(await type3(`1000 0 d0 0 0 0 1 k ${square}`))).toEqual(['pdfa.colour.cmyk']);
    expect(ids(await type3(`1000 0 d0 1 0 0 rg ${square}`))).toEqual([]);
  });

  it('ignores colour operators in an uncoloured (d1) glyph, shown or not', async () => {
    expect(ids(await type3(`1000 0 0 0 1 1 d1 0 0 0 1 k ${square}`))).toEqual([]);
  });
});
