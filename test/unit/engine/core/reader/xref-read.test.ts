import { PDFContext, PDFRef } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../../../../lambdas/engine/core/reader/byte-source';
import { readXref, XrefError } from '../../../../../lambdas/engine/core/reader/xref-read';
import { buildRevisions, pagesDocument, replaceSameLength, ROOT } from './pdf-builder';

const read = (bytes: Buffer) => readXref(new MemorySource(bytes), PDFContext.create());

describe('readXref', () => {
  it('reads a classic table and its trailer', () => {
    const built = buildRevisions([{ objects: pagesDocument(2), trailer: `${ROOT} /Info 9 0 R` }]);
    const index = read(built.bytes);
    expect(index.entries.get(3)).toEqual({ kind: 'offset', offset: built.offsets.get(3), gen: 0 });
    expect(index.entries.get(0)).toEqual({ kind: 'free' });
    expect(index.trailer.Root).toBe(PDFRef.of(1));
    expect(index.trailer.Info).toBe(PDFRef.of(9));
  });

  it('reads a cross-reference stream with object stream entries', () => {
    const built = buildRevisions([
      { objects: { 3: '<< /Type /Page /Parent 2 0 R >>' }, compressed: { 1: '<< /Type /Catalog /Pages 2 0 R >>', 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' }, objectStream: 4, xref: 'stream', trailer: ROOT },
    ]);
    const index = read(built.bytes);
    expect(index.entries.get(1)).toEqual({ kind: 'compressed', stream: 4, index: 0 });
    expect(index.entries.get(2)).toEqual({ kind: 'compressed', stream: 4, index: 1 });
    expect(index.entries.get(4)).toEqual({ kind: 'offset', offset: built.offsets.get(4), gen: 0 });
    expect(index.trailer.Root).toBe(PDFRef.of(1));
  });

  it('reads a hybrid file: the table, and the compressed objects of its /XRefStm', () => {
    const built = buildRevisions([
      { objects: { 3: '<< /Type /Page /Parent 2 0 R >>' }, compressed: { 1: '<< /Type /Catalog /Pages 2 0 R >>', 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' }, objectStream: 4, xref: 'hybrid', xrefStreamNumber: 5, trailer: ROOT },
    ]);
    const index = read(built.bytes);
    expect(index.entries.get(3)?.kind).toBe('offset');
    expect(index.entries.get(1)).toEqual({ kind: 'compressed', stream: 4, index: 0 });
  });

  for (const form of ['table', 'stream'] as const) {
    it(`follows /Prev through incremental updates (${form}), the newest definition winning`, () => {
      const built = buildRevisions([
        { objects: pagesDocument(1), xref: form, trailer: ROOT },
        { objects: { 3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 500 500] >>' }, freed: [4], xref: form, trailer: ROOT },
      ]);
      const index = read(built.bytes);
      expect(index.entries.get(3)).toEqual({ kind: 'offset', offset: built.offsets.get(3), gen: 0 });
      expect(built.offsets.get(3)).toBeGreaterThan(built.xrefOffsets[0]!);
      // Freed in the update: the older definition does not come back.
      expect(index.entries.get(4)).toEqual({ kind: 'free' });
      expect(index.entries.get(1)?.kind).toBe('offset');
    });
  }

  it('follows a /Prev chain that loops only once round', () => {
    const built = buildRevisions([{ objects: pagesDocument(1), trailer: ROOT }]);
    // The trailer's /Prev points at its own table.
    const text = built.bytes.toString('latin1').replace('/Root 1 0 R >>', `/Root 1 0 R /Prev ${built.xrefOffsets[0]} >>`);
    const index = read(Buffer.from(text, 'latin1'));
    expect(index.entries.get(1)?.kind).toBe('offset');
  });

  it('throws XrefError without startxref, on a broken table and on a trailer without /Root', () => {
    const built = buildRevisions([{ objects: pagesDocument(1), trailer: ROOT }]);
    expect(() => read(replaceSameLength(built.bytes, 'startxref', 'startxrex'))).toThrow(XrefError);
    expect(() => read(replaceSameLength(built.bytes, '0000000000 65535 f', '00000000x0 65535 f'))).toThrow(XrefError);
    expect(() => read(replaceSameLength(built.bytes, '/Root 1 0 R', '/Rooo 1 0 R'))).toThrow(XrefError);
  });
});
