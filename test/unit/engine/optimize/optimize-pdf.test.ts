import { PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { getNumber } from '../../../../lambdas/engine/core/pdf-objects';
import { qpdfCheckLinearization } from '../core/writer/written-file';
import { tempFiles } from '../temp-files';
import { addPage, busyContent, imagePdf, imageXObject, pageContents, ptAt, QPDF, qpdfStatus, runOptimize, save, stream, withFont } from './fixtures';

const files = tempFiles('optimize-pdf');

/** The result re-opens with our reader and passes qpdf --check (when qpdf is installed). */
async function soundFile(outPath: string, after: Uint8Array): Promise<void> {
  await expect(openPdfBytes(after)).resolves.toBeDefined();
  if (!QPDF) console.warn('qpdf is not installed: the qpdf --check part of this test is skipped');
  else expect(qpdfStatus(outPath)).toBe(0);
}

describe('optimizePdf', () => {
  it('recompresses uncompressed and weakly compressed streams, keeping every decoded byte', async () => {
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(1), null), font);
    addPage(doc, stream(doc, busyContent(2), 1), font);
    const { result, before, after, outPath } = await runOptimize(files, doc, { objectStreams: false, dedupe: false, dropUnused: false });
    expect(result.changed).toBe(true);
    expect(result.appliedFixes).toEqual(['streams.recompress']);
    expect(after!.length).toBe(result.sizeBytes);
    expect(result.sizeBytes).toBeLessThan(result.sizeBytesBefore * 0.6);
    expect(await pageContents(after!)).toEqual(await pageContents(before));
    await soundFile(outPath, after!);
  });

  it('leaves an uncompressed XMP metadata stream uncompressed', async () => {
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), null), font);
    const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">${' '.repeat(4000)}</x:xmpmeta><?xpacket end="w"?>`;
    doc.catalog.set(PDFName.of('Metadata'), stream(doc, xmp, null, { Type: 'Metadata', Subtype: 'XML' }));
    const { after } = await runOptimize(files, doc);
    const reopened = await openPdfBytes(after!);
    const meta = reopened.doc.catalog.lookup(PDFName.of('Metadata'));
    expect(meta).toBeInstanceOf(PDFRawStream);
    expect((meta as PDFRawStream).dict.has(PDFName.of('Filter'))).toBe(false);
  });

  it('merges identical images into one object and drops the copies', async () => {
    const doc = await imagePdf(async (d) => {
      const a = await imageXObject(d, { width: 200, height: 200, space: 'DeviceRGB', filter: 'FlateDecode' });
      const b = await imageXObject(d, { width: 200, height: 200, space: 'DeviceRGB', filter: 'FlateDecode' });
      return [[{ key: 'Im', image: a, x: 60, y: 400, w: ptAt(200, 150), h: ptAt(200, 150) }], [{ key: 'Im', image: b, x: 60, y: 400, w: ptAt(200, 150), h: ptAt(200, 150) }]];
    });
    const { result, before, after, outPath } = await runOptimize(files, doc, { recompress: false });
    expect(result.appliedFixes).toContain('objects.dedupe');
    expect(result.sizeBytes).toBeLessThan(before.length * 0.75);
    const { doc: out } = await openPdfBytes(after!);
    const refs = out.getPages().map((p) => p.node.lookup(PDFName.of('Resources'))!.toString());
    expect(refs[0]).toEqual(refs[1]);
    const images = out.context.enumerateIndirectObjects().filter(([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    expect(images).toHaveLength(1);
    await soundFile(outPath, after!);
  });

  it('drops objects nothing refers to', async () => {
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), 9), font);
    stream(doc, Buffer.alloc(50_000, 7), null);
    const { result, after } = await runOptimize(files, doc, { recompress: false });
    expect(result.appliedFixes).toContain('objects.drop-unused');
    expect(result.sizeBytes).toBeLessThan(10_000);
    const { doc: out } = await openPdfBytes(after!);
    // Object numbers are not reused in order, so the orphan is looked for by its data.
    const large = out.context.enumerateIndirectObjects().filter(([, o]) => o instanceof PDFRawStream && o.contents.length >= 50_000);
    expect(large).toEqual([]);
  });

  it('downsamples a 600 ppi image to 300 ppi and leaves a 200 ppi one as it is', async () => {
    const doc = await imagePdf(async (d) => {
      const high = await imageXObject(d, { width: 1200, height: 900, space: 'DeviceRGB', filter: 'DCTDecode' });
      const low = await imageXObject(d, { width: 400, height: 300, space: 'DeviceRGB', filter: 'DCTDecode' });
      return [[
        { key: 'High', image: high, x: 60, y: 500, w: ptAt(1200, 600), h: ptAt(900, 600) },
        { key: 'Low', image: low, x: 300, y: 500, w: ptAt(400, 200), h: ptAt(300, 200) },
      ]];
    });
    const lowBefore = imageBytes(await save(doc), 'Low');
    const { result, after, outPath } = await runOptimize(files, doc);
    expect(result.appliedFixes).toContain('images.downsample');
    const { doc: out } = await openPdfBytes(after!);
    const xobjects = out.getPage(0).node.lookup(PDFName.of('Resources'))!.toString();
    expect(xobjects).toMatch(/High/);
    const high = xobject(out, 'High');
    expect([getNumber(high.dict, 'Width'), getNumber(high.dict, 'Height')]).toEqual([600, 450]);
    const low = xobject(out, 'Low');
    expect([getNumber(low.dict, 'Width'), getNumber(low.dict, 'Height')]).toEqual([400, 300]);
    expect(Buffer.from(low.contents).equals(Buffer.from(await lowBefore))).toBe(true);
    await soundFile(outPath, after!);
  });

  it('web preset downsamples to 150 ppi', async () => {
    const doc = await imagePdf(async (d) => [[{ key: 'Im', image: await imageXObject(d, { width: 1200, height: 900, space: 'DeviceRGB', filter: 'DCTDecode' }), x: 60, y: 500, w: ptAt(1200, 600), h: ptAt(900, 600) }]]);
    const { after } = await runOptimize(files, doc, { preset: 'web' });
    const { doc: out } = await openPdfBytes(after!);
    expect(getNumber(xobject(out, 'Im').dict, 'Width')).toBe(300);
  });

  it('writes object streams and a cross-reference stream, raising the header to PDF 1.5', async () => {
    const { doc, font } = await withFont();
    for (let i = 0; i < 30; i++) addPage(doc, stream(doc, `BT /F1 12 Tf 40 800 Td (Page ${i}) Tj ET`, 9), font);
    doc.context.header = (await import('@cantoo/pdf-lib')).PDFHeader.forVersion(1, 4);
    const { result, before, after, outPath } = await runOptimize(files, doc);
    expect(result.appliedFixes).toEqual(['file.object-streams']);
    const text = Buffer.from(after!).toString('latin1');
    expect(text.startsWith('%PDF-1.5')).toBe(true);
    expect(text).toMatch(/\/Type \/ObjStm/);
    expect(text).toMatch(/\/Type \/XRef/);
    expect(text).not.toMatch(/\bxref\b\s*\n0 /);
    expect(result.sizeBytes).toBeLessThan(before.length * 0.7);
    expect(await pageContents(after!)).toEqual(await pageContents(before));
    await soundFile(outPath, after!);
  });

  it('leaves object streams out of a file that claims PDF/A-1', async () => {
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), null), font);
    const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="1" pdfaid:conformance="B"/></rdf:RDF></x:xmpmeta>';
    doc.catalog.set(PDFName.of('Metadata'), stream(doc, xmp, null, { Type: 'Metadata', Subtype: 'XML' }));
    const { result, after } = await runOptimize(files, doc);
    expect(result.changed).toBe(true);
    expect(result.skippedFixes.find((s) => s.id === 'file.object-streams')?.reason).toMatch(/PDF\/A-1/);
    expect(Buffer.from(after!).toString('latin1')).not.toMatch(/\/ObjStm/);
  });

  it('never rewrites a signed file', async () => {
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), null), font);
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [], SigFlags: 3 }));
    const { result, after } = await runOptimize(files, doc);
    expect(result).toMatchObject({ changed: false, appliedFixes: [] });
    expect(result.sizeBytes).toBe(result.sizeBytesBefore);
    expect(result.skippedFixes.every((s) => /digitally signed/.test(s.reason))).toBe(true);
    expect(after).toBeNull();
  });

  it('keeps the original and no output when the result is not smaller', async () => {
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), 9), font);
    const first = await runOptimize(files, doc);
    expect(first.result.changed).toBe(true);
    const second = await runOptimize(files, first.after!);
    expect(second.result).toMatchObject({ changed: false, appliedFixes: [] });
    expect(second.result.sizeBytes).toBe(second.result.sizeBytesBefore);
    expect(second.after).toBeNull();
    expect(second.result.skippedFixes.find((s) => s.id === 'file.object-streams')?.reason).toMatch(/not smaller/);
  });

  it('reports each transform turned off, linearization among them unless asked for', async () => {
    const { doc, font } = await withFont();
    addPage(doc, stream(doc, busyContent(), null), font);
    const { result } = await runOptimize(files, doc, { downsample: false });
    expect(result.skippedFixes.find((s) => s.id === 'images.downsample')?.reason).toMatch(/params\.pdf\.downsample/);
    expect(result.skippedFixes.find((s) => s.id === 'file.linearize')?.reason).toMatch(/params\.pdf\.linearize/);
  });

  it.each([
    ['with object streams', {}, 'file.object-streams'],
    ['with classic tables', { objectStreams: false }, null],
  ] as const)('linearizes the file when asked for, %s', async (_, params, packed) => {
    const { doc, font } = await withFont();
    for (let i = 0; i < 3; i++) addPage(doc, stream(doc, busyContent(i), null), font);
    const { result, before, after, outPath } = await runOptimize(files, doc, { ...params, linearize: true });
    expect(result.changed).toBe(true);
    expect(result.appliedFixes).toEqual(['streams.recompress', ...(packed ? [packed] : []), 'file.linearize']);
    expect(Buffer.from(after!.subarray(0, 1024)).toString('latin1')).toMatch(/<< \/Linearized 1 /);
    expect(await pageContents(after!)).toEqual(await pageContents(before));
    await soundFile(outPath, after!);
    if (QPDF) expect(qpdfCheckLinearization(outPath)).toEqual({ status: 0, output: `${outPath}: no linearization errors` });
  });
});

function xobject(doc: Awaited<ReturnType<typeof openPdfBytes>>['doc'], key: string): PDFRawStream {
  const res = doc.getPage(0).node.lookup(PDFName.of('Resources')) as unknown as { lookup(n: PDFName): { lookup(n: PDFName): unknown } };
  const s = res.lookup(PDFName.of('XObject')).lookup(PDFName.of(key));
  if (!(s instanceof PDFRawStream)) throw new Error(`${key} is not a stream`);
  return s;
}

async function imageBytes(bytes: Uint8Array, key: string): Promise<Uint8Array> {
  return xobject((await openPdfBytes(bytes)).doc, key).contents;
}

