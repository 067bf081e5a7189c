import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName, PDFRef, PDFStream } from '@cantoo/pdf-lib';
import { operations } from '../../../../../lambdas/engine/core/content-lexer';
import { decodeStream } from '../../../../../lambdas/engine/core/pdf-objects';
import { writeOperations } from '../../../../../lambdas/engine/autofix/content/content-edit';
import { tempFiles } from '../../temp-files';
import { contentPdf, form, formOps, formStream, opTexts, pageOps, pageTexts, pixelAt, previewPixels, qpdfCheck, runFix, separation, setResource } from './fixtures';

const files = tempFiles('gray-to-k');

describe('color.gray-to-k', () => {
  it('turns g, G and DeviceGray cs/sc into K-only CMYK, in the page and in the forms it paints', async () => {
    const doc = await contentPdf([
      {
        content:
          '0.5 g 50 700 200 50 re f 0 G 4 w 50 600 m 300 600 l S /DeviceGray cs 0.25 sc 50 500 200 50 re f BT /F1 24 Tf 0 g 50 400 Td (Gray text) Tj ET /Fm0 Do',
      },
    ]);
    setResource(doc, 0, 'XObject', 'Fm0', form(doc, '0.8 g 300 100 100 100 re f'));
    const { outcome, doc: out } = await runFix('color.gray-to-k', doc);
    expect(outcome).toMatchObject({ count: 6, pages: [1] });
    expect(outcome.detail).toBe('6 DeviceGray colour setting(s) converted to K in 2 content stream(s)');
    expect(pageOps(out)).toEqual([
      '0 0 0 0.5 k', '50 700 200 50 re', 'f', '0 0 0 1 K', '4 w', '50 600 m', '300 600 l', 'S',
      '/DeviceCMYK cs', '0 0 0 0.75 k', '50 500 200 50 re', 'f',
      'BT', '/F1 24 Tf', '0 0 0 1 k', '50 400 Td', '(Gray text) Tj', 'ET', '/Fm0 Do',
    ]);
    expect(formOps(out, 0, 'Fm0')).toEqual(['0 0 0 0.2 k', '300 100 100 100 re', 'f']);
  });

  it('leaves RGB, CMYK and spot colours, and a sc that is not gray', async () => {
    const doc = await contentPdf([{ content: '1 0 0 rg 0 0 1 RG 0.1 0.2 0.3 0.4 k /CS0 cs 0.5 sc 10 10 50 50 re f' }]);
    setResource(doc, 0, 'ColorSpace', 'CS0', separation(doc, 'Gold', [0, 0.2, 0.8, 0.1]));
    const { outcome, doc: out } = await runFix('color.gray-to-k', doc);
    expect(outcome).toMatchObject({ count: 0, pages: [] });
    expect(outcome.skipReason).toBeUndefined();
    expect(pageOps(out)).toEqual(['1 0 0 rg', '0 0 1 RG', '0.1 0.2 0.3 0.4 k', '/CS0 cs', '0.5 sc', '10 10 50 50 re', 'f']);
  });

  it('converts a ColorSpace resource that is DeviceGray, by renaming the space in cs', async () => {
    const doc = await contentPdf([{ content: '/G0 CS 0.6 SC 10 10 m 100 100 l S' }]);
    setResource(doc, 0, 'ColorSpace', 'G0', PDFName.of('DeviceGray'));
    const { doc: out } = await runFix('color.gray-to-k', doc);
    expect(pageOps(out)).toEqual(['/DeviceCMYK CS', '0 0 0 0.4 K', '10 10 m', '100 100 l', 'S']);
  });

  it('copies a shared form when only some of its uses paint in gray', async () => {
    // The form sets only a tint: gray where page 2 selected DeviceGray, a spot tint where page 1 selected the spot.
    const doc = await contentPdf([{ content: '/CS0 cs /Fm0 Do' }, { content: '/DeviceGray cs /Fm0 Do' }]);
    const fm = form(doc, '0.5 sc 10 10 100 100 re f', { resources: {} });
    setResource(doc, 0, 'ColorSpace', 'CS0', separation(doc, 'Gold', [0, 0.2, 0.8, 0.1]));
    setResource(doc, 0, 'XObject', 'Fm0', fm);
    setResource(doc, 1, 'XObject', 'Fm0', fm);
    const { outcome, doc: out } = await runFix('color.gray-to-k', doc);
    expect(outcome.pages).toEqual([2]);
    expect(outcome.detail).toContain('1 form XObject(s) copied because their uses differ');
    expect(pageOps(out, 0)).toEqual(['/CS0 cs', '/Fm0 Do']);
    expect(formOps(out, 0, 'Fm0')).toEqual(['0.5 sc', '10 10 100 100 re', 'f']);
    expect(pageOps(out, 1)).toEqual(['/DeviceCMYK cs', '/Fm0_pl1 Do']);
    expect(formOps(out, 1, 'Fm0_pl1')).toEqual(['0 0 0 0.5 k', '10 10 100 100 re', 'f']);
    // The original stays where page 2 still names it, for nothing else.
    expect(formStream(out, 1, 'Fm0')).toBe(formStream(out, 0, 'Fm0'));
  });

  it('rewrites a form painted twice the same way once, in place', async () => {
    const doc = await contentPdf([{ content: '/Fm0 Do' }, { content: 'q 0.5 0 0 0.5 0 0 cm /Fm0 Do Q' }]);
    const fm = form(doc, '0.3 g 10 10 100 100 re f', { resources: {} });
    setResource(doc, 0, 'XObject', 'Fm0', fm);
    setResource(doc, 1, 'XObject', 'Fm0', fm);
    const { outcome, doc: out } = await runFix('color.gray-to-k', doc);
    expect(outcome).toMatchObject({ count: 1, pages: [1, 2] });
    const xo = out.getPage(1).node.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('XObject'), PDFDict);
    expect(xo.get(PDFName.of('Fm0'))).toBeInstanceOf(PDFRef);
    expect(xo.has(PDFName.of('Fm0_pl1'))).toBe(false);
    expect(formOps(out, 1, 'Fm0')).toEqual(['0 0 0 0.7 k', '10 10 100 100 re', 'f']);
  });

  it('leaves soft masks, and gray replaced by a DefaultGray space, alone', async () => {
    const doc = await contentPdf([{ content: '/GS0 gs 0.5 g 10 10 100 100 re f' }]);
    const mask = form(doc, '0.5 g 0 0 600 850 re f', { resources: {} });
    (doc.context.lookup(mask) as PDFStream).dict.set(PDFName.of('Group'), doc.context.obj({ S: 'Transparency', CS: 'DeviceGray' }));
    setResource(doc, 0, 'ExtGState', 'GS0', { Type: 'ExtGState', SMask: { S: 'Luminosity', G: mask } });
    setResource(doc, 0, 'ColorSpace', 'DefaultGray', [PDFName.of('CalGray'), { WhitePoint: [0.9505, 1, 1.089] }]);
    const { outcome, doc: out } = await runFix('color.gray-to-k', doc);
    expect(outcome.count).toBe(0);
    expect(outcome.skipReason).toBe('No DeviceGray colour could be converted: 1 gray colour setting(s) under a DefaultGray colour space left.');
    expect(pageOps(out)).toEqual(['/GS0 gs', '0.5 g', '10 10 100 100 re', 'f']);
    const smask = out.getPage(0).node.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('ExtGState'), PDFDict).lookup(PDFName.of('GS0'), PDFDict).lookup(PDFName.of('SMask'), PDFDict);
    expect(opTexts([...operations(decodeStream(smask.lookup(PDFName.of('G'), PDFStream)).bytes!)])).toEqual(['0.5 g', '0 0 600 850 re', 'f']);
  });

  it('copies inline images byte for byte and writes every other operation back as read', async () => {
    const image = Buffer.concat([Buffer.from('q 20 0 0 20 50 50 cm BI /W 4 /H 1 /BPC 8 /CS /G ID '), Buffer.from([0x45, 0x49, 0x20, 0x0a]), Buffer.from(' EI Q\n')]);
    const rest = '0.5 g BT /F1 12 Tf [(A\\(b\\)) -120 <414243>] TJ ET /P <</MCID 0 /Alt (x)>> BDC EMC 0.0000001 0 0 1 0 0 cm';
    const doc = await contentPdf([{ content: `${image.toString('latin1')}${rest}` }]);
    const { doc: out } = await runFix('color.gray-to-k', doc);
    const ops = pageOps(out);
    expect(ops).toContain('0 0 0 0.5 k');
    expect(ops).toContain('1e-7 0 0 1 0 0 cm');
    expect(ops).toContain('[(A(b)) -120 (ABC)] TJ');
    const bytes = Buffer.from(decodeStream(out.getPage(0).node.lookup(PDFName.of('Contents'), PDFStream)).bytes!);
    expect(bytes.includes(image.subarray(image.indexOf('BI'), image.indexOf('EI Q') + 2))).toBe(true);
  });

  it('round-trips a stream it does not change: lex → write → lex gives the same operations', () => {
    const src = Buffer.from('/Span <</ActualText <FEFF0041> /Sub [1 2.5 /N]>> BDC [(\\050x\\051) 3 <00ff>] TJ EMC -.5 .25 m 12345678.125 0.000001 l 1e3 Tz /A#20B gs % comment\n(line\\\nbreak) Tj');
    const again = writeOperations(src, new Map())!;
    expect(opTexts([...operations(again)])).toEqual(opTexts([...operations(src)]));
  });

  it('is idempotent, and copes with malformed operators and missing resources', async () => {
    const doc = await contentPdf([{ content: '/X g sc 0.5 /Nope cs 0.2 sc /Missing Do 0.4 G 10 10 m 50 50 l S' }]);
    const first = await runFix('color.gray-to-k', doc);
    expect(first.outcome.count).toBe(2); // "0.2 sc" in the initial gray space, and "0.4 G"
    expect((await runFix('color.gray-to-k', first.after)).outcome).toMatchObject({ count: 0, pages: [] });
  });

  it('keeps the file sound: re-opens, passes qpdf, renders with the previews engine, text intact, gray still mid-gray', async () => {
    const doc = await contentPdf([{ content: '0.5 g 50 700 200 50 re f BT /F1 18 Tf 0 g 50 400 Td (Still here) Tj ET' }]);
    const { before, after } = await runFix('color.gray-to-k', doc);
    expect(await qpdfCheck(after, files.dir)).toBe(0);
    expect(await pageTexts(after)).toEqual(['Still here']);
    const [a] = await previewPixels(before, files.dir);
    const [b] = await previewPixels(after, files.dir);
    const grayBefore = pixelAt(a!, 100, 725);
    const grayAfter = pixelAt(b!, 100, 725);
    // 50 % K through the viewer's CMYK → RGB conversion: still a neutral mid gray, within a few levels per channel.
    for (let c = 0; c < 3; c++) expect(Math.abs(grayAfter[c]! - grayBefore[c]!)).toBeLessThan(40);
  });
});
