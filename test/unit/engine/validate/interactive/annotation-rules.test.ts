/**
 * PDF/A annotation rules (lambdas/engine/validate/interactive/annotation-rules.ts):
 * 3D data (PDF/A-4e 6.3.1) and annotation colours (PDF/A-1 6.5.3), with
 * NeedsRendering (PDF/A-2..4 6.4.2, judged in form-rules.ts) beside them.
 */
import { describe, expect, it } from 'vitest';
import { getDefaultSRGBProfile, PDFArray, PDFDict, PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { pdfaSpec } from '../../../../support/pdf-fixtures';
import { addAnnot, failureOf } from './annotation-fixtures';

describe('PDF/A forms, 3D data and annotation colours', () => {
  it('forbids NeedsRendering true in the catalog (PDF/A-2, -3, -4 6.4.2)', async () => {
    const needs = (value: boolean) => (d: PDFDocument) => d.catalog.set(PDFName.of('NeedsRendering'), d.context.obj(value));
    expect(await failureOf('pdfa.forms.needs-rendering', pdfaSpec(2, 'B'), '2b', needs(true))).toMatchObject({ clause: '6.4.2', examples: [{ context: 'catalog NeedsRendering is true' }] });
    expect(await failureOf('pdfa.forms.needs-rendering', pdfaSpec(4), '4', needs(true))).toMatchObject({ clause: '6.4.2' });
    // false asks a viewer for nothing, like an absent key.
    expect(await failureOf('pdfa.forms.needs-rendering', pdfaSpec(2, 'B'), '2b', needs(false))).toBeUndefined();
    expect(await failureOf('pdfa.forms.needs-rendering', pdfaSpec(3, 'B'), '3b')).toBeUndefined();
  });

  it('requires the 3D stream of a 3D annotation to hold U3D or PRC data (PDF/A-4e 6.3.1)', async () => {
    const threeD = (subtype: string) => (d: PDFDocument) => addAnnot(d, { Subtype: '3D', '3DD': d.context.register(d.context.stream('data', { Type: '3D', Subtype: subtype })) });
    expect(await failureOf('pdfa.annotations.3d-data', pdfaSpec(4, 'E'), '4e', threeD('U3D'))).toBeUndefined();
    expect(await failureOf('pdfa.annotations.3d-data', pdfaSpec(4, 'E'), '4e', threeD('PRC'))).toBeUndefined();
    const other = await failureOf('pdfa.annotations.3d-data', pdfaSpec(4, 'E'), '4e', threeD('OBJ'));
    expect(other).toMatchObject({ clause: '6.3.1', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: '3D annotation: 3D data of type OBJ' }] });
  });

  it('allows C and IC annotation colours in PDF/A-1 only with an RGB output intent (6.5.3)', async () => {
    const coloured = (d: PDFDocument) => addAnnot(d, { C: [1, 0, 0], IC: [0, 0, 1] });
    expect(await failureOf('pdfa.annotations.colour', pdfaSpec(1, 'B'), '1b', coloured)).toBeUndefined();
    // The same annotation when the output intent profile describes a CMYK device.
    const cmykIntent = (d: PDFDocument) => {
      coloured(d);
      const icc = Uint8Array.from(getDefaultSRGBProfile());
      icc.set(Buffer.from('CMYK', 'latin1'), 16);
      const intents = d.catalog.lookup(PDFName.of('OutputIntents')) as PDFArray;
      (intents.lookup(0) as PDFDict).set(PDFName.of('DestOutputProfile'), d.context.register(d.context.stream(icc, { N: 4 })));
    };
    const f = await failureOf('pdfa.annotations.colour', pdfaSpec(1, 'B'), '1b', cmykIntent);
    expect(f).toMatchObject({ clause: '6.5.3', occurrences: 1, examples: [{ page: 1, objectNumber: expect.any(Number), context: 'Square annotation: C colour without an RGB output intent' }] });
  });
});
