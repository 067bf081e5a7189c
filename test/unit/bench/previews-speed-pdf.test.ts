/**
 * The previews speed bench's generated PDF: the page count asked for, each
 * page with an embedded font, its own image and vector shapes.
 */
import { describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFName, PDFRef } from '@cantoo/pdf-lib';
import { buildPreviewsSpeedPdf } from '../../bench/support/previews-speed-pdf';

describe('buildPreviewsSpeedPdf', () => {
  it('makes the pages asked for, each with its own image and the one embedded font', async () => {
    const doc = await PDFDocument.load(await buildPreviewsSpeedPdf({ pages: 3 }), { updateMetadata: false });
    expect(doc.getPageCount()).toBe(3);
    const resources = doc.getPages().map((p) => p.node.Resources()!);
    const ref = (r: PDFDict, kind: string, name: string) => (doc.context.lookup(r.get(PDFName.of(kind)), PDFDict).get(PDFName.of(name)) as PDFRef).toString();
    expect(new Set(resources.map((r) => ref(r, 'XObject', 'Im0'))).size).toBe(3);
    expect(new Set(resources.map((r) => ref(r, 'Font', 'F1'))).size).toBe(1);
    const font = doc.context.lookup(doc.context.lookup(resources[0]!.get(PDFName.of('Font')), PDFDict).get(PDFName.of('F1')), PDFDict);
    const descriptor = doc.context.lookup(font.get(PDFName.of('FontDescriptor')), PDFDict);
    expect(descriptor.has(PDFName.of('FontFile2'))).toBe(true);
  });
});
