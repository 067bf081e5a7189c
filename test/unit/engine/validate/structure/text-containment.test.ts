/**
 * PDF/UA-1 7.2: tables, lists and tables of contents are built from their own
 * parts, in their own containers (ISO 32000-1 14.8.4.3), role maps applied.
 */
import { PDFDict, PDFName } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { failuresOf, taggedPdf, taggedText, type ElementSpec } from './tagged-fixture';

const cell = (s: 'TH' | 'TD', mcid: number): ElementSpec => ({ s, mcids: [mcid] });
const content = (n: number) => Array.from({ length: n }, (_, i) => taggedText('Span', i)).join(' ');

async function rulesFor(elements: ElementSpec[], mcids: number, edit?: Parameters<typeof taggedPdf>[0]['edit']) {
  const f = await failuresOf(await taggedPdf({ lang: 'en', content: content(mcids), elements, ...(edit ? { edit } : {}) }), 'ua1');
  return {
    parent: f.get('pdfua.nesting.parent'),
    children: f.get('pdfua.nesting.children'),
    arrangement: f.get('pdfua.nesting.arrangement'),
  };
}

describe('table, list and TOC nesting', () => {
  it('passes a well-formed table, list and table of contents', async () => {
    const r = await rulesFor(
      [
        { s: 'Table', kids: [{ s: 'THead', kids: [{ s: 'TR', kids: [cell('TH', 0)] }] }, { s: 'TBody', kids: [{ s: 'TR', kids: [cell('TD', 1)] }] }, { s: 'Caption', mcids: [2] }] },
        { s: 'L', kids: [{ s: 'Caption', mcids: [3] }, { s: 'LI', kids: [{ s: 'Lbl', mcids: [4] }, { s: 'LBody', mcids: [5] }] }] },
        { s: 'TOC', kids: [{ s: 'TOCI', mcids: [6] }] },
      ],
      7,
    );
    expect(r).toEqual({ parent: undefined, children: undefined, arrangement: undefined });
  });

  it('fails a TD outside a TR and an LI outside an L, naming where they are', async () => {
    const r = await rulesFor([{ s: 'Table', kids: [cell('TD', 0)] }, { s: 'Sect', kids: [{ s: 'LI', mcids: [1] }] }], 2);
    expect(r.parent?.occurrences).toBe(2);
    expect(r.parent?.context).toMatch(/TD: inside Table/);
    expect(r.children?.context).toMatch(/Table: contains TD/);
  });

  it('applies the role map: a custom type mapped to TR is a TR', async () => {
    const r = await rulesFor([{ s: 'Table', kids: [{ s: 'Row', kids: [cell('TD', 0)] }] }], 1, (doc) => {
      const root = doc.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
      root.set(PDFName.of('RoleMap'), doc.context.obj({ Row: 'TR' }));
    });
    expect(r.parent).toBeUndefined();
    expect(r.children).toBeUndefined();
  });

  it('fails two THeads, a THead without TBody and a Caption in the middle of a table', async () => {
    const r = await rulesFor(
      [{ s: 'Table', kids: [{ s: 'THead', kids: [{ s: 'TR', kids: [cell('TH', 0)] }] }, { s: 'Caption', mcids: [1] }, { s: 'THead', kids: [{ s: 'TR', kids: [cell('TH', 2)] }] }] }],
      3,
    );
    expect(r.arrangement?.context).toMatch(/more than one THead; THead or TFoot without any TBody; a Caption that is neither the first nor the last child/);
  });

  it('fails a list Caption that is not the first child', async () => {
    const r = await rulesFor([{ s: 'L', kids: [{ s: 'LI', kids: [{ s: 'LBody', mcids: [0] }] }, { s: 'Caption', mcids: [1] }] }], 2);
    expect(r.arrangement?.context).toMatch(/L: a Caption that is not the first child/);
  });
});
