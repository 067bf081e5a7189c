/**
 * Table rules (lambdas/engine/validate/structure/table-rules.ts): cells that do
 * not overlap (PDF/UA-2 8.2.5.26, PDF/UA-1 7.2).
 */
import { describe, expect, it } from 'vitest';
import { PDFName } from '@cantoo/pdf-lib';
import { el, failureOf, tagged } from './tagged-tree';

describe('PDF/UA tables (UA-2 8.2.5.26, UA-1 7.2)', () => {
  const table = (attrs?: Record<string, unknown>) => ({ O: PDFName.of('Table'), ...attrs });
  const th = (attrs: Record<string, unknown> = {}) => el('TH', [], { attrs: table({ Scope: PDFName.of('Column'), ...attrs }) });
  const td = (attrs?: Record<string, unknown>) => el('TD', [], attrs ? { attrs: table(attrs) } : {});

  it('rejects a cell that spans into a position a cell from an earlier row already covers', async () => {
    // Row 1: the second cell spans down into row 2; row 2's cell spans two columns over it.
    const overlapping = [el('Table', [el('TR', [th(), th({ RowSpan: 2 })]), el('TR', [td({ ColSpan: 2 })])])];
    expect(await failureOf('pdfua.table.cells-overlap', 2, await tagged(2, overlapping))).toMatchObject({
      clause: '8.2.5.26',
      occurrences: 1,
      examples: [{ page: 1, objectNumber: expect.any(Number), context: 'TD: row 2, column 1: overlaps another cell' }],
    });
    expect(await failureOf('pdfua.table.cells-overlap', 1, await tagged(1, overlapping))).toMatchObject({ clause: '7.2' });
    const regular = [el('Table', [el('TR', [th(), th({ RowSpan: 2 })]), el('TR', [td()])])];
    expect(await failureOf('pdfua.table.cells-overlap', 2, await tagged(2, regular))).toBeUndefined();
  });
});
