/**
 * PDF/A annotation rules (lambdas/engine/validate/interactive/annotation-rules.ts):
 * 3D data (PDF/A-4e 6.3.1), annotation colours (PDF/A-1 6.5.3) and the
 * appearances of button widgets (PDF/A-1 6.5.3, PDF/A-2..4 6.3.3), with
 * NeedsRendering (PDF/A-2..4 6.4.2, judged in form-rules.ts) beside them.
 */
import { describe, expect, it } from 'vitest';
import { getDefaultSRGBProfile, PDFArray, PDFDict, PDFName, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { pdfaSpec } from '../../../../support/pdf-fixtures';
import { addAnnot, appearance, failureOf } from './annotation-fixtures';

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
    // C and IC that are not arrays are no colours (veraPDF reads them as absent).
    const notArrays = (d: PDFDocument) => {
      cmykIntent(d);
      const annot = (d.getPage(0).node.lookup(PDFName.of('Annots')) as PDFArray).lookup(0) as PDFDict;
      annot.set(PDFName.of('C'), d.context.obj(0));
      annot.set(PDFName.of('IC'), d.context.obj(null));
    };
    expect(await failureOf('pdfa.annotations.colour', pdfaSpec(1, 'B'), '1b', notArrays)).toBeUndefined();
  });
});

describe('appearances of button widgets (PDF/A-1 6.5.3, PDF/A-2..4 6.3.3)', () => {
  const PUSH_BUTTON = 65536;
  /** A push button whose widget is merged with its field, with the normal appearance `n`. */
  const pushButton = (n: (d: PDFDocument) => unknown) => (d: PDFDocument) =>
    addAnnot(d, { Subtype: 'Widget', FT: 'Btn', Ff: PUSH_BUTTON, T: PDFString.of('go'), AP: d.context.obj({ N: n(d) } as never) });
  const states = (d: PDFDocument) => d.context.obj({ On: appearance(d) });

  it('asks a subdictionary of a push button too, as veraPDF does (ISO 19005-1 Cor.2, TWG: even with a single state)', async () => {
    expect(await failureOf('pdfa.annotations.appearance-button', pdfaSpec(1, 'B'), '1b', pushButton(appearance))).toMatchObject({ clause: '6.5.3', examples: [{ context: 'Widget annotation: button N is not an appearance subdictionary' }] });
    expect(await failureOf('pdfa.annotations.appearance-button', pdfaSpec(2, 'B'), '2b', pushButton(appearance))).toMatchObject({ clause: '6.3.3' });
    expect(await failureOf('pdfa.annotations.appearance-button', pdfaSpec(1, 'B'), '1b', pushButton(states))).toBeUndefined();
    expect(await failureOf('pdfa.annotations.appearance-stream', pdfaSpec(1, 'B'), '1b', pushButton(states))).toBeUndefined();
  });

  it('takes FT from the parent field when the widget has none', async () => {
    const kidOf = (ft: string, n: (d: PDFDocument) => unknown) => (d: PDFDocument) => {
      const field = d.context.obj({ FT: ft, T: PDFString.of('f'), Kids: [] }) as unknown as PDFDict;
      const { ref } = addAnnot(d, { Subtype: 'Widget', Parent: d.context.register(field), AP: d.context.obj({ N: n(d) } as never) });
      (field.lookup(PDFName.of('Kids')) as PDFArray).push(ref);
    };
    expect(await failureOf('pdfa.annotations.appearance-button', pdfaSpec(1, 'B'), '1b', kidOf('Btn', appearance))).toMatchObject({ clause: '6.5.3' });
    expect(await failureOf('pdfa.annotations.appearance-button', pdfaSpec(1, 'B'), '1b', kidOf('Btn', states))).toBeUndefined();
    expect(await failureOf('pdfa.annotations.appearance-stream', pdfaSpec(1, 'B'), '1b', kidOf('Tx', states))).toMatchObject({ clause: '6.5.3' });
  });

  it('passes a subdictionary holding at least one appearance stream, other entries beside it passed over (veraPDF containsAppearances)', async () => {
    const mixed = (d: PDFDocument) => d.context.obj({ On: appearance(d), Off: 0 });
    expect(await failureOf('pdfa.annotations.appearance-button', pdfaSpec(1, 'B'), '1b', pushButton(mixed))).toBeUndefined();
    expect(await failureOf('pdfa.annotations.appearance-button', pdfaSpec(1, 'B'), '1b', pushButton((d) => d.context.obj({ Off: 0 })))).toMatchObject({ clause: '6.5.3' });
    expect(await failureOf('pdfa.annotations.appearance-button', pdfaSpec(4), '4', pushButton((d) => d.context.obj({})))).toMatchObject({ clause: '6.3.3' });
  });
});

describe('the appearance dictionary itself (PDF/A-1 6.5.3 and 6.9, PDF/A-2..4 6.3.3)', () => {
  it('reads an entry written as null as no entry', async () => {
    const withNullDown = (d: PDFDocument) => addAnnot(d, { AP: d.context.obj({ N: appearance(d), D: null } as never) });
    expect(await failureOf('pdfa.annotations.appearance-normal-only', pdfaSpec(1, 'B'), '1b', withNullDown)).toBeUndefined();
    const withDown = (d: PDFDocument) => addAnnot(d, { AP: d.context.obj({ N: appearance(d), D: appearance(d) }) });
    expect(await failureOf('pdfa.annotations.appearance-normal-only', pdfaSpec(1, 'B'), '1b', withDown)).toMatchObject({ clause: '6.5.3', examples: [{ context: 'Square annotation: AP has N, D' }] });
  });

  it('reads an AP that is not a dictionary as no AP: nothing to judge in PDF/A-1 unless a widget, no appearance in PDF/A-2', async () => {
    const streamAP = (subtype: string) => (d: PDFDocument) => addAnnot(d, { Subtype: subtype, ...(subtype === 'Widget' ? { FT: 'Tx', T: PDFString.of('t') } : {}), AP: appearance(d) });
    expect(await failureOf('pdfa.annotations.appearance-normal-only', pdfaSpec(1, 'B'), '1b', streamAP('Square'))).toBeUndefined();
    expect(await failureOf('pdfa.forms.widget-appearance', pdfaSpec(1, 'B'), '1b', streamAP('Widget'))).toMatchObject({ clause: '6.9', examples: [{ context: 'Widget annotation: AP is not a dictionary' }] });
    expect(await failureOf('pdfa.annotations.appearance-present', pdfaSpec(2, 'B'), '2b', streamAP('Square'))).toMatchObject({ clause: '6.3.3', examples: [{ context: 'Square annotation: AP is not a dictionary' }] });
    expect(await failureOf('pdfa.annotations.appearance-present', pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d))).toBeUndefined();
  });
});
