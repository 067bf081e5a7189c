import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../../../../lambdas/engine/core/reader/byte-source';
import { addObjectStreamMembers, scanFile } from '../../../../../lambdas/engine/core/reader/xref-reconstruct';
import { buildRevisions, pagesDocument, ROOT } from './pdf-builder';

describe('scanFile', () => {
  it('indexes every object header, the last definition of a number winning, and every trailer', () => {
    const built = buildRevisions([
      { objects: pagesDocument(1), trailer: ROOT },
      { objects: { 3: '<< /Type /Page /Parent 2 0 R >>' }, trailer: ROOT },
    ]);
    const scanned = scanFile(new MemorySource(built.bytes));
    expect(scanned.entries.get(3)).toEqual({ kind: 'offset', offset: built.offsets.get(3), gen: 0 });
    expect([...scanned.entries.keys()].sort()).toEqual([1, 2, 3, 4]);
    expect(scanned.trailers).toHaveLength(2);
    expect(scanned.catalogs).toEqual([1]);
  });

  it('ignores `obj` inside other tokens and stream data', () => {
    const built = buildRevisions([{ objects: { ...pagesDocument(1), 9: { dict: '<< >>', data: 'x12 0 obj endobj 7 0 objection' } }, trailer: ROOT }]);
    const scanned = scanFile(new MemorySource(built.bytes));
    expect(scanned.entries.has(12)).toBe(false);
    expect(scanned.entries.has(7)).toBe(false);
  });

  it('finds headers cut by the boundary between two reading windows', () => {
    // The 4 MB window boundary falls inside object 10's header.
    const filler = Buffer.alloc(4 * 1024 * 1024, 0x20);
    const first = buildRevisions([{ objects: { ...pagesDocument(1), 9: { dict: '<< >>', data: filler } }, trailer: ROOT }]);
    const at9 = first.offsets.get(9)!;
    const dataStart = first.bytes.indexOf('stream\n', at9) + 7;
    const pad = 4 * 1024 * 1024 - (dataStart + filler.length + '\nendstream\nendobj\n'.length) - 3;
    const built = buildRevisions([{ objects: { ...pagesDocument(1), 9: { dict: '<< >>', data: Buffer.alloc(filler.length + pad, 0x20) }, 10: '(ten)' }, trailer: ROOT }]);
    const boundary = 4 * 1024 * 1024;
    expect(built.offsets.get(10)! < boundary && built.offsets.get(10)! + 8 > boundary).toBe(true);
    expect(scanFile(new MemorySource(built.bytes)).entries.get(10)).toEqual({ kind: 'offset', offset: built.offsets.get(10), gen: 0 });
  });

  it('adds object stream members unless a later plain definition replaces them', () => {
    const built = buildRevisions([
      { objects: {}, compressed: { 1: '<< /Type /Catalog /Pages 2 0 R >>', 2: '<< /Type /Pages /Kids [] /Count 0 >>' }, objectStream: 4, xref: 'stream', trailer: ROOT },
      { objects: { 2: '<< /Type /Pages /Kids [] /Count 0 /New true >>' }, trailer: ROOT },
    ]);
    const scanned = scanFile(new MemorySource(built.bytes));
    expect(scanned.objectStreams).toEqual([4]);
    addObjectStreamMembers(scanned, () => [1, 2]);
    expect(scanned.entries.get(1)).toEqual({ kind: 'compressed', stream: 4, index: 0 });
    expect(scanned.entries.get(2)).toEqual({ kind: 'offset', offset: built.offsets.get(2), gen: 0 });
  });
});
