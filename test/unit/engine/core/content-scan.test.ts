import { describe, expect, it } from 'vitest';
import { PDFName, PDFStream } from '@cantoo/pdf-lib';
import { scanContent } from '../../../../lambdas/engine/core/content-scan';
import { describeFont, fontsByPage } from '../../../../lambdas/engine/core/fonts';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { buildPdf, mutatePdf } from '../../../support/pdf-fixtures';
import { contentPdf, form, iccBased, image, separation } from '../../../support/content-fixtures';

describe('content scan', () => {
  it('records the fonts text is shown with, per page, and whether the text is visible', async () => {
    const { doc } = await openPdfBytes(await buildPdf({ pages: [{ font: 'standard' }, { font: 'embedded', invisibleText: true }, { text: null }] }));
    const usage = scanContent(doc);
    const fonts = [...usage.fonts].map(([d, u]) => ({ name: describeFont(doc.context, d).name, pages: [...u.pages], visible: u.visible }));
    expect(fonts).toEqual([
      { name: 'Helvetica', pages: [1], visible: true },
      { name: 'LiberationSans', pages: [2], visible: false },
    ]);
  });

  it('records device colour use by operator, per page', async () => {
    const { doc } = await openPdfBytes(await buildPdf({ pages: [{ colourSpace: 'rgb' }, { colourSpace: 'cmyk' }, { colourSpace: 'gray', text: null }] }));
    const usage = scanContent(doc);
    expect([...usage.deviceColours.get('DeviceRGB')!.pages]).toEqual([1]);
    expect([...usage.deviceColours.get('DeviceCMYK')!.pages]).toEqual([2]);
    expect([...usage.deviceColours.get('DeviceGray')!.pages]).toEqual([3]);
  });

  it('places images with the current transformation matrix', async () => {
    const { doc } = await openPdfBytes(await buildPdf({ pages: [{ image: { widthPx: 300, heightPx: 150, placedWidthPt: 144, placedHeightPt: 72 } }] }));
    const [img] = scanContent(doc).images;
    expect(img).toMatchObject({ page: 1, widthPx: 300, heightPx: 150, matrix: [144, 0, 0, 72, 72, 72], deviceSpaces: ['DeviceRGB'] });
  });

  it('follows form XObjects, composing their matrix, and survives a form that paints itself', async () => {
    const bytes = await mutatePdf(await buildPdf({ pages: [{ text: null, image: { widthPx: 10, heightPx: 10, placedWidthPt: 10, placedHeightPt: 10 } }] }), (doc) => {
      const ctx = doc.context;
      const page = doc.getPage(0).node;
      const resources = page.lookup(PDFName.of('Resources')) as typeof page;
      const xobjects = resources.lookup(PDFName.of('XObject')) as typeof page;
      const formRef = ctx.nextRef();
      const form = ctx.stream('q 2 0 0 2 0 0 cm /Im1 Do Q /Self Do', {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 100, 100],
        Matrix: [1, 0, 0, 1, 50, 0],
        Resources: { XObject: { Im1: xobjects.get(PDFName.of('Im1'))!, Self: formRef } },
      });
      ctx.assign(formRef, form);
      xobjects.set(PDFName.of('Fm1'), formRef);
      page.set(PDFName.of('Contents'), ctx.register(ctx.stream('/Fm1 Do')));
    });
    const { doc } = await openPdfBytes(bytes);
    const images = scanContent(doc).images;
    expect(images).toHaveLength(1);
    expect(images[0]!.matrix).toEqual([2, 0, 0, 2, 50, 0]);
  });

  it('counts every font of a page whose content cannot be decoded as used', async () => {
    const bytes = await mutatePdf(await buildPdf({ pages: 1 }), (doc) => {
      const contents = doc.getPage(0).node.lookup(PDFName.of('Contents')) as PDFStream;
      contents.dict.set(PDFName.of('Filter'), PDFName.of('JBIG2Decode'));
    });
    const { doc } = await openPdfBytes(bytes);
    const usage = scanContent(doc);
    expect([...usage.undecodablePages]).toEqual([1]);
    expect([...usage.fonts.values()][0]).toMatchObject({ visible: true });
  });

  it('finds fonts reachable through resources, per page', async () => {
    const { doc } = await openPdfBytes(await buildPdf({ pages: [{ font: 'standard' }, { font: 'standard' }, { text: null }] }));
    const reach = [...fontsByPage(doc).values()].map((pages) => [...pages]);
    expect(reach).toEqual([[1, 2]]);
  });

  it('counts device colour where something is painted with it, through alternates, and tells Default-replaced use apart', async () => {
    const { doc } = await openPdfBytes(
      await contentPdf({
        pages: [
          { content: '1 0 0 rg', resources: {} },
          { content: '/Spot cs 1 scn 0 0 10 10 re f', resources: { colourSpaces: { Spot: separation('Gold', 'DeviceCMYK') } } },
          { content: '0 0 1 rg 0 0 10 10 re f', resources: { colourSpaces: { DefaultRGB: iccBased(3) } } },
        ],
      }),
    );
    const usage = scanContent(doc);
    expect(usage.deviceColours.get('DeviceRGB')).toEqual({ pages: new Set([3]), undefaultedPages: new Set() });
    expect([...usage.deviceColours.get('DeviceCMYK')!.undefaultedPages]).toEqual([2]);
  });

  it('follows annotation appearances and lists their images', async () => {
    const stamp = form({ content: 'q 50 0 0 25 0 0 cm /Im Do Q', bbox: [0, 0, 50, 25], resources: { xobjects: { Im: image({ width: 10, height: 5, colourSpace: 'DeviceGray' }) } } });
    const { doc } = await openPdfBytes(await contentPdf({ pages: [{ content: '', annotations: [{ rect: [0, 0, 50, 25], appearance: stamp }] }] }));
    const usage = scanContent(doc);
    expect(usage.images).toEqual([expect.objectContaining({ page: 1, widthPx: 10, deviceSpaces: ['DeviceGray'], matrix: [50, 0, 0, 25, 0, 0] })]);
    expect([...usage.deviceColours.keys()]).toEqual(['DeviceGray']);
  });
});
