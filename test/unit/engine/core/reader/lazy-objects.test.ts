import { PDFDict, PDFName, PDFRawStream, PDFRef } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { FileSource, MemorySource, type ByteSource } from '../../../../../lambdas/engine/core/reader/byte-source';
import { openLazy } from '../../../../../lambdas/engine/core/reader/open-lazy';
import { tempFiles } from '../../temp-files';
import { buildRevisions, pagesDocument, replaceSameLength, ROOT } from './pdf-builder';

const files = tempFiles('lazy-objects');

/** A source that counts the bytes read from it. */
class CountingSource implements ByteSource {
  readonly size: number;
  bytesRead = 0;
  private readonly inner: MemorySource;
  constructor(bytes: Uint8Array) {
    this.inner = new MemorySource(bytes);
    this.size = bytes.length;
  }
  read(offset: number, length: number): Uint8Array {
    const out = this.inner.read(offset, length);
    this.bytesRead += out.length;
    return out;
  }
  close(): void {}
}

const open = (bytes: Uint8Array, cacheBytes?: number) => {
  const opened = openLazy(new MemorySource(bytes), { version: '1.7', cacheBytes });
  if (!opened) throw new Error('not opened');
  return opened;
};

describe('objects read on demand', () => {
  it('parses only the objects asked for', () => {
    const { context, loader } = open(buildRevisions([{ objects: pagesDocument(20), trailer: ROOT }]).bytes);
    // Opening reads the catalog only.
    expect(loader.stats.objectsParsed).toBe(1);
    const page = context.lookup(PDFRef.of(7));
    expect(page).toBeInstanceOf(PDFDict);
    expect(loader.stats.objectsParsed).toBe(2);
    context.lookup(PDFRef.of(7));
    expect(loader.stats.objectsParsed).toBe(2);
  });

  it('parses every listed object when the objects are enumerated, without reading stream data', () => {
    const { context, loader } = open(buildRevisions([{ objects: pagesDocument(5), trailer: ROOT }]).bytes);
    const all = context.enumerateIndirectObjects();
    expect(all.map(([ref]) => ref.objectNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(loader.stats.streamBytesRead).toBe(0);
  });

  it('never reads the data of a huge stream nobody asks for', () => {
    const huge = Buffer.alloc(20 * 1024 * 1024, 0x41);
    const bytes = buildRevisions([{ objects: { ...pagesDocument(1), 9: { dict: '<< /Type /XObject /Subtype /Image >>', data: huge } }, trailer: ROOT }]).bytes;
    const source = new CountingSource(bytes);
    const opened = openLazy(source, { version: '1.7' })!;
    const image = opened.context.lookup(PDFRef.of(9));
    expect(image).toBeInstanceOf(PDFRawStream);
    expect(source.bytesRead).toBeLessThan(256 * 1024);
    // Asked for, the data is read, /Length long.
    expect((image as PDFRawStream).contents.length).toBe(huge.length);
    expect(source.bytesRead).toBeGreaterThan(huge.length);
  });

  it('keeps stream data in a cache bounded in bytes, reading evicted data again', () => {
    const objects = { ...pagesDocument(1), 9: { dict: '<< >>', data: Buffer.alloc(600, 1) }, 10: { dict: '<< >>', data: Buffer.alloc(600, 2) } };
    const { context, loader } = open(buildRevisions([{ objects, trailer: ROOT }]).bytes, 1000);
    // In memory without encryption the data is a view of the bytes, never cached;
    // the bound is proven with the cache itself.
    const a = context.lookup(PDFRef.of(9)) as PDFRawStream;
    expect(a.contents[0]).toBe(1);
    loader.reading.cache.put(a, new Uint8Array(600));
    loader.reading.cache.put(context.lookup(PDFRef.of(10)) as PDFRawStream, new Uint8Array(600));
    expect(loader.reading.cache.bytes).toBe(600);
  });

  it("keeps stream data read from a file as its own copy: it survives the file's blocks serving the next file", () => {
    const withData = (fill: number) => buildRevisions([{ objects: { ...pagesDocument(1), 9: { dict: '<< >>', data: Buffer.alloc(70_000, fill) }, 10: { dict: '<< >>', data: Buffer.alloc(30_000, 0) } }, trailer: ROOT }]).bytes;
    const first = new FileSource(files.write(withData(1), 'pdf'));
    const kept = (openLazy(first, { version: '1.7' })!.context.lookup(PDFRef.of(9)) as PDFRawStream).contents;
    first.close();
    const second = new FileSource(files.write(withData(2), 'pdf'));
    expect((openLazy(second, { version: '1.7' })!.context.lookup(PDFRef.of(9)) as PDFRawStream).contents[0]).toBe(2);
    second.close();
    expect(kept.length).toBe(70_000);
    expect(kept.every((b) => b === 1)).toBe(true);
  });

  it('reads a wrong /Length to the endstream keyword', () => {
    const bytes = buildRevisions([{ objects: { ...pagesDocument(1), 9: { dict: '<< >>', data: 'hello world' } }, trailer: ROOT }]).bytes;
    const { context } = open(replaceSameLength(bytes, '/Length 11 >>', '/Length 99 >>'));
    expect(Buffer.from((context.lookup(PDFRef.of(9)) as PDFRawStream).contents).toString()).toBe('hello world');
  });

  it('reads an indirect /Length', () => {
    const bytes = buildRevisions([{ objects: { ...pagesDocument(1), 9: '<< /Filter /None /Length 10 0 R >>\nstream\nabc\nendstream', 10: '3' }, trailer: ROOT }]).bytes;
    const { context } = open(bytes);
    expect(Buffer.from((context.lookup(PDFRef.of(9)) as PDFRawStream).contents).toString()).toBe('abc');
  });

  it('reads objects from object streams, and the newest revision of a redefined object', () => {
    const bytes = buildRevisions([
      { objects: { 3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1 1] >>' }, compressed: { 1: '<< /Type /Catalog /Pages 2 0 R >>', 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' }, objectStream: 4, xref: 'stream', trailer: ROOT },
      { objects: { 3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 2 2] >>' }, xref: 'table', trailer: ROOT },
    ]).bytes;
    const { context } = open(bytes);
    const pages = context.lookup(PDFRef.of(2)) as PDFDict;
    expect(pages.get(PDFName.of('Count'))?.toString()).toBe('1');
    expect((context.lookup(PDFRef.of(3)) as PDFDict).get(PDFName.of('MediaBox'))?.toString()).toBe('[ 0 0 2 2 ]');
  });

  it('keeps set and deleted objects over what the file holds', () => {
    const { context } = open(buildRevisions([{ objects: pagesDocument(2), trailer: ROOT }]).bytes);
    const replacement = context.obj({ Replaced: true });
    context.assign(PDFRef.of(3), replacement);
    context.delete(PDFRef.of(5));
    expect(context.lookup(PDFRef.of(3))).toBe(replacement);
    expect(context.lookup(PDFRef.of(5))).toBeUndefined();
    const numbers = context.enumerateIndirectObjects().map(([ref]) => ref.objectNumber);
    expect(numbers).not.toContain(5);
    expect(context.enumerateIndirectObjects().find(([ref]) => ref.objectNumber === 3)?.[1]).toBe(replacement);
    const added = context.register(context.obj({ New: true }));
    expect(added.objectNumber).toBe(7);
  });
});
