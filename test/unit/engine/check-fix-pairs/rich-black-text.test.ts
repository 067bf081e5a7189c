/**
 * text.rich-black and color.richblack-small-text-to-k judge by one definition
 * (criteria/rich-black-text.ts): whatever space a rich black is reached
 * through, the fix resolves what the check finds, and where it cannot, the
 * finding does not offer it.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { FIX_IMPLEMENTATIONS } from '../../../../lambdas/engine/autofix/registry';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { resolveSettings, type PreflightSettings } from '../../../../lambdas/engine/preflight/settings';
import { findFix, fixParams } from '../../../../lambdas/engine/profile-catalogue';
import { tempFiles } from '../temp-files';
import { contentPdf, form, helvetica, setResource } from '../autofix/content/fixtures';
import { addAnnotation, appearance, PRINT } from '../autofix/interactive/fixtures';
import { expectNotOffered, expectResolved, runPair, type PairCase } from './pair-run';

const files = tempFiles('rich-black-pairs');
const FIX = 'color.richblack-small-text-to-k';
const RICH = '0.6 0.5 0.4 1';

const saved = (doc: PDFDocument) => doc.save({ useObjectStreams: false });
const pair = (name: string, build: () => Promise<Uint8Array>): PairCase => ({ fixId: FIX, checkId: 'text.rich-black', name, build });
const smallText = (colour: string) => `BT /F1 9 Tf ${colour} 50 700 Td (Small rich) Tj ET`;

/** An ICC-based CMYK space: a profile stream with N 4 (its header unreadable, so the component count says CMYK). */
const iccCmyk = (doc: PDFDocument) => doc.context.register(doc.context.obj(['ICCBased', doc.context.register(doc.context.stream(new Uint8Array(128), { N: 4 }))] as never));

describe('small rich-black text: the check and the fix agree', () => {
  const resolved: PairCase[] = [
    pair('9 pt text in an ICC-based CMYK space set by scn', async () => {
      const doc = await contentPdf([{ content: smallText(`/CS0 cs ${RICH} scn`) }]);
      setResource(doc, 0, 'ColorSpace', 'CS0', iccCmyk(doc));
      return saved(doc);
    }),
    pair('9 pt text set with k on a page whose DefaultCMYK is ICC-based', async () => {
      const doc = await contentPdf([{ content: smallText(`${RICH} k`) }]);
      setResource(doc, 0, 'ColorSpace', 'DefaultCMYK', iccCmyk(doc));
      return saved(doc);
    }),
    pair('9 pt text in a DeviceN of the four process colorants', async () => {
      const doc = await contentPdf([{ content: smallText(`/CS0 cs ${RICH} scn`) }]);
      const ctx = doc.context;
      const identity = ctx.register(ctx.stream('{}', { FunctionType: 4, Domain: [0, 1, 0, 1, 0, 1, 0, 1], Range: [0, 1, 0, 1, 0, 1, 0, 1] }));
      setResource(doc, 0, 'ColorSpace', 'CS0', ctx.register(ctx.obj(['DeviceN', ['Cyan', 'Magenta', 'Yellow', 'Black'], 'DeviceCMYK', identity] as never)));
      return saved(doc);
    }),
    pair('9 pt text in an Indexed space over DeviceCMYK', async () => {
      const doc = await contentPdf([{ content: smallText('/CS0 cs 1 scn') }]);
      setResource(doc, 0, 'ColorSpace', 'CS0', doc.context.obj(['Indexed', 'DeviceCMYK', 1, doc.context.obj(new Uint8Array([0, 0, 0, 0, 153, 128, 102, 255]) as never)] as never));
      return saved(doc);
    }),
    pair('9 pt outlined text (rendering mode 1) with a rich-black stroke', async () => saved(await contentPdf([{ content: `BT /F1 9 Tf 1 Tr ${RICH} K 50 700 Td (Outline) Tj ET` }]))),
    pair('9 pt text in a form XObject whose colour the page selected in an ICC-based space', async () => {
      const doc = await contentPdf([{ content: `/CS0 cs ${RICH} scn q 1 0 0 1 0 0 cm /Fm1 Do Q` }]);
      setResource(doc, 0, 'ColorSpace', 'CS0', iccCmyk(doc));
      setResource(doc, 0, 'XObject', 'Fm1', form(doc, 'BT /F2 9 Tf 50 700 Td (In a form) Tj ET', { resources: { Font: { F2: helvetica(doc) } } }));
      return saved(doc);
    }),
  ];
  for (const c of resolved) {
    it(`resolves ${c.name}`, async () => {
      expectResolved(c, await runPair(c, files.dir));
    }, 60_000);
  }

  it('judges size to 0.1 pt on both sides: 11.96 pt text is 12 pt, neither found nor changed', async () => {
    const c = pair('11.96 pt rich-black text', async () => saved(await contentPdf([{ content: `BT /F1 11.96 Tf ${RICH} k 50 700 Td (Almost 12) Tj ET` }])));
    const run = await runPair(c, files.dir);
    expect(run.before.map((f) => f.checkId)).not.toContain('text.rich-black');
    expect(run.fixed.applied).toEqual([]);
  });

  it("changes text below the profile's min_size_pt when run with preflight settings, not below its own maxTextPt", async () => {
    const doc = await contentPdf([{ content: smallText(`${RICH} k`) }]);
    const base = resolveSettings('default', null);
    const settings: PreflightSettings = { ...base, thresholds: (id) => (id === 'text.rich-black' ? { min_size_pt: 8 } : base.thresholds(id)) };
    const run = async (s?: PreflightSettings) => {
      const { doc: opened } = await openPdfBytes(await saved(doc));
      return FIX_IMPLEMENTATIONS[FIX]!(opened, { order: null, params: fixParams(findFix(FIX)!, {}), ...(s ? { settings: s } : {}) });
    };
    expect((await run(settings)).count).toBe(0);
    expect((await run()).count).toBe(1);
  });

  it('does not offer the fix for rich-black text in an annotation appearance, which content fixes do not edit', async () => {
    const doc = await contentPdf([{ content: '' }]);
    const ap = appearance(doc, `BT /F1 9 Tf ${RICH} k 2 4 Td (Note) Tj ET`, { resources: { Font: { F1: helvetica(doc) } } });
    addAnnotation(doc, doc.getPage(0), { Subtype: 'FreeText', Rect: [100, 100, 200, 150], F: PRINT, AP: { N: ap } });
    const run = await runPair(pair('rich-black text in an annotation appearance', async () => saved(doc)), files.dir);
    expectNotOffered(run.before, 'text.rich-black', FIX);
  });

  it('does not offer the fix for small text in the registration colour (Separation All)', async () => {
    const doc = await contentPdf([{ content: smallText('/CS0 cs 1 scn') }]);
    const fn = doc.context.obj({ FunctionType: 2, Domain: [0, 1], C0: [0, 0, 0, 0], C1: [1, 1, 1, 1], N: 1 });
    setResource(doc, 0, 'ColorSpace', 'CS0', doc.context.obj(['Separation', 'All', 'DeviceCMYK', fn] as never));
    const run = await runPair(pair('registration-colour text', async () => saved(doc)), files.dir);
    expectNotOffered(run.before, 'text.rich-black', FIX);
  });
});
