import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDocument } from '@cantoo/pdf-lib';
import { readCidWidths } from '../../../../lambdas/engine/core/cid-widths';

async function wArray(items: unknown[]): Promise<PDFArray> {
  const doc = await PDFDocument.create();
  return doc.context.obj(items as never) as unknown as PDFArray;
}

describe('readCidWidths', () => {
  it('reads both forms as written, unscaled', async () => {
    const w = await wArray([1, [500, 600], 10, 12, 250]);
    expect([...readCidWidths(w, 65536)]).toEqual([[1, 500], [2, 600], [10, 250], [11, 250], [12, 250]]);
  });

  it('stops at the first entry that is not a number, keeping what came before', async () => {
    const w = await wArray([1, [500], 'X', 3, 700]);
    expect([...readCidWidths(w, 65536)]).toEqual([[1, 500]]);
  });

  it('stops at a range wider than 16-bit CIDs allow, and once more than maxEntries are read', async () => {
    expect(readCidWidths(await wArray([0, 70000, 500]), 65536).size).toBe(0);
    const w = await wArray([0, 9, 500, 20, 29, 600, 40, 49, 700]);
    expect(readCidWidths(w, 15).size).toBe(20);
  });
});
