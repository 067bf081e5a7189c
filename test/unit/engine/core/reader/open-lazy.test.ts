import { PDFDict, PDFName, PDFRawStream, PDFRef } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../../../../lambdas/engine/core/reader/byte-source';
import { FOUND_CATALOG, openLazy, REBUILT_XREF } from '../../../../../lambdas/engine/core/reader/open-lazy';
import { buildRevisions, pagesDocument, replaceSameLength, ROOT } from './pdf-builder';

const open = (bytes: Uint8Array) => {
  const opened = openLazy(new MemorySource(bytes), { version: '1.7' });
  if (!opened) throw new Error('not opened');
  return opened;
};

describe('damaged cross-reference data', () => {
  const sound = () => buildRevisions([{ objects: pagesDocument(2), trailer: ROOT }]).bytes;

  it('opens a sound file without repairs', () => {
    expect(open(sound()).repairs).toEqual([]);
  });

  it('rebuilds the index of a file without startxref', () => {
    const opened = open(replaceSameLength(sound(), 'startxref', 'startxrex'));
    expect(opened.repairs).toEqual([REBUILT_XREF]);
    expect(opened.context.lookup(PDFRef.of(5))).toBeInstanceOf(PDFDict);
  });

  it('rebuilds the index of a file whose trailer dictionary is broken', () => {
    const opened = open(replaceSameLength(sound(), '<< /Size 7 /Root 1 0 R >>', '<< /Size 7 /Root 1 0 R ]]'));
    // No trailer names the catalog any more: it is found by its /Type.
    expect(opened.repairs).toEqual([REBUILT_XREF, FOUND_CATALOG]);
    expect(opened.context.trailerInfo.Root).toBe(PDFRef.of(1));
  });

  it('rebuilds the index of a file whose offsets are all wrong', () => {
    const text = sound().toString('latin1').replace(/^(\d{10}) 00000 n/gm, (_, off: string) => `${String(Number(off) + 3).padStart(10, '0')} 00000 n`);
    const opened = open(Buffer.from(text, 'latin1'));
    expect(opened.repairs).toEqual([REBUILT_XREF]);
    expect((opened.context.lookup(PDFRef.of(5)) as PDFDict).get(PDFName.of('Type'))).toBe(PDFName.of('Page'));
  });

  it('rebuilds the index when an offset is found wrong only later, while reading objects', () => {
    const built = buildRevisions([{ objects: pagesDocument(2), trailer: ROOT }]);
    const pad = (n: number) => String(n).padStart(10, '0');
    // Object 5's entry points at object 3.
    const broken = replaceSameLength(built.bytes, `5 1\n${pad(built.offsets.get(5)!)}`, `5 1\n${pad(built.offsets.get(3)!)}`);
    const opened = open(broken);
    expect(opened.repairs).toEqual([]);
    expect((opened.context.lookup(PDFRef.of(5)) as PDFDict).get(PDFName.of('MediaBox'))?.toString()).toBe('[ 0 0 101 200 ]');
    expect(opened.repairs).toEqual([REBUILT_XREF]);
  });

  it('reads a truncated file up to where it ends', () => {
    const bytes = sound();
    const cut = bytes.subarray(0, bytes.toString('latin1').indexOf('xref'));
    const opened = open(cut);
    expect(opened.repairs).toEqual([REBUILT_XREF, FOUND_CATALOG]);
    expect(opened.context.lookup(PDFRef.of(6))).toBeInstanceOf(PDFRawStream);
  });

  it('finds the catalog by its /Type when no trailer names it', () => {
    const bytes = sound();
    const cut = bytes.subarray(0, bytes.toString('latin1').indexOf('xref'));
    const opened = open(cut);
    expect(opened.context.trailerInfo.Root).toBe(PDFRef.of(1));
  });

  it('finds the members of object streams when rebuilding', () => {
    const bytes = buildRevisions([
      { objects: { 3: '<< /Type /Page /Parent 2 0 R >>' }, compressed: { 1: '<< /Type /Catalog /Pages 2 0 R >>', 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' }, objectStream: 4, xref: 'stream', trailer: ROOT },
    ]).bytes;
    const opened = open(replaceSameLength(bytes, 'startxref', 'startxrex'));
    expect(opened.repairs).toEqual([REBUILT_XREF]);
    expect(opened.context.trailerInfo.Root).toBe(PDFRef.of(1));
    expect(opened.context.lookup(PDFRef.of(2))).toBeInstanceOf(PDFDict);
  });
});
