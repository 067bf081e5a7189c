import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNull, PDFNumber } from '@cantoo/pdf-lib';
import { inherited, isDict } from '../../../../lambdas/engine/core/inherited';

/** A chain of dictionaries, each the Parent of the one before: chain[0] is the leaf. */
function chain(doc: PDFDocument, length: number): PDFDict[] {
  const nodes = Array.from({ length }, () => doc.context.obj({}));
  for (let i = 0; i + 1 < length; i++) nodes[i]!.set(PDFName.of('Parent'), doc.context.register(nodes[i + 1]!));
  return nodes;
}

describe('inherited', () => {
  it('finds the nearest value up the Parent chain, through indirect references', async () => {
    const doc = await PDFDocument.create();
    const nodes = chain(doc, 4);
    nodes[3]!.set(PDFName.of('Rotate'), PDFNumber.of(180));
    nodes[2]!.set(PDFName.of('Rotate'), doc.context.register(PDFNumber.of(90)));
    expect(inherited(nodes[0]!, 'Rotate', { maxDepth: Infinity })).toEqual(PDFNumber.of(90));
  });

  it('examines at most maxDepth dictionaries, the starting one included', async () => {
    const doc = await PDFDocument.create();
    const nodes = chain(doc, 3);
    nodes[2]!.set(PDFName.of('Rotate'), PDFNumber.of(90));
    expect(inherited(nodes[0]!, 'Rotate', { maxDepth: 2 })).toBeUndefined();
    expect(inherited(nodes[0]!, 'Rotate', { maxDepth: 3 })).toEqual(PDFNumber.of(90));
  });

  it('stops where the chain loops back on itself', async () => {
    const doc = await PDFDocument.create();
    const nodes = chain(doc, 2);
    nodes[1]!.set(PDFName.of('Parent'), doc.context.register(nodes[0]!));
    expect(inherited(nodes[0]!, 'Resources', { maxDepth: Infinity })).toBeUndefined();
  });

  it('takes an entry that refers to a null object as the value, when any value counts', async () => {
    const doc = await PDFDocument.create();
    const nodes = chain(doc, 2);
    nodes[0]!.set(PDFName.of('Rotate'), doc.context.register(PDFNull));
    nodes[1]!.set(PDFName.of('Rotate'), PDFNumber.of(90));
    expect(inherited(nodes[0]!, 'Rotate', { maxDepth: Infinity })).toBe(PDFNull);
  });

  it('passes over values the caller does not accept and goes on up', async () => {
    const doc = await PDFDocument.create();
    const nodes = chain(doc, 2);
    const resources = doc.context.obj({});
    nodes[0]!.set(PDFName.of('Resources'), PDFArray.withContext(doc.context));
    nodes[1]!.set(PDFName.of('Resources'), resources);
    expect(inherited(nodes[0]!, 'Resources', { maxDepth: Infinity, accept: isDict })).toBe(resources);
  });
});
