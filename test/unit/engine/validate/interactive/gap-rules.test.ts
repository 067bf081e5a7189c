/**
 * Interactive-feature clauses with few or no files in the public corpus:
 * digital signatures (PDF/A-2/3 6.4.3), presentations and requirements
 * (PDF/A-2/3 6.10, 6.11), the UA-1 file header (6.1) and dynamic XFA (7.15),
 * structure destinations (UA-2 8.8), the UA-2 annotation-type requirements
 * (8.9.2.3–8.9.4.2) and form values and signature appearances (8.10.3.3,
 * 8.10.3.5). Each case starts from a fixture that passes the rule and adds the
 * one defect the rule is about.
 */
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, patchBytes, pdfaSpec, pdfuaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tagAnnots } from './tagging';
import { tempFiles } from '../../temp-files';

const files = tempFiles('interactive-gaps');

async function failuresOfBytes(bytes: Uint8Array, profile: ValidateProfileCode) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures;
}

/** The failure of one rule for a fixture built from a spec and an edit, or undefined when the rule passed. */
async function failureOf(ruleId: string, spec: PdfSpec, profile: ValidateProfileCode, edit?: (d: PDFDocument) => unknown) {
  let bytes = await buildPdf(spec);
  if (edit) bytes = await mutatePdf(bytes, edit);
  return (await failuresOfBytes(bytes, profile)).find((f) => f.ruleId === ruleId);
}

const page0 = (d: PDFDocument) => d.getPage(0).node;
const text = (s: string) => PDFString.of(s);
const defined = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)) as never;

function appearance(d: PDFDocument, content = '', resources?: Record<string, unknown>): PDFRef {
  return d.context.register(d.context.stream(content, defined({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10], Resources: resources ? d.context.obj(resources as never) : undefined })));
}

/** Adds an annotation to page 1: a printable Square with a normal appearance unless entries say otherwise. */
function addAnnot(d: PDFDocument, entries: Record<string, unknown> = {}): { ref: PDFRef; dict: PDFDict } {
  const dict = d.context.obj(defined({ Type: 'Annot', Subtype: 'Square', Rect: [50, 50, 150, 150], F: 4, AP: d.context.obj({ N: appearance(d) }), ...entries })) as unknown as PDFDict;
  const ref = d.context.register(dict);
  const annots = page0(d).lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(ref);
  else page0(d).set(PDFName.of('Annots'), d.context.obj([ref]));
  if (!page0(d).has(PDFName.of('Tabs'))) page0(d).set(PDFName.of('Tabs'), PDFName.of('S'));
  return { ref, dict };
}


/** The first structure element below the Document element (the fixture's content). */
function firstContentElement(d: PDFDocument): PDFRef {
  const root = d.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
  const docElem = d.context.lookup(root.get(PDFName.of('K')) as PDFRef) as PDFDict;
  return (docElem.lookup(PDFName.of('K')) as PDFArray).get(0) as PDFRef;
}

// ---------------------------------------------------------------------------
// DER building blocks for a PKCS#7 SignedData object (RFC 2315).
const der = (tag: number, ...content: number[][]): number[] => {
  const body = content.flat();
  const len = body.length < 128 ? [body.length] : body.length < 256 ? [0x81, body.length] : [0x82, body.length >> 8, body.length & 0xff];
  return [tag, ...len, ...body];
};
const SEQ = (...c: number[][]) => der(0x30, ...c);
const SET = (...c: number[][]) => der(0x31, ...c);
const INT = (...v: number[]) => der(0x02, v);
const OID_SIGNED_DATA = der(0x06, [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]);
const OID_DATA = der(0x06, [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]);
const ISSUER = SEQ(SET(SEQ(der(0x06, [0x55, 0x04, 0x03]), der(0x0c, [...Buffer.from('Test CA')]))));
/** A certificate skeleton: tbsCertificate with version, serial, algorithm and issuer. */
const certificate = (serial: number) => SEQ(SEQ(der(0xa0, INT(2)), INT(serial), SEQ(), ISSUER));
const signerInfo = (serial: number) => SEQ(INT(1), SEQ(ISSUER, INT(serial)));
function signedData(opts: { certSerials?: number[]; signerSerials?: number[] } = {}): Uint8Array {
  const certs = opts.certSerials ?? [7];
  const signers = opts.signerSerials ?? [7];
  const sd = SEQ(INT(1), SET(), SEQ(OID_DATA), ...(certs.length ? [der(0xa0, ...certs.map(certificate))] : []), SET(...signers.map(signerInfo)));
  const bytes = Uint8Array.from(SEQ(OID_SIGNED_DATA, der(0xa0, sd)));
  // Signing tools reserve room: the value is padded with zeros.
  const padded = new Uint8Array(bytes.length + 64);
  padded.set(bytes);
  return padded;
}
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();

/**
 * A PDF/A-2b file with one signature field whose signature covers the file as
 * saved: ByteRange [0 b c len-c] around the Contents hexadecimal string.
 * `contents` replaces the PKCS#7 value; `rangeEnd` shifts the end of the range.
 */
async function signedPdf(opts: { contents?: Uint8Array; literalContents?: boolean; rangeEndShift?: number } = {}): Promise<Uint8Array> {
  const value = opts.contents ?? signedData();
  const bytes = await mutatePdf(await buildPdf(pdfaSpec(2, 'B')), (d) => {
    const ctx = d.context;
    const sig = ctx.register(
      ctx.obj({
        Type: 'Sig',
        Filter: 'Adobe.PPKLite',
        SubFilter: 'adbe.pkcs7.detached',
        ByteRange: [1111111111, 2222222222, 3333333333, 4444444444],
        Contents: opts.literalContents ? PDFString.of(Buffer.from(value).toString('latin1')) : PDFHexString.of(hex(value)),
      } as never),
    );
    const widget = addAnnot(d, { Subtype: 'Widget', FT: 'Sig', T: text('Signature1'), V: sig, Rect: [0, 0, 0, 0], AP: undefined, P: d.getPage(0).ref });
    d.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [widget.ref], SigFlags: 3 }));
  });
  const buf = Buffer.from(bytes);
  const marker = opts.literalContents ? '/Contents (' : `<${hex(value)}>`;
  const at = buf.indexOf(marker, 0, 'latin1');
  const b = opts.literalContents ? at + '/Contents '.length : at;
  const c = opts.literalContents ? b + 10 : b + marker.length;
  const pad = (n: number) => String(n).padStart(10, '0');
  let out: Uint8Array = patchBytes(buf, '1111111111', pad(0));
  out = patchBytes(out, '2222222222', pad(b));
  out = patchBytes(out, '3333333333', pad(c));
  return patchBytes(out, '4444444444', pad(buf.length - c + (opts.rangeEndShift ?? 0)));
}

const sigFailure = async (ruleId: string, bytes: Uint8Array, profile: ValidateProfileCode = '2b') => (await failuresOfBytes(bytes, profile)).find((f) => f.ruleId === ruleId);

describe('digital signatures (PDF/A-2 and -3 6.4.3)', () => {
  it('requires the ByteRange to cover the whole file except the Contents hexadecimal string', async () => {
    expect(await sigFailure('pdfa.signatures.byte-range', await signedPdf())).toBeUndefined();
    expect(await sigFailure('pdfa.signatures.byte-range', await signedPdf(), '3b')).toBeUndefined();
    const short = await sigFailure('pdfa.signatures.byte-range', await signedPdf({ rangeEndShift: -10 }));
    expect(short).toMatchObject({ clause: '6.4.3', occurrences: 1, examples: [{ objectNumber: expect.any(Number), context: expect.stringMatching(/^signature field "Signature1": ByteRange \[0 \d+ \d+ \d+\] ends at byte \d+, not at the end of the file/) }] });
    const literal = await sigFailure('pdfa.signatures.byte-range', await signedPdf({ literalContents: true }));
    expect(literal?.examples[0]?.context).toBe('signature field "Signature1": Contents is not a hexadecimal string');
  });

  it('accepts a range that ends at an earlier revision: bytes appended by a later incremental update', async () => {
    const signed = await signedPdf();
    const update = Buffer.from('\n% an incremental update would follow here\n');
    expect(await sigFailure('pdfa.signatures.byte-range', Buffer.concat([signed, update]))).toBeUndefined();
  });

  it("requires the PKCS#7 object to include the signer's certificate", async () => {
    expect(await sigFailure('pdfa.signatures.signing-certificate', await signedPdf())).toBeUndefined();
    const noCerts = await sigFailure('pdfa.signatures.signing-certificate', await signedPdf({ contents: signedData({ certSerials: [] }) }));
    expect(noCerts).toMatchObject({ clause: '6.4.3', occurrences: 1, examples: [{ context: 'signature field "Signature1": the PKCS#7 object does not include the signing certificate' }] });
    // A certificate is there, but not the one the signer names.
    const otherCert = await sigFailure('pdfa.signatures.signing-certificate', await signedPdf({ contents: signedData({ certSerials: [8] }) }));
    expect(otherCert?.clause).toBe('6.4.3');
    const notPkcs7 = await sigFailure('pdfa.signatures.signing-certificate', await signedPdf({ contents: Uint8Array.from([1, 2, 3, 4]) }));
    expect(notPkcs7?.examples[0]?.context).toBe('signature field "Signature1": Contents is not a PKCS#7 SignedData object');
  });

  it('requires exactly one signer', async () => {
    expect(await sigFailure('pdfa.signatures.single-signer', await signedPdf())).toBeUndefined();
    const two = await sigFailure('pdfa.signatures.single-signer', await signedPdf({ contents: signedData({ certSerials: [7, 9], signerSerials: [7, 9] }) }));
    expect(two).toMatchObject({ clause: '6.4.3', occurrences: 1, examples: [{ context: 'signature field "Signature1": 2 SignerInfo structures' }] });
  });
});

describe('presentations and requirements (PDF/A-2 and -3 6.10, 6.11)', () => {
  it('forbids AlternatePresentations in the name dictionary (6.10)', async () => {
    expect(await failureOf('pdfa.alternate-presentations', pdfaSpec(2, 'B'), '2b')).toBeUndefined();
    const edit = (d: PDFDocument) => d.catalog.set(PDFName.of('Names'), d.context.obj({ AlternatePresentations: d.context.obj({ Names: [] }) }));
    expect(await failureOf('pdfa.alternate-presentations', pdfaSpec(2, 'B'), '2b', edit)).toMatchObject({ clause: '6.10', examples: [{ context: 'name dictionary has AlternatePresentations' }] });
    expect((await failureOf('pdfa.alternate-presentations', pdfaSpec(3, 'B'), '3b', edit))?.clause).toBe('6.10');
  });

  it('forbids PresSteps in page dictionaries (6.10)', async () => {
    const edit = (d: PDFDocument) => page0(d).set(PDFName.of('PresSteps'), d.context.obj({ Type: 'NavNode' }));
    expect(await failureOf('pdfa.page-transitions', pdfaSpec(2, 'B'), '2b')).toBeUndefined();
    expect(await failureOf('pdfa.page-transitions', pdfaSpec(2, 'B'), '2b', edit)).toMatchObject({ clause: '6.10', examples: [{ page: 1, context: 'page has PresSteps' }] });
  });

  it('forbids the Requirements key in the catalog (6.11)', async () => {
    const edit = (d: PDFDocument) => d.catalog.set(PDFName.of('Requirements'), d.context.obj([d.context.obj({ Type: 'Requirement', S: 'EnableJavaScripts' })]));
    expect(await failureOf('pdfa.catalog.requirements', pdfaSpec(2, 'B'), '2b')).toBeUndefined();
    expect(await failureOf('pdfa.catalog.requirements', pdfaSpec(2, 'B'), '2b', edit)).toMatchObject({ clause: '6.11', examples: [{ context: 'catalog has Requirements' }] });
    expect((await failureOf('pdfa.catalog.requirements', pdfaSpec(3, 'B'), '3b', edit))?.clause).toBe('6.11');
  });
});

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
