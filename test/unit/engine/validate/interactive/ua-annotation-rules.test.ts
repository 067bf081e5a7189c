/**
 * PDF/UA annotation rules (lambdas/engine/validate/interactive/ua-annotation-rules.ts):
 * TrapNet annotations and media clips (PDF/UA-1 7.18.2, 7.18.6.2), widgets in
 * the structure tree (PDF/UA-2 8.10) and encryption permissions (PDF/UA-1 7.16).
 */
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { pdfuaSpec } from '../../../../support/pdf-fixtures';
import { addAnnot, failureOf, fileSpec, text } from './annotation-fixtures';
import { tagAnnots } from './tagging';

describe('PDF/UA-1 annotation kinds and media', () => {
  it('forbids visible TrapNet annotations (7.18.2)', async () => {
    const f = await failureOf('pdfua.annotations.trap-net', pdfuaSpec(1), 'ua1', (d) => addAnnot(d, { Subtype: 'TrapNet' }));
    expect(f).toMatchObject({ clause: '7.18.2', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: 'TrapNet annotation' }] });
    // A hidden one is never presented.
    expect(await failureOf('pdfua.annotations.trap-net', pdfuaSpec(1), 'ua1', (d) => addAnnot(d, { Subtype: 'TrapNet', F: 2 }))).toBeUndefined();
  });

  it('requires a content type and a text alternative on media clips (7.18.6.2)', async () => {
    /** A Screen annotation playing a media clip through a Rendition action. */
    const screen = (clip: Record<string, unknown>) => (d: PDFDocument) => {
      const clipDict = d.context.register(d.context.obj({ Type: 'MediaClip', S: 'MCD', D: fileSpec(d), ...clip } as never));
      const rendition = d.context.obj({ Type: 'Rendition', S: 'MR', C: clipDict });
      const action = d.context.obj({ Type: 'Action', S: 'Rendition', OP: 0, R: rendition });
      const annot = addAnnot(d, { Subtype: 'Screen', Contents: text('A short film'), A: action });
      tagAnnots(d, 'Annot', [annot]);
    };
    const described = { CT: text('video/mp4'), Alt: [text('en'), text('A cat chasing a laser dot')] };
    expect(await failureOf('pdfua.media.clip-description', pdfuaSpec(1), 'ua1', screen(described))).toBeUndefined();
    const noAlt = await failureOf('pdfua.media.clip-description', pdfuaSpec(1), 'ua1', screen({ CT: described.CT }));
    expect(noAlt).toMatchObject({ clause: '7.18.6.2', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: 'media clip lacks a valid Alt' }] });
    const noCT = await failureOf('pdfua.media.clip-description', pdfuaSpec(1), 'ua1', screen({ Alt: described.Alt }));
    expect(noCT?.examples[0]?.context).toBe('media clip lacks CT');
  });
});

describe('PDF/UA-2 widgets in the structure tree (8.10)', () => {
  const widget = (d: PDFDocument, entries: Record<string, unknown> = {}) =>
    addAnnot(d, { Subtype: 'Widget', FT: 'Tx', T: text('name'), TU: text('Your name'), Contents: text('Your name'), ...entries });

  it('requires a tagged widget to be enclosed in a Form element', async () => {
    expect(await failureOf('pdfua.forms.enclosed', pdfuaSpec(2), 'ua2', (d) => tagAnnots(d, 'Form', [widget(d)]))).toBeUndefined();
    const inSpan = await failureOf('pdfua.forms.enclosed', pdfuaSpec(2), 'ua2', (d) => tagAnnots(d, 'Span', [widget(d)]));
    expect(inSpan).toMatchObject({ clause: '8.10.1', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: 'Widget annotation: tagged Span, not Form' }] });
  });

  it('allows at most one widget in a Form element', async () => {
    const two = await failureOf('pdfua.forms.single-widget', pdfuaSpec(2), 'ua2', (d) => tagAnnots(d, 'Form', [widget(d), widget(d, { T: text('other') })]));
    expect(two).toMatchObject({ clause: '8.10.1', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: 'Form element encloses 2 widgets' }] });
    expect(await failureOf('pdfua.forms.single-widget', pdfuaSpec(2), 'ua2', (d) => [tagAnnots(d, 'Form', [widget(d)]), tagAnnots(d, 'Form', [widget(d, { T: text('other') })])])).toBeUndefined();
  });

  it('requires Contents on a widget without a label, and on any widget with additional actions (8.10.2.3)', async () => {
    expect(await failureOf('pdfua.forms.contents', pdfuaSpec(2), 'ua2', (d) => tagAnnots(d, 'Form', [widget(d)]))).toBeUndefined();
    const unlabelled = await failureOf('pdfua.forms.contents', pdfuaSpec(2), 'ua2', (d) => tagAnnots(d, 'Form', [widget(d, { Contents: undefined })]));
    expect(unlabelled).toMatchObject({ clause: '8.10.2.3', occurrences: 1, examples: [{ page: 1, context: 'Widget annotation: no label and no Contents' }] });
    /** A Form element holding a label element and the widget. */
    const labelled = (entries: Record<string, unknown>) => (d: PDFDocument) => {
      const form = tagAnnots(d, 'Form', [widget(d, { Contents: undefined, ...entries })]);
      const lbl = d.context.register(d.context.obj({ Type: 'StructElem', S: 'Lbl', P: d.context.getObjectRef(form)!, ActualText: text('Name') } as never));
      (form.lookup(PDFName.of('K')) as PDFArray).push(lbl);
    };
    expect(await failureOf('pdfua.forms.contents', pdfuaSpec(2), 'ua2', labelled({}))).toBeUndefined();
    const withActions = await failureOf('pdfua.forms.contents', pdfuaSpec(2), 'ua2', (d) => labelled({ AA: d.context.obj({ K: d.context.obj({ S: 'JavaScript', JS: text('1;') }) }) })(d));
    expect(withActions?.examples[0]?.context).toBe('Widget annotation: has additional actions but no Contents');
  });
});

describe('encryption (PDF/UA-1 7.16)', () => {
  it('requires an encrypted file to permit content extraction for accessibility', async () => {
    const denied = await failureOf('pdfua.security.accessibility', pdfuaSpec(1, { encrypt: { ownerPassword: 'owner' } }), 'ua1');
    expect(denied).toMatchObject({ clause: '7.16', occurrences: 1, examples: [{ context: 'P bit 10 (content extraction for accessibility) is clear' }] });
    const allowed = await failureOf('pdfua.security.accessibility', pdfuaSpec(1), 'ua1', (d) =>
      d.encrypt({ ownerPassword: 'owner', userPassword: '', permissions: { contentAccessibility: true } } as never),
    );
    expect(allowed).toBeUndefined();
    expect(await failureOf('pdfua.security.accessibility', pdfuaSpec(1), 'ua1')).toBeUndefined();
  });
});
