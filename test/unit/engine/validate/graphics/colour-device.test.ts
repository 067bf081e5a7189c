/**
 * Device colour rules (lambdas/engine/validate/graphics/colour-device.ts): the
 * alternate space of Separation and DeviceN colour spaces (6.2.4.4).
 */
import { describe, expect, it } from 'vitest';
import { PDFName } from '@cantoo/pdf-lib';
import { pdfaSpec } from '../../../../support/pdf-fixtures';
import { colourFailures, ids, separation, spotPage, square, tint, type Page } from './colour-fixtures';

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
