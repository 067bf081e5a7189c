/**
 * XObject rules (lambdas/engine/validate/graphics/xobject-rules.ts): OPI on form
 * XObjects (PDF/A-4 6.2.8.1), on a conforming file whose page paints the form.
 */
import { describe, expect, it } from 'vitest';
import { a4, graphicsFailures, ids, type Build } from './paint-fixtures';

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
