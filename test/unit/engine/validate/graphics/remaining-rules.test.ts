/**
 * Graphics rules not covered elsewhere: the colour specifications of JPEG 2000
 * data (PDF/A-2/3 6.2.8.3, PDF/A-4 6.2.7.3) and OPI on form XObjects
 * (PDF/A-4 6.2.8.1). Each case builds a conforming file, paints the objects
 * under test on its page and checks which graphics rules fail.
 */
import { describe, expect, it } from 'vitest';
import { PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { GRAPHICS_RULES } from '../../../../../lambdas/engine/validate/graphics/rules';
import { buildPdf, mutatePdf, pdfaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('graphics-remaining');
const GRAPHICS_IDS = new Set(GRAPHICS_RULES.map((r) => r.id));

type Build = (doc: PDFDocument) => { content: string; resources: Record<string, unknown> };

/** A file of `spec` whose first page paints `content` with `resources`; the graphics rules that fail. */
async function graphicsFailures(spec: PdfSpec, profile: ValidateProfileCode, build: Build) {
  const bytes = await mutatePdf(await buildPdf(spec), (doc) => {
    const page = doc.getPage(0).node;
    const { content, resources } = build(doc);
    page.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
    page.set(PDFName.of('Resources'), doc.context.obj(resources as never));
  });
  const result = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return result.profiles[0]!.failures.filter((f) => GRAPHICS_IDS.has(f.ruleId));
}
const ids = (fs: { ruleId: string }[]) => fs.map((f) => f.ruleId).sort();

// JP2 boxes (ISO/IEC 15444-1 Annex I): length, type, body.
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const box = (type: string, body: number[]) => [...u32(body.length + 8), ...[...type].map((c) => c.charCodeAt(0)), ...body];
const ihdr = (channels: number) => box('ihdr', [...u32(1), ...u32(1), 0, channels, 7, 7, 0, 0]);
/** A colour specification box: method, precedence, approximation, then the enumerated colour space (16 = sRGB). */
const colr = (method: number, approx: number, enumCS = 16) => box('colr', [method, 0, approx, ...u32(enumCS)]);
const jp2 = (...inner: number[][]) => new Uint8Array([...box('jP  ', [13, 10, 135, 10]), ...box('jp2h', [...ihdr(3), ...inner.flat()]), ...box('jp2c', [0xff, 0x4f])]);

/** A page painting one JPEG 2000 image XObject with the given data; ColorSpace only when asked. */
const jpxPage = (data: Uint8Array, colourSpace?: string): Build => (doc) => ({
  content: 'q 10 0 0 10 0 0 cm /Im0 Do Q',
  resources: {
    XObject: {
      Im0: doc.context.register(doc.context.stream(data, { Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, Filter: 'JPXDecode', ...(colourSpace ? { ColorSpace: colourSpace } : {}) } as never)),
    },
  },
});

const a2b = pdfaSpec(2, 'B');
const a4 = pdfaSpec(4);

describe('JPEG 2000 colour specifications (PDF/A-2 6.2.8.3, PDF/A-4 6.2.7.3)', () => {
  it('one colour specification, or several with exactly one marked exact (APPROX 1), passes', async () => {
    expect(await graphicsFailures(a2b, '2b', jpxPage(jp2(colr(1, 0))))).toEqual([]);
    expect(await graphicsFailures(a2b, '2b', jpxPage(jp2(colr(1, 1), colr(1, 0, 17))))).toEqual([]);
  });

  it('several colour specifications with none or more than one marked exact fail', async () => {
    const none = await graphicsFailures(a2b, '2b', jpxPage(jp2(colr(1, 0), colr(1, 0, 17))));
    expect(ids(none)).toEqual(['pdfa.jpeg2000.colour-specs']);
    expect(none[0]).toMatchObject({ clause: '6.2.8.3', examples: [{ page: 1, context: 'JPEG 2000 image has 2 colour specifications, 0 marked exact' }] });
    const two = await graphicsFailures(a4, '4', jpxPage(jp2(colr(1, 1), colr(1, 1, 17))));
    expect(two.map((f) => [f.ruleId, f.clause])).toEqual([['pdfa.jpeg2000.colour-specs', '6.2.7.3']]);
  });

  it('the colour specifications are not judged when the image dictionary gives ColorSpace', async () => {
    expect(await graphicsFailures(a2b, '2b', jpxPage(jp2(colr(1, 0), colr(1, 0, 17)), 'DeviceRGB'))).toEqual([]);
    expect(await graphicsFailures(a2b, '2b', jpxPage(jp2(colr(4, 0)), 'DeviceRGB'))).toEqual([]);
  });

  it('the colour specification shall use method 1, 2 or 3', async () => {
    const f = await graphicsFailures(a2b, '2b', jpxPage(jp2(colr(4, 0))));
    expect(ids(f)).toEqual(['pdfa.jpeg2000.colour-method']);
    expect(f[0]).toMatchObject({ clause: '6.2.8.3', examples: [{ page: 1, context: 'JPEG 2000 image uses colour specification method 4' }] });
    expect((await graphicsFailures(a4, '4', jpxPage(jp2(colr(4, 0))))).map((x) => [x.ruleId, x.clause])).toEqual([['pdfa.jpeg2000.colour-method', '6.2.7.3']]);
  });

  it('among several specifications, the one marked exact is the one judged', async () => {
    expect(await graphicsFailures(a2b, '2b', jpxPage(jp2(colr(4, 0), colr(2, 1))))).toEqual([]);
    expect(ids(await graphicsFailures(a2b, '2b', jpxPage(jp2(colr(1, 0), colr(4, 1)))))).toEqual(['pdfa.jpeg2000.colour-method']);
  });
});

describe('form XObjects (PDF/A-4 6.2.8.1)', () => {
  const formPage = (extra: Record<string, unknown>): Build => (doc) => ({
    content: '/Fm0 Do',
    resources: { XObject: { Fm0: doc.context.register(doc.context.stream('0 0 10 10 re f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10], ...extra } as never)) } },
  });

  it('a painted form XObject with OPI fails; without it passes', async () => {
    const f = await graphicsFailures(a4, '4', (doc) => formPage({ OPI: doc.context.obj({ '2.0': doc.context.obj({ Type: 'OPI', Version: 2 } as never) } as never) })(doc));
    expect(ids(f)).toEqual(['pdfa.form.opi']);
    expect(f[0]).toMatchObject({ clause: '6.2.8.1', examples: [{ page: 1, context: expect.stringContaining('has OPI') }] });
    expect(f[0]!.examples[0]!.objectNumber).toEqual(expect.any(Number));
    expect(await graphicsFailures(a4, '4', formPage({}))).toEqual([]);
  });
});
