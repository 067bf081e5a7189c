/**
 * Image rules (lambdas/engine/validate/graphics/image-rules.ts): the colour
 * specifications of JPEG 2000 data (PDF/A-2/3 6.2.8.3, PDF/A-4 6.2.7.3). Each
 * case builds a conforming file, paints the image under test on its page and
 * checks which graphics rules fail.
 */
import { describe, expect, it } from 'vitest';
import { a2b, a4, graphicsFailures, ids, type Build } from './paint-fixtures';

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
