/**
 * Interactive-feature rules not covered elsewhere: embedded files and file
 * attachments (PDF/UA-1 7.11 and 7.18.7, PDF/UA-2 8.9.2.4.10), NeedsRendering
 * (PDF/A-2..4 6.4.2), 3D data (PDF/A-4e 6.3.1), annotation colours (PDF/A-1
 * 6.5.3), TrapNet annotations and media clips (PDF/UA-1 7.18.2, 7.18.6.2),
 * widgets in the structure tree (PDF/UA-2 8.10) and encryption permissions
 * (PDF/UA-1 7.16). Each case starts from a fixture that passes every rule of
 * its profile and adds the one defect the rule is about.
 */
import { describe, expect, it } from 'vitest';
import { getDefaultSRGBProfile, PDFArray, PDFDict, PDFName, PDFString, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfaSpec, pdfuaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tagAnnots } from './tagging';
import { tempFiles } from '../../temp-files';

const files = tempFiles('interactive-remaining');

/** Every failure of a fixture built from a spec and an edit, validated against one profile. */
async function failuresOf(spec: PdfSpec, profile: ValidateProfileCode, edit?: (d: PDFDocument) => unknown) {
  let bytes = await buildPdf(spec);
  if (edit) bytes = await mutatePdf(bytes, edit);
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures;
}

/** The failure of one rule, or undefined when the rule passed. */
async function failureOf(ruleId: string, spec: PdfSpec, profile: ValidateProfileCode, edit?: (d: PDFDocument) => unknown) {
  return (await failuresOf(spec, profile, edit)).find((f) => f.ruleId === ruleId);
}

const page0 = (d: PDFDocument) => d.getPage(0).node;
const text = (s: string) => PDFString.of(s);
/** Entries without those given as undefined (to leave a key out). */
const defined = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)) as never;

/** An appearance stream (an empty form XObject). */
function appearance(d: PDFDocument): PDFRef {
  return d.context.register(d.context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10] }));
}

/** Adds an annotation to page 1: a printable Square with a normal appearance unless entries say otherwise. */
function addAnnot(d: PDFDocument, entries: Record<string, unknown> = {}): { ref: PDFRef; dict: PDFDict } {
  const dict = d.context.obj(defined({ Type: 'Annot', Subtype: 'Square', Rect: [50, 50, 150, 150], F: 4, AP: d.context.obj({ N: appearance(d) }), ...entries })) as unknown as PDFDict;
  const ref = d.context.register(dict);
  const annots = page0(d).lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(ref);
  else page0(d).set(PDFName.of('Annots'), d.context.obj([ref]));
  return { ref, dict };
}

/** A file specification embedding a small text file; entries override or add keys. */
function fileSpec(d: PDFDocument, entries: Record<string, unknown> = {}): PDFRef {
  const ef = d.context.register(d.context.stream('hello', { Type: 'EmbeddedFile', Subtype: 'text/plain' }));
  return d.context.register(d.context.obj(defined({ Type: 'Filespec', F: text('notes.txt'), UF: text('notes.txt'), Desc: text('Notes'), EF: d.context.obj({ F: ef, UF: ef }), ...entries })));
}


/** The file specification of the fixture's (only) embedded file. */
function embeddedFileSpec(d: PDFDocument): PDFDict {
  const tree = (d.catalog.lookup(PDFName.of('Names')) as PDFDict).lookup(PDFName.of('EmbeddedFiles')) as PDFDict;
  return (tree.lookup(PDFName.of('Names')) as PDFArray).lookup(1) as PDFDict;
}

const attachment = { name: 'notes.txt', bytes: Buffer.from('hello'), mimeType: 'text/plain', afRelationship: true };

describe('embedded files and file attachments (PDF/UA)', () => {
  it('requires non-empty F and UF names on every embedded file (UA-1 7.11)', async () => {
    const spec = pdfuaSpec(1, { embeddedFile: attachment });
    expect(await failureOf('pdfua.embedded-files.names', spec, 'ua1')).toBeUndefined();
    const noUF = await failureOf('pdfua.embedded-files.names', spec, 'ua1', (d) => embeddedFileSpec(d).delete(PDFName.of('UF')));
    expect(noUF).toMatchObject({ clause: '7.11', occurrences: 1, examples: [{ context: 'embedded file "notes.txt" lacks a non-empty UF' }] });
    // An empty name tells a reader nothing: it counts as missing.
    const emptyF = await failureOf('pdfua.embedded-files.names', spec, 'ua1', (d) => embeddedFileSpec(d).set(PDFName.of('F'), text('')));
    expect(emptyF?.examples[0]?.context).toMatch(/lacks a non-empty F$/);
  });

  it('requires an AFRelationship in the file specification of a FileAttachment annotation (UA-2 8.9.2.4.10)', async () => {
    const withRelationship = await failureOf('pdfua.file-attachments.relationship', pdfuaSpec(2), 'ua2', (d) =>
      addAnnot(d, { Subtype: 'FileAttachment', Contents: text('Notes'), FS: fileSpec(d, { AFRelationship: PDFName.of('Supplement') }) }),
    );
    expect(withRelationship).toBeUndefined();
    const without = await failureOf('pdfua.file-attachments.relationship', pdfuaSpec(2), 'ua2', (d) => addAnnot(d, { Subtype: 'FileAttachment', Contents: text('Notes'), FS: fileSpec(d) }));
    expect(without).toMatchObject({
      clause: '8.9.2.4.10',
      occurrences: 1,
      examples: [{ page: 1, objectNumber: expect.any(Number), context: 'FileAttachment annotation: file specification has no AFRelationship' }],
    });
  });

  it('requires non-empty F and UF in the file specification of a FileAttachment annotation (UA-1 7.18.7)', async () => {
    const named = await failureOf('pdfua.file-attachments.names', pdfuaSpec(1), 'ua1', (d) => addAnnot(d, { Subtype: 'FileAttachment', Contents: text('Notes'), FS: fileSpec(d) }));
    expect(named).toBeUndefined();
    const unnamed = await failureOf('pdfua.file-attachments.names', pdfuaSpec(1), 'ua1', (d) =>
      addAnnot(d, { Subtype: 'FileAttachment', Contents: text('Notes'), FS: fileSpec(d, { UF: undefined, F: text('') }) }),
    );
    expect(unnamed).toMatchObject({ clause: '7.18.7', occurrences: 1, examples: [{ page: 1, context: 'FileAttachment annotation: file specification lacks a non-empty F or UF' }] });
  });
});

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
