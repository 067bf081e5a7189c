/**
 * PDF/UA form rules (lambdas/engine/validate/interactive/ua-form-rules.ts):
 * dynamic XFA (PDF/UA-1 7.15, beside the UA-1 file header of 6.1, judged in
 * lambdas/engine/validate/file-structure/syntax-rules.ts), and form values and
 * signature appearances (PDF/UA-2 8.10.3.3, 8.10.3.5).
 */
import { describe, expect, it } from 'vitest';
import { PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { buildPdf, patchBytes, pdfuaSpec } from '../../../../support/pdf-fixtures';
import { addAnnotWithTabs as addAnnot, appearance, failureOf, failuresOfBytes, text } from './annotation-fixtures';
import { tagAnnots } from './tagging';

describe('PDF/UA-1 file header (6.1) and dynamic XFA (7.15)', () => {
  it('requires a %PDF-1.n header with n from 0 to 7', async () => {
    const bytes = await buildPdf(pdfuaSpec(1));
    expect((await failuresOfBytes(bytes, 'ua1')).find((f) => f.ruleId === 'pdfa.file.header')).toBeUndefined();
    const header = Buffer.from(bytes.subarray(0, 8)).toString('latin1');
    const f = (await failuresOfBytes(patchBytes(bytes, header, '%PDF-1.9'), 'ua1')).find((x) => x.ruleId === 'pdfa.file.header');
    expect(f).toMatchObject({ clause: '6.1', examples: [{ context: 'header "%PDF-1.9" at byte 0' }] });
  });

  it('forbids XFA forms that require dynamic rendering, and NeedsRendering', async () => {
    const xfa = (config: string) => (d: PDFDocument) => {
      const stream = d.context.register(d.context.stream(`<config xmlns="http://www.xfa.org/schema/xci/3.0/"><acrobat><acrobat7>${config}</acrobat7></acrobat></config>`));
      d.catalog.set(PDFName.of('AcroForm'), d.context.obj({ Fields: [], XFA: [text('config'), stream] }));
    };
    expect(await failureOf('pdfua.forms.dynamic-xfa', pdfuaSpec(1), 'ua1', xfa('<dynamicRender>forbidden</dynamicRender>'))).toBeUndefined();
    const dynamic = await failureOf('pdfua.forms.dynamic-xfa', pdfuaSpec(1), 'ua1', xfa('<dynamicRender>required</dynamicRender>'));
    expect(dynamic).toMatchObject({ clause: '7.15', examples: [{ context: 'XFA configuration requires dynamic rendering' }] });
    const needs = await failureOf('pdfua.forms.dynamic-xfa', pdfuaSpec(1), 'ua1', (d) => d.catalog.set(PDFName.of('NeedsRendering'), d.context.obj(true)));
    expect(needs?.examples[0]?.context).toBe('catalog NeedsRendering is true');
  });
});

describe('PDF/UA-2 form values and signature appearances (8.10.3.3, 8.10.3.5)', () => {
  it('requires a V textually equivalent to the RV of a text field (8.10.3.3)', async () => {
    const field = (entries: Record<string, unknown>) => (d: PDFDocument) => {
      const w = addAnnot(d, { Subtype: 'Widget', FT: 'Tx', T: text('comment'), TU: text('Comment'), Contents: text('Comment'), ...entries });
      d.catalog.set(PDFName.of('AcroForm'), d.context.obj({ Fields: [w.ref] }));
      tagAnnots(d, 'Form', [w]);
    };
    const rv = text('<body xmlns="http://www.w3.org/1999/xhtml"><p>All <i>good</i></p></body>');
    expect(await failureOf('pdfua.forms.rich-text-value', pdfuaSpec(2), 'ua2', field({ RV: rv, V: text('All good') }))).toBeUndefined();
    expect(await failureOf('pdfua.forms.rich-text-value', pdfuaSpec(2), 'ua2', field({ RV: rv }))).toMatchObject({ clause: '8.10.3.3', examples: [{ context: 'text field "comment": RV without V' }] });
    expect((await failureOf('pdfua.forms.rich-text-value', pdfuaSpec(2), 'ua2', field({ RV: rv, V: text('All bad') })))?.examples[0]?.context).toBe('text field "comment": RV and V differ in text');
  });

  it('requires alternative text for a graphic in a signature appearance (8.10.3.5)', async () => {
    const signature = (content: string, alt?: string) => (d: PDFDocument) => {
      const image = d.context.register(d.context.stream(new Uint8Array(3), { Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, ColorSpace: 'DeviceRGB', BitsPerComponent: 8 }));
      const ap = appearance(d, content, { XObject: { Im0: image } });
      const w = addAnnot(d, { Subtype: 'Widget', FT: 'Sig', T: text('sig'), TU: text('Signature'), Contents: text('Signature'), AP: d.context.obj({ N: ap }) });
      d.catalog.set(PDFName.of('AcroForm'), d.context.obj({ Fields: [w.ref], SigFlags: 1 }));
      tagAnnots(d, 'Form', [w], alt ? { Alt: text(alt) } : {});
    };
    expect(await failureOf('pdfua.forms.signature-graphic-alt', pdfuaSpec(2), 'ua2', signature('q 10 0 0 10 0 0 cm /Im0 Do Q'))).toMatchObject({
      clause: '8.10.3.5',
      occurrences: 1,
      examples: [{ page: 1, context: 'Widget annotation: image XObject /Im0 in the signature appearance has no alternative text' }],
    });
    expect(await failureOf('pdfua.forms.signature-graphic-alt', pdfuaSpec(2), 'ua2', signature('/Span <</Alt (Handwritten signature of J. Doe)>> BDC q 10 0 0 10 0 0 cm /Im0 Do Q EMC'))).toBeUndefined();
    expect(await failureOf('pdfua.forms.signature-graphic-alt', pdfuaSpec(2), 'ua2', signature('q 10 0 0 10 0 0 cm /Im0 Do Q', 'Signature of J. Doe'))).toBeUndefined();
    // Text and line art in the appearance are not graphics that need a description.
    expect(await failureOf('pdfua.forms.signature-graphic-alt', pdfuaSpec(2), 'ua2', signature('0 0 m 10 10 l S'))).toBeUndefined();
  });
});
