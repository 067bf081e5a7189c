/**
 * A page renders the same whatever its render thread rendered before: PDFium
 * keeps font substitution state between documents, and a non-embedded
 * TrueType font (issue18099_reduced.pdf: Tahoma, no widths) came out slightly
 * differently the first time and every time after. Each document now starts
 * from a freshly initialised library.
 */
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { renderPreviews } from '../../../../lambdas/engine/previews/index';
import { endIdleRenderThreads } from '../../../../lambdas/engine/previews/render-threads';
import { tempFiles } from '../temp-files';

const files = tempFiles('pdfium-determinism');
afterAll(() => endIdleRenderThreads());

async function unembeddedTrueType(): Promise<string> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  const font = doc.context.register(doc.context.obj({ Type: 'Font', Subtype: 'TrueType', BaseFont: 'Tahoma', FirstChar: 32, LastChar: 255 }));
  page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { F6: font } }));
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream('BT /F6 12 Tf 70 50 Td (Hello world!) Tj ET')));
  return files.write(await doc.save(), 'pdf');
}

let n = 0;
async function render(path: string): Promise<Buffer> {
  // The pool's threads stay warm: after the first, every render follows another in the same PDFium.
  const result = await renderPreviews({ file: path, fileType: 'pdf', params: { format: 'png', dpi: 144, thumbnail: false }, outDir: files.path(`out${++n}`) });
  expect(result.failures).toEqual([]);
  return readFileSync(result.images[0]!.path);
}

describe('PDFium previews', () => {
  it('render a page with a substituted font the same the first time and every time after', async () => {
    await endIdleRenderThreads();
    const path = await unembeddedTrueType();
    const first = await render(path);
    const second = await render(path);
    const third = await render(path);
    expect(second.equals(first)).toBe(true);
    expect(third.equals(first)).toBe(true);
  });
});
