/**
 * Destination rules (lambdas/engine/validate/interactive/destination-rules.ts):
 * structure destinations of PDF/UA-2 (8.8).
 */
import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import { pdfuaSpec } from '../../../../support/pdf-fixtures';
import { addAnnotWithTabs as addAnnot, defined, failureOf, firstContentElement, text } from './annotation-fixtures';
import { tagAnnots } from './tagging';

describe('structure destinations (PDF/UA-2 8.8)', () => {
  it('requires the Dest of a link to target a structure element, not a page', async () => {
    const link = (target: (d: PDFDocument) => PDFRef) => (d: PDFDocument) => {
      const a = addAnnot(d, { Subtype: 'Link', Contents: text('Go'), Dest: d.context.obj([target(d), PDFName.of('Fit')]), AP: undefined });
      tagAnnots(d, 'Link', [a]);
    };
    expect(await failureOf('pdfua.destinations.structure', pdfuaSpec(2), 'ua2', link(firstContentElement))).toBeUndefined();
    const toPage = await failureOf('pdfua.destinations.structure', pdfuaSpec(2), 'ua2', link((d) => d.getPage(0).ref));
    expect(toPage).toMatchObject({ clause: '8.8', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: 'Link annotation Dest targets a page, not a structure element' }] });
  });

  it('resolves named destinations and judges outline items', async () => {
    const outline = (dest: (d: PDFDocument) => unknown) => (d: PDFDocument) => {
      const ctx = d.context;
      const outlines = ctx.register(ctx.obj({ Type: 'Outlines' }));
      const item = ctx.register(ctx.obj({ Title: text('Chapter 1'), Parent: outlines, Dest: dest(d) } as never));
      const o = ctx.lookup(outlines) as PDFDict;
      o.set(PDFName.of('First'), item);
      o.set(PDFName.of('Last'), item);
      o.set(PDFName.of('Count'), ctx.obj(1));
      d.catalog.set(PDFName.of('Outlines'), outlines);
    };
    const named = (target: (d: PDFDocument) => PDFRef) => (d: PDFDocument) => {
      d.catalog.set(PDFName.of('Names'), d.context.obj({ Dests: d.context.obj({ Names: [text('chapter1'), d.context.obj([target(d), PDFName.of('Fit')])] }) }));
      return text('chapter1');
    };
    expect(await failureOf('pdfua.destinations.structure', pdfuaSpec(2), 'ua2', outline(named(firstContentElement)))).toBeUndefined();
    const f = await failureOf('pdfua.destinations.structure', pdfuaSpec(2), 'ua2', outline(named((d) => d.getPage(0).ref)));
    expect(f).toMatchObject({ clause: '8.8', examples: [{ context: 'outline item "Chapter 1" Dest targets a page, not a structure element' }] });
  });

  it('requires every GoTo action to carry a structure destination (SD)', async () => {
    const goTo = (withSD: boolean) => (d: PDFDocument) => {
      const action = d.context.obj(defined({ S: 'GoTo', D: [d.getPage(0).ref, PDFName.of('Fit')], SD: withSD ? [firstContentElement(d), PDFName.of('Fit')] : undefined }));
      tagAnnots(d, 'Link', [addAnnot(d, { Subtype: 'Link', Contents: text('Go'), A: action, AP: undefined })]);
    };
    expect(await failureOf('pdfua.destinations.goto-structure', pdfuaSpec(2), 'ua2', goTo(true))).toBeUndefined();
    const f = await failureOf('pdfua.destinations.goto-structure', pdfuaSpec(2), 'ua2', goTo(false));
    expect(f).toMatchObject({ clause: '8.8', occurrences: 1, examples: [{ page: 1, context: 'GoTo action (annotation-action) has no SD' }] });
  });
});
