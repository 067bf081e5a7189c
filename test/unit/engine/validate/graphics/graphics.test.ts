/**
 * Graphics rules other than colour: graphics state parameters, rendering
 * intents, images and JPEG 2000 data, XObjects and transparency. Each case
 * builds a conforming file, gives its page the content and resources under
 * test, and checks which graphics rules fail.
 */
import { describe, expect, it } from 'vitest';
import { PDFName, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { GRAPHICS_RULES } from '../../../../../lambdas/engine/validate/graphics/rules';
import { readJpeg2000Header } from '../../../../../lambdas/engine/validate/graphics/jpeg2000';
import { buildPdf, mutatePdf, pdfaSpec, pdfuaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('validate-graphics');
const GRAPHICS_IDS = new Set(GRAPHICS_RULES.map((r) => r.id));

type Build = (doc: PDFDocument) => { content: string; resources?: Record<string, unknown>; page?: Record<string, unknown> };

/** A file of `spec` whose first page paints `content` with `resources`; the graphics rules that fail, with their clauses. */
async function graphicsFailures(spec: PdfSpec, profile: ValidateProfileCode, build: Build) {
  const bytes = await mutatePdf(await buildPdf(spec), (doc) => {
    const page = doc.getPage(0).node;
    const { content, resources = {}, page: pageEntries = {} } = build(doc);
    page.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
    page.set(PDFName.of('Resources'), doc.context.obj(resources as never));
    for (const [k, v] of Object.entries(pageEntries)) page.set(PDFName.of(k), v as PDFObject);
  });
  const result = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return result.profiles[0]!.failures.filter((f) => GRAPHICS_IDS.has(f.ruleId)).map((f) => ({ rule: f.ruleId, clause: f.clause, example: f.examples[0] }));
}
const ids = (fs: { rule: string }[]) => fs.map((f) => f.rule).sort();

const a2b = pdfaSpec(2, 'B');
const a1b = pdfaSpec(1, 'B');
const a4 = pdfaSpec(4);
const square = '0 0 10 10 re f';
const gsWith = (doc: PDFDocument, entries: Record<string, unknown>) => ({ ExtGState: { GS0: doc.context.register(doc.context.obj(entries as never)) } });
const form = (doc: PDFDocument, dict: Record<string, unknown>, content = square) =>
  doc.context.register(doc.context.stream(content, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10], ...dict } as never));
const image = (doc: PDFDocument, dict: Record<string, unknown>, data: Uint8Array = new Uint8Array(3)) =>
  doc.context.register(doc.context.stream(data, { Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, ColorSpace: 'DeviceRGB', BitsPerComponent: 8, ...dict } as never));

describe('graphics state parameters (PDF/A-2 6.2.5, PDF/A-1 6.2.8, PDF/A-4 6.2.5)', () => {
  it('a conforming page fails no graphics rule', async () => {
    expect(await graphicsFailures(a2b, '2b', (doc) => ({ content: `/GS0 gs ${square}`, resources: gsWith(doc, { LW: 2, TR2: 'Default' }) }))).toEqual([]);
  });

  it('a transfer function (TR), a TR2 other than Default and a halftone phase fail', async () => {
    const f = await graphicsFailures(a2b, '2b', (doc) => ({ content: `/GS0 gs ${square}`, resources: gsWith(doc, { TR: 'Identity', TR2: 'Identity', HTP: [0, 0] }) }));
    expect(ids(f)).toEqual(['pdfa.extgstate.halftone-phase', 'pdfa.extgstate.transfer', 'pdfa.extgstate.transfer2']);
    expect(f.every((x) => x.clause === '6.2.5')).toBe(true);
    expect(f[0]!.example).toMatchObject({ page: 1 });
  });

  it('PDF/A-1 reports transfer functions under 6.2.8 and PDF/A-4 forbids HTO', async () => {
    expect(await graphicsFailures(a1b, '1b', (doc) => ({ content: `/GS0 gs ${square}`, resources: gsWith(doc, { TR: 'Identity' }) }))).toEqual([
      expect.objectContaining({ rule: 'pdfa.extgstate.transfer', clause: '6.2.8' }),
    ]);
    expect(ids(await graphicsFailures(a4, '4', (doc) => ({ content: `/GS0 gs ${square}`, resources: gsWith(doc, { HTO: [0, 0] }) })))).toEqual(['pdfa.extgstate.halftone-origin']);
  });

  it('a graphics state in resources that no content applies is not judged (as veraPDF)', async () => {
    expect(await graphicsFailures(a2b, '2b', (doc) => ({ content: square, resources: gsWith(doc, { TR: 'Identity' }) }))).toEqual([]);
  });

  it('halftones: type 1 or 5, no HalftoneName, TransferFunction only for non-process colorants', async () => {
    const ok = await graphicsFailures(a2b, '2b', (doc) => ({
      content: `/GS0 gs ${square}`,
      resources: gsWith(doc, { HT: { HalftoneType: 5, Default: { HalftoneType: 1, Frequency: 60, Angle: 45, SpotFunction: 'Round' }, Cyan: { HalftoneType: 1, Frequency: 60, Angle: 15, SpotFunction: 'Round' } } }),
    }));
    expect(ok).toEqual([]);
    const bad = await graphicsFailures(a2b, '2b', (doc) => ({
      content: `/GS0 gs ${square}`,
      resources: gsWith(doc, { HT: { HalftoneType: 5, HalftoneName: doc.context.obj('x' as never), Default: { HalftoneType: 6 }, Spot: { HalftoneType: 1 } } }),
    }));
    expect(ids(bad)).toEqual(['pdfa.halftone.name', 'pdfa.halftone.transfer', 'pdfa.halftone.type']);
  });
});

describe('rendering intents', () => {
  it('only the four standard intents: graphics state RI, image Intent and the ri operator, each under its clause', async () => {
    const f = await graphicsFailures(a2b, '2b', (doc) => ({
      content: `/GS0 gs /Custom ri /Perceptual ri ${square} q /Im0 Do Q`,
      resources: { ...gsWith(doc, { RI: 'Custom' }), XObject: { Im0: image(doc, { Intent: 'Custom' }) } },
    }));
    expect(f.map((x) => [x.rule, x.clause]).sort()).toEqual([
      ['pdfa.extgstate.rendering-intent', '6.2.5'],
      ['pdfa.image.rendering-intent', '6.2.8.1'],
      ['pdfa.rendering-intent', '6.2.6'],
    ]);
    expect(await graphicsFailures(a2b, '2b', () => ({ content: `/Saturation ri ${square}` }))).toEqual([]);
  });
});

describe('images (PDF/A-2 6.2.8.1, PDF/A-1 6.2.4)', () => {
  it('Alternates, OPI, Interpolate true and a 16-bit image in PDF/A-1 fail; a mask with BitsPerComponent 2 fails', async () => {
    const f = await graphicsFailures(a1b, '1b', (doc) => ({
      content: 'q /Im0 Do Q q /Im1 Do Q',
      resources: {
        XObject: {
          Im0: image(doc, { Alternates: [], OPI: {}, Interpolate: true, BitsPerComponent: 16 }),
          Im1: image(doc, { ImageMask: true, BitsPerComponent: 2, ColorSpace: undefined }),
        },
      },
    }));
    expect(ids(f)).toEqual(['pdfa.image.alternates', 'pdfa.image.bits-per-component', 'pdfa.image.interpolate', 'pdfa.image.mask-bits', 'pdfa.image.opi']);
    expect(f.every((x) => x.clause === '6.2.4')).toBe(true);
  });

  it('16 bits per component are allowed from PDF/A-2 on; an inline image with I true fails', async () => {
    expect(await graphicsFailures(a2b, '2b', (doc) => ({ content: 'q /Im0 Do Q', resources: { XObject: { Im0: image(doc, { BitsPerComponent: 16 }, new Uint8Array(6)) } } }))).toEqual([]);
    const f = await graphicsFailures(a2b, '2b', () => ({ content: 'q BI /W 1 /H 1 /CS /G /BPC 8 /I true ID \x80 EI Q' }));
    expect(f).toEqual([expect.objectContaining({ rule: 'pdfa.image.interpolate', clause: '6.2.8.1', example: expect.objectContaining({ page: 1, context: expect.stringContaining('inline image') }) })]);
  });
});

describe('JPEG 2000 (PDF/A-2 6.2.8.3)', () => {
  const box = (type: string, body: number[]) => [...u32(body.length + 8), ...[...type].map((c) => c.charCodeAt(0)), ...body];
  const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  const ihdr = (channels: number, bpc: number) => box('ihdr', [...u32(1), ...u32(1), 0, channels, bpc, 7, 0, 0]);
  const colr = (method: number, approx: number, enumCS: number) => box('colr', [method, 0, approx, ...u32(enumCS)]);
  const jp2 = (...inner: number[][]) => new Uint8Array([...box('jP  ', [13, 10, 135, 10]), ...box('jp2h', inner.flat()), ...box('jp2c', [0xff, 0x4f])]);

  it('reads channels, bit depth and colour specifications from the header boxes', () => {
    expect(readJpeg2000Header(jp2(ihdr(3, 7), colr(1, 0, 16)))).toEqual({ channels: 3, bitDepth: 8, bpccBox: false, colourSpecs: [{ method: 1, approx: 0, enumCS: 16 }] });
  });

  it('two colour channels, a CIEJab colour space and bit depths that differ fail', async () => {
    const f = await graphicsFailures(a2b, '2b', (doc) => ({
      content: 'q /Im0 Do Q q /Im1 Do Q',
      resources: {
        XObject: {
          Im0: image(doc, { Filter: 'JPXDecode', ColorSpace: undefined, BitsPerComponent: undefined }, jp2(ihdr(2, 7), colr(1, 0, 19))),
          Im1: image(doc, { Filter: 'JPXDecode', BitsPerComponent: undefined }, jp2(ihdr(3, 0xff), box('bpcc', [7, 7, 15]), colr(1, 0, 16))),
        },
      },
    }));
    expect(ids(f)).toEqual(['pdfa.jpeg2000.bit-depth', 'pdfa.jpeg2000.channels', 'pdfa.jpeg2000.cie-jab']);
    expect(f.every((x) => x.clause === '6.2.8.3')).toBe(true);
  });
});

describe('XObjects', () => {
  it('a painted form with PS, a reference XObject and a PostScript XObject fail under their sub-clauses', async () => {
    const f = await graphicsFailures(a2b, '2b', (doc) => ({
      content: '/Fm0 Do /Fm1 Do /PS0 Do',
      resources: {
        XObject: {
          Fm0: form(doc, { PS: doc.context.register(doc.context.stream('')) }),
          Fm1: form(doc, { Ref: { F: doc.context.obj('other.pdf' as never), Page: 0 } }),
          PS0: doc.context.register(doc.context.stream('', { Type: 'XObject', Subtype: 'PS' } as never)),
        },
      },
    }));
    expect(f.map((x) => [x.rule, x.clause]).sort()).toEqual([
      ['graphics.reference-xobject', '6.2.9.2'],
      ['pdfa.form.postscript', '6.2.9.1'],
      ['pdfa.postscript-xobject', '6.2.9.3'],
    ]);
  });

  it('a form left unused in resources is not judged', async () => {
    expect(await graphicsFailures(a1b, '1b', (doc) => ({ content: square, resources: { XObject: { Fm0: form(doc, { Subtype2: 'PS' }) } } }))).toEqual([]);
  });

  it('PDF/UA-1: a tagged form (StructParents) painted twice fails 7.20; painted once it passes', async () => {
    const twice = await graphicsFailures(pdfuaSpec(1), 'ua1', (doc) => ({ content: '/Fm0 Do /Fm0 Do', resources: { XObject: { Fm0: form(doc, { StructParents: 0 }) } } }));
    expect(twice).toEqual([expect.objectContaining({ rule: 'pdfua.form.unique-structure-parent', clause: '7.20' })]);
    expect(await graphicsFailures(pdfuaSpec(1), 'ua1', (doc) => ({ content: '/Fm0 Do', resources: { XObject: { Fm0: form(doc, { StructParents: 0 }) } } }))).toEqual([]);
  });
});

describe('transparency', () => {
  it('PDF/A-1 6.4: alpha below 1, a soft mask, a non-Normal blend mode and a transparency group fail; alpha 1.0000001 is opaque', async () => {
    const f = await graphicsFailures(a1b, '1b', (doc) => ({
      content: `/GS0 gs ${square} /Fm0 Do`,
      resources: { ...gsWith(doc, { ca: 0.5, BM: 'Multiply', SMask: { S: 'Luminosity', G: form(doc, {}) } }), XObject: { Fm0: form(doc, { Group: { S: 'Transparency' } }) } },
    }));
    expect(ids(f)).toEqual(['pdfa.transparency.alpha', 'pdfa.transparency.blend-mode', 'pdfa.transparency.group', 'pdfa.transparency.soft-mask']);
    expect(f.every((x) => x.clause === '6.4')).toBe(true);
    expect(await graphicsFailures(a1b, '1b', (doc) => ({ content: `/GS0 gs ${square}`, resources: gsWith(doc, { CA: 1.0000001, ca: 1, SMask: 'None' }) }))).toEqual([]);
  });

  it('PDF/A-2 6.2.10: a blend mode ISO 32000 does not define fails', async () => {
    expect(await graphicsFailures(a2b, '2b', (doc) => ({ content: `/GS0 gs ${square}`, resources: gsWith(doc, { BM: 'Custom' }) }))).toEqual([
      expect.objectContaining({ rule: 'pdfa.transparency.standard-blend-mode', clause: '6.2.10' }),
    ]);
  });

  it('without a PDF/A output intent, a page painting with transparency needs a Group with CS', async () => {
    const noIntent = pdfaSpec(2, 'B', { outputIntent: undefined });
    delete (noIntent as { outputIntent?: unknown }).outputIntent;
    const bare = await graphicsFailures(noIntent, '2b', (doc) => ({ content: `/GS0 gs ${square}`, resources: gsWith(doc, { ca: 0.5 }) }));
    expect(bare).toEqual([expect.objectContaining({ rule: 'pdfa.transparency.page-blending-space', clause: '6.2.10', example: expect.objectContaining({ page: 1 }) })]);
    const withCs = await graphicsFailures(noIntent, '2b', (doc) => ({
      content: `/GS0 gs ${square}`,
      resources: gsWith(doc, { ca: 0.5 }),
      page: { Group: doc.context.obj({ S: 'Transparency', CS: ['CalRGB', { WhitePoint: [0.9505, 1, 1.089] }] } as never) },
    }));
    expect(withCs).toEqual([]);
    // Opaque painting needs no blending space.
    expect(await graphicsFailures(noIntent, '2b', () => ({ content: square }))).toEqual([]);
  });

  it('a device blending space shall match the output intent: DeviceCMYK on an RGB intent fails, DeviceRGB passes', async () => {
    const group = (cs: string) => (doc: PDFDocument) => ({ content: square, page: { Group: doc.context.obj({ S: 'Transparency', CS: cs } as never) } });
    expect(await graphicsFailures(a2b, '2b', group('DeviceCMYK'))).toEqual([expect.objectContaining({ rule: 'pdfa.transparency.device-blending-space', clause: '6.2.10' })]);
    expect(await graphicsFailures(a2b, '2b', group('DeviceRGB'))).toEqual([]);
  });
});
