import { describe, expect, it } from 'vitest';
import { PDFName } from '@cantoo/pdf-lib';
import { pdfFunction } from '../../../../../lambdas/engine/autofix/content/pdf-function';
import { tempFiles } from '../../temp-files';
import { contentPdf, differingShare, form, formOps, pageOps, pageTexts, previewPixels, preflightChecks, qpdfCheck, runFix, separation, setResource } from './fixtures';

const files = tempFiles('spot-to-process');

describe('color.spot-to-process', () => {
  it('paints a CMYK-alternate spot in its process build, tint by tint, in the page and its forms', async () => {
    const doc = await contentPdf([{ content: '/Gold cs 0.5 scn 50 700 200 50 re f /Gold CS 1 SCN 50 600 m 300 600 l S /Gold cs 50 500 200 50 re f /Fm0 Do' }]);
    const gold = separation(doc, 'Gold', [0, 0.2, 0.8, 0.1]);
    setResource(doc, 0, 'ColorSpace', 'Gold', gold);
    setResource(doc, 0, 'XObject', 'Fm0', form(doc, '/Gold cs 0.25 sc 10 10 50 50 re f', { resources: { ColorSpace: { Gold: gold } } }));
    const { outcome, doc: out } = await runFix('color.spot-to-process', doc);
    expect(outcome).toMatchObject({ count: 7, pages: [1] });
    expect(pageOps(out)).toEqual([
      '0 0.2 0.8 0.1 k', '0 0.1 0.4 0.05 k', '50 700 200 50 re', 'f',
      '0 0.2 0.8 0.1 K', '0 0.2 0.8 0.1 K', '50 600 m', '300 600 l', 'S',
      '0 0.2 0.8 0.1 k', '50 500 200 50 re', 'f', '/Fm0 Do',
    ]);
    expect(formOps(out, 0, 'Fm0')).toEqual(['0 0.2 0.8 0.1 k', '0 0.05 0.2 0.025 k', '10 10 50 50 re', 'f']);
  });

  it('converts DeviceN through a PostScript calculator tint transform', async () => {
    const doc = await contentPdf([{ content: '/Duo cs 0.5 1 sc 50 700 200 50 re f' }]);
    const fn = doc.context.register(doc.context.stream('{ exch 0.5 mul exch 0 exch 0 }', { FunctionType: 4, Domain: [0, 1, 0, 1], Range: [0, 1, 0, 1, 0, 1, 0, 1] } as never));
    setResource(doc, 0, 'ColorSpace', 'Duo', [PDFName.of('DeviceN'), [PDFName.of('Orange'), PDFName.of('Teal')], PDFName.of('DeviceCMYK'), fn]);
    const { outcome, doc: out } = await runFix('color.spot-to-process', doc);
    expect(outcome.count).toBe(2);
    // The program maps [a b] to [a/2 0 b 0].
    expect(pageOps(out).slice(0, 2)).toEqual(['0.5 0 1 0 k', '0.25 0 1 0 k']);
  });

  it('leaves spots with a non-CMYK alternate, registration and None, and says why', async () => {
    const doc = await contentPdf([{ content: '/Rgb cs 1 sc /Reg cs 1 sc /Nil cs 1 sc 10 10 50 50 re f' }]);
    const rgbFn = doc.context.obj({ FunctionType: 2, Domain: [0, 1], C0: [1, 1, 1], C1: [1, 0, 0], N: 1 });
    setResource(doc, 0, 'ColorSpace', 'Rgb', [PDFName.of('Separation'), PDFName.of('Red'), PDFName.of('DeviceRGB'), rgbFn]);
    setResource(doc, 0, 'ColorSpace', 'Reg', separation(doc, 'All', [1, 1, 1, 1]));
    setResource(doc, 0, 'ColorSpace', 'Nil', separation(doc, 'None', [0, 0, 0, 0]));
    const { outcome, doc: out } = await runFix('color.spot-to-process', doc);
    expect(outcome.count).toBe(0);
    expect(outcome.skipReason).toBe(
      'No spot colour could be converted: left: Separation Red (alternate space is DeviceRGB, not DeviceCMYK), Separation All (registration colour), Separation None (paints nothing).',
    );
    expect(pageOps(out)).toEqual(['/Rgb cs', '1 sc', '/Reg cs', '1 sc', '/Nil cs', '1 sc', '10 10 50 50 re', 'f']);
  });

  it('evaluates exponential, stitching and sampled functions', async () => {
    const doc = await contentPdf([{ content: '' }]);
    const c = doc.context;
    const exp = pdfFunction(c, c.obj({ FunctionType: 2, Domain: [0, 1], C0: [0], C1: [1], N: 2 }))!;
    expect(exp([0.5])).toEqual([0.25]);
    const stitch = pdfFunction(c, c.obj({ FunctionType: 3, Domain: [0, 1], Bounds: [0.5], Encode: [0, 1, 0, 1], Functions: [{ FunctionType: 2, Domain: [0, 1], C0: [0], C1: [1], N: 1 }, { FunctionType: 2, Domain: [0, 1], C0: [1], C1: [0], N: 1 }] }))!;
    expect(stitch([0.25])).toEqual([0.5]);
    expect(stitch([0.75])).toEqual([0.5]);
    const samples = c.stream(new Uint8Array([0, 0, 255, 255]), { FunctionType: 0, Domain: [0, 1], Range: [0, 1, 0, 1], Size: [2], BitsPerSample: 8 } as never);
    expect(pdfFunction(c, samples)!([0.5])).toEqual([0.5, 0.5]);
    expect(pdfFunction(c, c.obj({ FunctionType: 4 }))).toBeNull();
    const bad = c.stream('{ 1 0 div foo }', { FunctionType: 4, Domain: [0, 1] } as never);
    expect(pdfFunction(c, bad)!([0.5])).toBeNull();
  });

  it('resolves colour.spot, is idempotent, renders as before and keeps the file sound', async () => {
    const doc = await contentPdf([{ content: '/Gold cs 0.7 scn 50 600 300 150 re f BT /F1 20 Tf 0 g 60 500 Td (Spot page) Tj ET' }]);
    setResource(doc, 0, 'ColorSpace', 'Gold', separation(doc, 'Gold', [0, 0.2, 0.8, 0.1]));
    const { before, after, outcome } = await runFix('color.spot-to-process', doc);
    expect(outcome.count).toBe(2);
    expect(await preflightChecks(before, files.dir)).toContain('colour.spot');
    expect(await preflightChecks(after, files.dir)).not.toContain('colour.spot');
    expect((await runFix('color.spot-to-process', after)).outcome).toMatchObject({ count: 0, pages: [] });
    expect(await qpdfCheck(after, files.dir)).toBe(0);
    expect(await pageTexts(after)).toEqual(['Spot page']);
    const [a] = await previewPixels(before, files.dir);
    const [b] = await previewPixels(after, files.dir);
    // Readers show a spot through its alternate already: the process build looks the same on screen.
    expect(differingShare(a!, b!, 8)).toBeLessThan(0.001);
  });
});
