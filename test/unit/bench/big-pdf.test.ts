/**
 * The big-file bench's generated PDF, on a small spec: the page count asked
 * for, a cross-reference table whose every offset points at its object, one
 * distinct JPEG per page, and a cache that reuses a valid file and rebuilds a
 * damaged one.
 */
import { readFileSync, statSync, truncateSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFRawStream, PDFRef } from '@cantoo/pdf-lib';
import { cachedBigPdf, noise, pageObjects, writeBigPdf } from '../../bench/support/big-pdf';
import { tempFiles } from '../engine/temp-files';

const files = tempFiles('big-pdf');
const small = { pages: 3, imagePx: 32 };

describe('writeBigPdf', () => {
  it('makes the pages asked for, each with its own JPEG, and a sound cross-reference table', async () => {
    const file = files.path('three.pdf');
    const size = await writeBigPdf(file, small);
    expect(statSync(file).size).toBe(size);
    const bytes = readFileSync(file);
    const text = bytes.toString('latin1');

    const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    expect(text.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const entries = text.slice(xrefAt).split('\n').slice(3, 3 + 3 + 3 * 3);
    entries.forEach((e, i) => {
      const offset = Number(e.slice(0, 10));
      expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });

    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getPageCount()).toBe(3);
    const jpegs = [0, 1, 2].map((i) => {
      const image = doc.context.lookup(PDFRef.of(pageObjects(i).image)) as PDFRawStream;
      expect(image).toBeInstanceOf(PDFRawStream);
      expect(image.dict.get(PDFName.of('Filter'))?.toString()).toBe('/DCTDecode');
      return Buffer.from(image.contents);
    });
    for (const j of jpegs) expect([...j.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(new Set(jpegs.map((j) => j.toString('base64'))).size).toBe(3);
  });
});

describe('noise', () => {
  it('is the same for the same page and different for another', () => {
    expect(Buffer.from(noise(5, 64))).toEqual(Buffer.from(noise(5, 64)));
    expect(Buffer.from(noise(5, 64))).not.toEqual(Buffer.from(noise(6, 64)));
  });
});

describe('cachedBigPdf', () => {
  it('generates once, reuses the file, and rebuilds it when its size no longer matches', async () => {
    const dir = files.path('cache');
    const first = await cachedBigPdf(small, dir);
    expect(first.generated).toBe(true);
    const again = await cachedBigPdf(small, dir);
    expect(again).toMatchObject({ file: first.file, bytes: first.bytes, generated: false });
    truncateSync(first.file, 100);
    const rebuilt = await cachedBigPdf(small, dir);
    expect(rebuilt).toMatchObject({ generated: true, bytes: first.bytes });
    expect(statSync(rebuilt.file).size).toBe(first.bytes);
  });
});
