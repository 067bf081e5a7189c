/**
 * PDF/UA-2 annotation rules (lambdas/engine/validate/interactive/ua2-annotation-rules.ts):
 * the annotation-type requirements (8.9.2.3–8.9.2.4.19), annotation order and
 * descriptions (8.9.3.3, 8.9.4.2).
 */
import { describe, expect, it } from 'vitest';
import { PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { pdfuaSpec } from '../../../../support/pdf-fixtures';
import { addAnnotWithTabs as addAnnot, failureOf, page0, text } from './annotation-fixtures';
import { tagAnnots } from './tagging';

describe('PDF/UA-2 annotation types (8.9.2.3–8.9.2.4.19)', () => {
  const ua2 = pdfuaSpec(2);

  it('requires markup annotations that are real content to be enclosed in Annot elements (8.9.2.3)', async () => {
    expect(await failureOf('pdfua.annotations.markup-tagged', ua2, 'ua2', (d) => tagAnnots(d, 'Annot', [addAnnot(d, { Subtype: 'Text', Contents: text('Note') })]))).toBeUndefined();
    // Hidden ones are artifacts (8.9.2.2), not judged here.
    expect(await failureOf('pdfua.annotations.markup-tagged', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'Text', Contents: text('Note'), F: 4 | 2 }))).toBeUndefined();
    const inSpan = await failureOf('pdfua.annotations.markup-tagged', ua2, 'ua2', (d) => tagAnnots(d, 'Span', [addAnnot(d, { Subtype: 'Text', Contents: text('Note') })]));
    expect(inSpan).toMatchObject({ clause: '8.9.2.3', occurrences: 1, examples: [{ page: 1, context: 'Text annotation: enclosed in Span, not Annot' }] });
    const untagged = await failureOf('pdfua.annotations.markup-tagged', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'Highlight', Contents: text('Key') }));
    expect(untagged?.examples[0]?.context).toBe('Highlight annotation: not in the structure tree, not Annot');
  });

  it('requires RC and Contents of a markup annotation to be textually equivalent (8.9.2.3)', async () => {
    const note = (rc: string) => (d: PDFDocument) => tagAnnots(d, 'Annot', [addAnnot(d, { Subtype: 'FreeText', Contents: text('Check the totals.'), RC: text(rc), DA: text('/Helv 12 Tf') })]);
    expect(await failureOf('pdfua.annotations.rich-text-contents', ua2, 'ua2', note('<?xml version="1.0"?><body xmlns="http://www.w3.org/1999/xhtml"><p>Check the <b>totals</b>.</p></body>'))).toBeUndefined();
    const f = await failureOf('pdfua.annotations.rich-text-contents', ua2, 'ua2', note('<body xmlns="http://www.w3.org/1999/xhtml"><p>Check the dates.</p></body>'));
    expect(f).toMatchObject({ clause: '8.9.2.3', occurrences: 1, examples: [{ context: 'FreeText annotation: RC and Contents differ in text' }] });
  });

  it('requires a Name or Contents on Stamp annotations (8.9.2.4.7)', async () => {
    expect(await failureOf('pdfua.annotations.stamp-description', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'Stamp', Name: 'Approved' }))).toBeUndefined();
    expect(await failureOf('pdfua.annotations.stamp-description', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'Stamp' }))).toMatchObject({ clause: '8.9.2.4.7', examples: [{ context: 'Stamp annotation: neither Name nor Contents' }] });
  });

  it('requires Contents on Ink, Screen, 3D and RichMedia annotations (8.9.2.4.8, .12, .19)', async () => {
    const cases: [string, string, string][] = [
      ['pdfua.annotations.ink-contents', 'Ink', '8.9.2.4.8'],
      ['pdfua.annotations.screen-contents', 'Screen', '8.9.2.4.12'],
      ['pdfua.annotations.3d-rich-media-contents', '3D', '8.9.2.4.19'],
      ['pdfua.annotations.3d-rich-media-contents', 'RichMedia', '8.9.2.4.19'],
    ];
    for (const [id, subtype, clause] of cases) {
      expect(await failureOf(id, ua2, 'ua2', (d) => addAnnot(d, { Subtype: subtype, Contents: text('A description') }))).toBeUndefined();
      expect(await failureOf(id, ua2, 'ua2', (d) => addAnnot(d, { Subtype: subtype }))).toMatchObject({ clause, occurrences: 1, examples: [{ context: `${subtype} annotation: no Contents` }] });
    }
  });

  it('keeps Popup annotations out of the structure tree (8.9.2.4.9)', async () => {
    expect(await failureOf('pdfua.annotations.popup-untagged', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'Popup', AP: undefined }))).toBeUndefined();
    const f = await failureOf('pdfua.annotations.popup-untagged', ua2, 'ua2', (d) => tagAnnots(d, 'Annot', [addAnnot(d, { Subtype: 'Popup', AP: undefined })]));
    expect(f).toMatchObject({ clause: '8.9.2.4.9', examples: [{ context: 'Popup annotation: enclosed in Annot' }] });
  });

  it('forbids Sound, Movie and TrapNet annotations (8.9.2.4.11, 8.9.2.4.15)', async () => {
    expect(await failureOf('pdfua.annotations.sound-movie', ua2, 'ua2')).toBeUndefined();
    expect(await failureOf('pdfua.annotations.sound-movie', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'Sound', Contents: text('A bell') }))).toMatchObject({ clause: '8.9.2.4.11', examples: [{ context: 'Sound annotation' }] });
    expect((await failureOf('pdfua.annotations.sound-movie', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'Movie', Contents: text('A film') })))?.occurrences).toBe(1);
    // UA-2 forbids TrapNet even when hidden; UA-1 judges only what can be seen.
    expect(await failureOf('pdfua.annotations.trap-net', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'TrapNet', F: 2 }))).toMatchObject({ clause: '8.9.2.4.15', occurrences: 1 });
    expect(await failureOf('pdfua.annotations.trap-net', ua2, 'ua2')).toBeUndefined();
  });

  it('requires zero-size widgets and printer marks to be artifacts (8.9.2.4.13, 8.9.2.4.14)', async () => {
    const zero = (tag?: string) => (d: PDFDocument) => {
      const w = addAnnot(d, { Subtype: 'Widget', FT: 'Sig', T: text('sig'), Rect: [0, 0, 0, 0], AP: undefined });
      if (tag) tagAnnots(d, tag, [w]);
    };
    expect(await failureOf('pdfua.annotations.zero-size-widget', ua2, 'ua2', zero())).toBeUndefined();
    expect(await failureOf('pdfua.annotations.zero-size-widget', ua2, 'ua2', zero('Artifact'))).toBeUndefined();
    expect(await failureOf('pdfua.annotations.zero-size-widget', ua2, 'ua2', zero('Form'))).toMatchObject({ clause: '8.9.2.4.13', examples: [{ context: 'Widget annotation: zero size, enclosed in Form' }] });
    expect(await failureOf('pdfua.annotations.printer-mark-artifact', ua2, 'ua2', (d) => addAnnot(d, { Subtype: 'PrinterMark' }))).toBeUndefined();
    const mark = await failureOf('pdfua.annotations.printer-mark-artifact', ua2, 'ua2', (d) => tagAnnots(d, 'Annot', [addAnnot(d, { Subtype: 'PrinterMark' })]));
    expect(mark).toMatchObject({ clause: '8.9.2.4.14', examples: [{ context: 'PrinterMark annotation: enclosed in Annot' }] });
  });

  it('requires a Watermark that is real content to be enclosed in Annot (8.9.2.4.16)', async () => {
    const watermark = (tag?: string) => (d: PDFDocument) => {
      const w = addAnnot(d, { Subtype: 'Watermark', Contents: text('Draft') });
      if (tag) tagAnnots(d, tag, [w]);
    };
    expect(await failureOf('pdfua.annotations.watermark', ua2, 'ua2', watermark())).toBeUndefined();
    expect(await failureOf('pdfua.annotations.watermark', ua2, 'ua2', watermark('Annot'))).toBeUndefined();
    expect(await failureOf('pdfua.annotations.watermark', ua2, 'ua2', watermark('P'))).toMatchObject({ clause: '8.9.2.4.16', examples: [{ context: 'Watermark annotation: enclosed in P, not Annot' }] });
  });
});

describe('PDF/UA-2 annotation order and descriptions (8.9.3.3, 8.9.4.2)', () => {
  it('requires a Tabs entry of A, W or S on pages with annotations (8.9.3.3)', async () => {
    const withTabs = (tabs?: string) => (d: PDFDocument) => {
      addAnnot(d, { Subtype: 'Text', Contents: text('Note') });
      if (tabs) page0(d).set(PDFName.of('Tabs'), PDFName.of(tabs));
      else page0(d).delete(PDFName.of('Tabs'));
    };
    for (const tabs of ['A', 'W', 'S']) expect(await failureOf('pdfua.annotations.tabs', pdfuaSpec(2), 'ua2', withTabs(tabs))).toBeUndefined();
    expect(await failureOf('pdfua.annotations.tabs', pdfuaSpec(2), 'ua2', withTabs('R'))).toMatchObject({ clause: '8.9.3.3', examples: [{ page: 1, context: 'page Tabs R' }] });
    expect((await failureOf('pdfua.annotations.tabs', pdfuaSpec(2), 'ua2', withTabs()))?.examples[0]?.context).toBe('page Tabs (absent)');
  });

  it('requires the Contents of an annotation and the Alt of its element to be identical (8.9.4.2)', async () => {
    const described = (alt: string) => (d: PDFDocument) => tagAnnots(d, 'Annot', [addAnnot(d, { Subtype: 'Text', Contents: text('Reviewer note') })], { Alt: text(alt) });
    expect(await failureOf('pdfua.annotations.contents-alt', pdfuaSpec(2), 'ua2', described('Reviewer note'))).toBeUndefined();
    expect(await failureOf('pdfua.annotations.contents-alt', pdfuaSpec(2), 'ua2', described('Something else'))).toMatchObject({
      clause: '8.9.4.2',
      examples: [{ page: 1, context: 'Text annotation: Contents differs from the Alt of its structure element' }],
    });
  });
});
