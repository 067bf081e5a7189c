/**
 * Element rules (lambdas/engine/validate/structure/element-rules.ts): no
 * unnumbered H headings (PDF/UA-2 8.2.5.12), ListNumbering on labelled lists
 * (8.2.5.25) and one link target per Link element (8.2.5.20).
 */
import { describe, expect, it } from 'vitest';
import { PDFName } from '@cantoo/pdf-lib';
import { el, failureOf, tagged, text } from './tagged-tree';

describe('PDF/UA-2 headings and lists', () => {
  it('forbids the unnumbered heading H (8.2.5.12)', async () => {
    expect(await failureOf('pdfua.headings.no-h', 2, await tagged(2, [el('H'), el('P')]))).toMatchObject({ clause: '8.2.5.12', occurrences: 1, examples: [{ page: 1, context: 'H: H used' }] });
    expect(await failureOf('pdfua.headings.no-h', 2, await tagged(2, [el('H1'), el('P')]))).toBeUndefined();
  });

  it('requires a labelled list to declare its numbering other than None (8.2.5.25)', async () => {
    const items = [el('LI', [el('Lbl', [], { entries: { ActualText: text('1.') } }), el('LBody')]), el('LI', [el('Lbl', [], { entries: { ActualText: text('2.') } }), el('LBody')])];
    const list = (attrs?: Record<string, unknown>) => [el('L', items, attrs ? { attrs: { O: PDFName.of('List'), ...attrs } } : {})];
    expect(await failureOf('pdfua.list.numbering', 2, await tagged(2, list()))).toMatchObject({
      clause: '8.2.5.25',
      occurrences: 1,
      examples: [{ page: 1, objectNumber: expect.any(Number), context: 'L: labelled list without ListNumbering (or None)' }],
    });
    expect(await failureOf('pdfua.list.numbering', 2, await tagged(2, list({ ListNumbering: PDFName.of('None') })))).toMatchObject({ occurrences: 1 });
    expect(await failureOf('pdfua.list.numbering', 2, await tagged(2, list({ ListNumbering: PDFName.of('Decimal') })))).toBeUndefined();
    // A list without labels has nothing to number.
    expect(await failureOf('pdfua.list.numbering', 2, await tagged(2, [el('L', [el('LI', [el('LBody')])])]))).toBeUndefined();
  });
});

describe('PDF/UA-2 links (8.2.5.20)', () => {
  it('requires link annotations going to different targets to be in separate Link elements', async () => {
    const mixed = await failureOf('pdfua.link.one-target', 2, await tagged(2, [el('P', [el('Link', [{ link: 'https://example.com/a' }, { link: 'https://example.com/b' }])])]));
    expect(mixed).toMatchObject({ clause: '8.2.5.20', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: 'Link: link annotations to 2 different targets' }] });
    const destinations = await failureOf('pdfua.link.one-target', 2, await tagged(2, [el('P', [el('Link', [{ link: 0 }, { link: 1 }])])], 2));
    expect(destinations).toMatchObject({ occurrences: 1 });
    // One link broken over two lines: two annotations, one target.
    expect(await failureOf('pdfua.link.one-target', 2, await tagged(2, [el('P', [el('Link', [{ link: 'https://example.com/a' }, { link: 'https://example.com/a' }])])]))).toBeUndefined();
    expect(await failureOf('pdfua.link.one-target', 2, await tagged(2, [el('P', [el('Link', [{ link: 'https://example.com/a' }]), el('Link', [{ link: 'https://example.com/b' }])])]))).toBeUndefined();
  });
});
