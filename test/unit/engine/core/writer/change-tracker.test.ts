import { PDFDocument, PDFName, PDFNumber, PDFRawStream, type PDFRef } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { trackChanges } from '../../../../../lambdas/engine/core/writer/track-changes';

async function opened() {
  const source = await PDFDocument.create();
  source.addPage([100, 100]).drawRectangle({ x: 10, y: 10, width: 20, height: 20 });
  source.addPage([100, 100]);
  const doc = await PDFDocument.load(await source.save({ useObjectStreams: false }));
  return { doc, tracker: trackChanges(doc.context) };
}

const writtenNumbers = (written: [PDFRef, unknown][]) => written.map(([ref]) => ref.objectNumber).sort((a, b) => a - b);

describe('ChangeTracker', () => {
  it('reports nothing when nothing was edited', async () => {
    const { doc, tracker } = await opened();
    expect(tracker.changes()).toEqual({ written: [], freed: [] });
  });

  it('reports a dictionary edited in place, and only it', async () => {
    const { doc, tracker } = await opened();
    const page = doc.getPage(1);
    page.node.set(PDFName.of('UserUnit'), PDFNumber.of(2));
    expect(writtenNumbers(tracker.changes().written)).toEqual([page.ref.objectNumber]);
  });

  it('reports a new object, and a stream replaced at its reference even when its dictionary is the same', async () => {
    const { doc, tracker } = await opened();
    const added = doc.context.register(doc.context.obj({ Note: 'new' }));
    const contents = doc.getPage(0).node.get(PDFName.of('Contents')) as PDFRef;
    const stream = doc.context.lookup(contents) as PDFRawStream;
    doc.context.assign(contents, PDFRawStream.of(stream.dict, new Uint8Array([0x71, 0x20, 0x51])));
    expect(writtenNumbers(tracker.changes().written)).toEqual([contents.objectNumber, added.objectNumber].sort((a, b) => a - b));
  });

  it('frees what was deleted', async () => {
    const { doc, tracker } = await opened();
    const page = doc.getPage(1);
    doc.context.delete(page.ref);
    const { freed } = tracker.changes();
    expect(freed).toEqual([page.ref]);
  });
});
