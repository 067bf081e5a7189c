import { describe, expect, it } from 'vitest';
import { form, image, softMask, standardFont } from '../../../../support/content-fixtures';
import { interpretOne } from './support';

describe('transparency', () => {
  it('reports transparency groups with their colour space, isolation and knockout', async () => {
    const page = await interpretOne({
      group: { CS: '/DeviceCMYK' },
      content: '/Fm Do',
      resources: {
        xobjects: { Fm: form({ content: '0 0 10 10 re f', bbox: [0, 0, 50, 50], matrix: [1, 0, 0, 1, 100, 100], group: { CS: '/DeviceRGB', I: true, K: false } }) },
      },
    });
    const groups = page.transparency.filter((t) => t.kind === 'group');
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({ bbox: null, isolated: false, knockout: false });
    expect(groups[0]!.groupColourSpace?.label).toBe('DeviceCMYK');
    expect(groups[1]).toMatchObject({ bbox: [100, 100, 150, 150], isolated: true, knockout: false, count: 1 });
    expect(groups[1]!.groupColourSpace?.label).toBe('DeviceRGB');
  });

  it('records a group without /CS as having none', async () => {
    const page = await interpretOne({ content: '/Fm Do', resources: { xobjects: { Fm: form({ content: '', group: {} }) } } });
    expect(page.transparency[0]).toMatchObject({ kind: 'group', groupColourSpace: null });
  });

  it('counts objects painted with constant alpha and blend modes, with the paint state', async () => {
    const page = await interpretOne({
      content: '/A gs 0 0 10 10 re f 20 20 10 10 re f /M gs 0 0 m 5 5 l S',
      resources: { extGStates: { A: { ca: 0.5, CA: 0.8 }, M: { BM: ['/Foo', '/Multiply'] } } },
    });
    expect(page.transparency.map((t) => [t.kind, t.value, t.count])).toEqual([
      ['alpha', 0.5, 2],
      ['alpha', 0.8, 1],
      ['blend-mode', 'Multiply', 1],
    ]);
    expect(page.strokes[0]!.state).toEqual({ overprint: false, overprintMode: 0, alpha: 0.8, blendMode: 'Multiply', softMask: false });
  });

  it('runs a soft mask group once, listing its images as within the soft mask but recording no ink', async () => {
    const mask = softMask(
      form({
        content: '1 g 0 0 100 100 re f q 100 0 0 100 0 0 cm /Im Do Q',
        bbox: [0, 0, 100, 100],
        resources: { xobjects: { Im: image({ width: 50, height: 50, colourSpace: 'DeviceGray' }) } },
      }),
    );
    const page = await interpretOne({
      content: 'q /SM gs 0 0 1 rg 0 0 100 100 re f 0 0 50 50 re f Q 0 g 200 200 10 10 re f',
      resources: { extGStates: { SM: { SMask: mask } } },
    });
    expect(page.images).toHaveLength(1);
    expect(page.images[0]).toMatchObject({ within: 'softmask', widthPx: 50 });
    expect(page.colours.map((c) => c.space.label)).toEqual(['DeviceRGB', 'DeviceGray']);
    expect(page.transparency).toEqual([expect.objectContaining({ kind: 'soft-mask', count: 2, bbox: [0, 0, 100, 100] })]);
    // Outside q…Q the mask no longer applies.
    expect(page.paintedAreas.find((a) => a.paint.space.family === 'DeviceGray')!.state.softMask).toBe(false);
  });

  it('clears a soft mask with /SMask /None', async () => {
    const page = await interpretOne({
      content: '/SM gs /None gs 0 0 10 10 re f',
      resources: { extGStates: { SM: { SMask: softMask(form({ content: '' })) }, None: { SMask: '/None' } } },
    });
    expect(page.transparency).toEqual([]);
  });

  it('marks text drawn with alpha as transparent too', async () => {
    const page = await interpretOne({ content: 'BT /A gs /F1 10 Tf (x) Tj ET', resources: { fonts: { F1: standardFont('Helvetica') }, extGStates: { A: { ca: 0.3 } } } });
    expect(page.text[0]!.state.alpha).toBe(0.3);
    expect(page.transparency).toEqual([expect.objectContaining({ kind: 'alpha', value: 0.3, count: 1 })]);
  });
});
