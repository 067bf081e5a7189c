import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFName, PDFStream, PDFString } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../step-definitions/catalogue';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { rulesFor, validate } from '../../../../lambdas/engine/validate/index';
import { ALL_RULES } from '../../../../lambdas/engine/validate/rules';
import { standardProfile } from '../../../../lambdas/engine/validate/profiles';
import { buildPdf, garbageAfterHeader, mutatePdf, patchBytes, pdfaSpec, pdfuaSpec, xmpPacket, type PdfSpec } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('validate');

async function validateBytes(bytes: Uint8Array, profiles: ValidateProfileCode[]) {
  return validate({ path: files.write(bytes, 'pdf'), profiles });
}
const ruleIds = (r: Awaited<ReturnType<typeof validate>>['profiles'][number]) => r.failures.map((f) => f.ruleId);

/** Edits helpers for defects the builder has no option for. */
const page0 = (doc: Parameters<Parameters<typeof mutatePdf>[1]>[0]) => doc.getPage(0).node;
const resourcesOf = (doc: Parameters<Parameters<typeof mutatePdf>[1]>[0]) => page0(doc).lookup(PDFName.of('Resources')) as PDFDict;
/** A graphics state GS9 with these entries, applied by the page content (PDF/A judges what content uses). */
function addExtGState(doc: Parameters<Parameters<typeof mutatePdf>[1]>[0], entries: Record<string, unknown>) {
  resourcesOf(doc).set(PDFName.of('ExtGState'), doc.context.obj({ GS9: doc.context.obj({ Type: 'ExtGState', ...entries } as never) }));
  const page = page0(doc);
  page.set(PDFName.of('Contents'), doc.context.obj([page.get(PDFName.of('Contents'))!, doc.context.register(doc.context.stream('q /GS9 gs 0 0 10 10 re f Q'))]));
}
function firstFont(doc: Parameters<Parameters<typeof mutatePdf>[1]>[0]): PDFDict {
  const fonts = resourcesOf(doc).lookup(PDFName.of('Font')) as PDFDict;
  return fonts.lookup(PDFName.of('F1')) as PDFDict;
}
function embeddedFileSpec(doc: Parameters<Parameters<typeof mutatePdf>[1]>[0]): PDFDict {
  const tree = (doc.catalog.lookup(PDFName.of('Names')) as PDFDict).lookup(PDFName.of('EmbeddedFiles')) as PDFDict;
  return (tree.lookup(PDFName.of('Names')) as PDFArray).lookup(1) as PDFDict;
}

const textAttachment = { name: 'notes.txt', bytes: Buffer.from('hello'), mimeType: 'text/plain' };

interface Violation {
  rule: string;
  profile: ValidateProfileCode;
  clause: string;
  what: string;
  bytes: () => Promise<Uint8Array>;
}

const build = (spec: PdfSpec) => () => buildPdf(spec);
const mutate = (spec: PdfSpec, change: Parameters<typeof mutatePdf>[1]) => async () => mutatePdf(await buildPdf(spec), change);

const VIOLATIONS: Violation[] = [
  { rule: 'pdfa.file.header', profile: '2b', clause: '6.1.2', what: 'a PDF 2.0 header in a PDF/A-2 file', bytes: build(pdfaSpec(2, 'B', { version: '2.0' })) },
  { rule: 'pdfa.file.header', profile: '4', clause: '6.1.2', what: 'a PDF 1.7 header in a PDF/A-4 file', bytes: build(pdfaSpec(4, undefined, { version: '1.7' })) },
  { rule: 'pdfa.file.binary-comment', profile: '2b', clause: '6.1.2', what: 'no binary comment after the header', bytes: async () => patchBytes(await buildPdf(pdfaSpec(2, 'B')), '\n%\x81\x81\x81\x81', '\n%ABCD') },
  { rule: 'pdfa.trailer.id', profile: '1b', clause: '6.1.3', what: 'no trailer ID', bytes: build(pdfaSpec(1, 'B', { trailerId: false })) },
  { rule: 'pdfa.trailer.encrypt', profile: '2b', clause: '6.1.3', what: 'encryption with an owner password', bytes: build(pdfaSpec(2, 'B', { encrypt: { ownerPassword: 'owner' } })) },
  { rule: 'pdfa.optional-content', profile: '1b', clause: '6.1.13', what: 'optional content in PDF/A-1', bytes: build(pdfaSpec(1, 'B', { optionalContent: true })) },
  { rule: 'pdfa.embedded-files.forbidden', profile: '1b', clause: '6.1.11', what: 'an embedded file in PDF/A-1', bytes: build(pdfaSpec(1, 'B', { embeddedFile: textAttachment })) },
  { rule: 'pdfa.embedded-files.pdfa-only', profile: '2b', clause: '6.8', what: 'a text file embedded in PDF/A-2', bytes: build(pdfaSpec(2, 'B', { embeddedFile: textAttachment })) },
  { rule: 'pdfa.embedded-files.names', profile: '3b', clause: '6.8', what: 'an embedded file without UF', bytes: mutate(pdfaSpec(3, 'B', { embeddedFile: textAttachment }), (d) => embeddedFileSpec(d).delete(PDFName.of('UF'))) },
  {
    rule: 'pdfa.embedded-files.mime-type',
    profile: '3b',
    clause: '6.8',
    what: 'an embedded file without MIME type',
    bytes: mutate(pdfaSpec(3, 'B', { embeddedFile: textAttachment }), (d) => {
      const stream = (embeddedFileSpec(d).lookup(PDFName.of('EF')) as PDFDict).lookup(PDFName.of('F')) as PDFStream;
      stream.dict.delete(PDFName.of('Subtype'));
    }),
  },
  { rule: 'pdfa.embedded-files.relationship', profile: '3b', clause: '6.8', what: 'an embedded file without AFRelationship', bytes: build(pdfaSpec(3, 'B', { embeddedFile: { ...textAttachment, afRelationship: false } })) },
  { rule: 'pdfa.embedded-files.relationship', profile: '4', clause: '6.9', what: 'a PDF/A-4 embedded file without AFRelationship', bytes: build(pdfaSpec(4, undefined, { embeddedFile: { ...textAttachment, afRelationship: false } })) },
  { rule: 'pdfa.embedded-files.required', profile: '4f', clause: '6.9', what: 'a PDF/A-4f file without embedded files', bytes: build(pdfaSpec(4, 'F')) },
  { rule: 'pdfa.output-intent.profile', profile: '2b', clause: '6.2.3', what: 'a PDF/A output intent without a profile', bytes: build(pdfaSpec(2, 'B', { outputIntent: 'pdfa-no-profile' })) },
  { rule: 'pdfa.output-intent.profile', profile: '1b', clause: '6.2.2', what: 'a PDF/A-1 output intent without a profile', bytes: build(pdfaSpec(1, 'B', { outputIntent: 'pdfa-no-profile' })) },
  {
    rule: 'pdfa.output-intent.single-profile',
    profile: '2b',
    clause: '6.2.3',
    what: 'two output intents with different profile objects',
    bytes: mutate(pdfaSpec(2, 'B'), (d) => {
      const intents = d.catalog.lookup(PDFName.of('OutputIntents')) as PDFArray;
      const first = intents.lookup(0) as PDFDict;
      const profile = first.lookup(PDFName.of('DestOutputProfile')) as PDFStream;
      const copy = d.context.register(profile.clone());
      intents.push(d.context.obj({ Type: 'OutputIntent', S: 'GTS_PDFX', OutputConditionIdentifier: PDFString.of('x'), DestOutputProfile: copy }));
    }),
  },
  {
    rule: 'pdfa.output-intent.no-profile-ref',
    profile: '2b',
    clause: '6.2.3',
    what: 'a PDF/X output intent referring to an external profile',
    bytes: mutate(pdfaSpec(2, 'B'), (d) => {
      (d.catalog.lookup(PDFName.of('OutputIntents')) as PDFArray).push(d.context.obj({ Type: 'OutputIntent', S: 'GTS_PDFX', DestOutputProfileRef: d.context.obj({}) }));
    }),
  },
  { rule: 'pdfa.colour.rgb', profile: '2b', clause: '6.2.4.3', what: 'DeviceRGB without an output intent', bytes: build(pdfaSpec(2, 'B', { outputIntent: undefined })) },
  { rule: 'pdfa.colour.rgb', profile: '1b', clause: '6.2.3.3', what: 'DeviceRGB without an output intent in PDF/A-1', bytes: build(pdfaSpec(1, 'B', { outputIntent: undefined })) },
  { rule: 'pdfa.colour.cmyk', profile: '2b', clause: '6.2.4.3', what: 'DeviceCMYK with an RGB output intent', bytes: build(pdfaSpec(2, 'B', { pageDefaults: { font: 'embedded', colourSpace: 'cmyk' } })) },
  { rule: 'pdfa.colour.gray', profile: '2b', clause: '6.2.4.3', what: 'DeviceGray without an output intent', bytes: build(pdfaSpec(2, 'B', { outputIntent: undefined, pageDefaults: { font: 'embedded', colourSpace: 'gray' } })) },
  { rule: 'pdfa.fonts.embedded', profile: '2b', clause: '6.2.11.4.1', what: 'a font that is not embedded', bytes: build(pdfaSpec(2, 'B', { pageDefaults: { font: 'standard' } })) },
  { rule: 'pdfa.fonts.embedded', profile: '1b', clause: '6.3.4', what: 'a font that is not embedded in PDF/A-1', bytes: build(pdfaSpec(1, 'B', { pageDefaults: { font: 'standard' } })) },
  { rule: 'pdfa.fonts.embedded', profile: '4', clause: '6.2.10.4.1', what: 'a font that is not embedded in PDF/A-4', bytes: build(pdfaSpec(4, undefined, { pageDefaults: { font: 'standard' } })) },
  { rule: 'pdfa.fonts.unicode', profile: '2u', clause: '6.2.11.7.2', what: 'a font without Unicode mapping', bytes: mutate(pdfaSpec(2, 'U'), (d) => firstFont(d).delete(PDFName.of('Encoding'))) },
  { rule: 'pdfa.fonts.unicode', profile: '1a', clause: '6.3.8', what: 'a font without Unicode mapping in PDF/A-1a', bytes: mutate(pdfaSpec(1, 'A'), (d) => firstFont(d).delete(PDFName.of('Encoding'))) },
  { rule: 'pdfa.transparency.soft-mask', profile: '1b', clause: '6.4', what: 'a soft mask in a graphics state', bytes: mutate(pdfaSpec(1, 'B'), (d) => addExtGState(d, { SMask: d.context.obj({ S: 'Luminosity' }) })) },
  { rule: 'pdfa.transparency.group', profile: '1b', clause: '6.4', what: 'a page transparency group', bytes: mutate(pdfaSpec(1, 'B'), (d) => page0(d).set(PDFName.of('Group'), d.context.obj({ S: 'Transparency' }))) },
  { rule: 'pdfa.transparency.alpha', profile: '1b', clause: '6.4', what: 'constant alpha below 1', bytes: build(pdfaSpec(1, 'B', { pageDefaults: { font: 'embedded', transparency: true } })) },
  { rule: 'pdfa.transparency.blend-mode', profile: '1b', clause: '6.4', what: 'a Multiply blend mode', bytes: mutate(pdfaSpec(1, 'B'), (d) => addExtGState(d, { BM: 'Multiply' })) },
  { rule: 'pdfa.actions.types', profile: '2b', clause: '6.5.1', what: 'a JavaScript open action', bytes: build(pdfaSpec(2, 'B', { openAction: 'javascript' })) },
  { rule: 'pdfa.actions.types', profile: '4', clause: '6.6.1', what: 'a Launch action in PDF/A-4', bytes: build(pdfaSpec(4, undefined, { openAction: 'launch' })) },
  { rule: 'pdfa.actions.named', profile: '2b', clause: '6.5.1', what: 'a Named action other than page navigation', bytes: mutate(pdfaSpec(2, 'B'), (d) => d.catalog.set(PDFName.of('OpenAction'), d.context.obj({ S: 'Named', N: 'Print' }))) },
  {
    rule: 'pdfa.actions.widget',
    profile: '2b',
    clause: '6.4.1',
    what: 'a form field widget with an action',
    bytes: mutate(pdfaSpec(2, 'B'), (d) => {
      const widget = d.context.register(d.context.obj({ Type: 'Annot', Subtype: 'Widget', Rect: [0, 0, 10, 10], A: d.context.obj({ S: 'URI', URI: PDFString.of('https://example.com') }) }));
      page0(d).set(PDFName.of('Annots'), d.context.obj([widget]));
    }),
  },
  { rule: 'pdfa.actions.additional', profile: '2b', clause: '6.5.2', what: 'page additional actions in PDF/A-2', bytes: build(pdfaSpec(2, 'B', { pageDefaults: { font: 'embedded', pageOpenJavaScript: 'x()' } })) },
  { rule: 'pdfa.actions.additional', profile: '1b', clause: '6.6.2', what: 'catalog additional actions in PDF/A-1', bytes: mutate(pdfaSpec(1, 'B'), (d) => d.catalog.set(PDFName.of('AA'), d.context.obj({ WC: d.context.obj({ S: 'JavaScript', JS: PDFString.of('x') }) }))) },
  { rule: 'pdfa.metadata.present', profile: '2b', clause: '6.6.2.1', what: 'no XMP metadata', bytes: build({ ...pdfaSpec(2, 'B'), pdfa: undefined, title: undefined }) },
  { rule: 'pdfa.metadata.unfiltered', profile: '1b', clause: '6.7.2', what: 'compressed XMP in PDF/A-1', bytes: build(pdfaSpec(1, 'B', { xmp: 'compressed' })) },
  {
    rule: 'pdfa.metadata.packet-header',
    profile: '2b',
    clause: '6.6.2.1',
    what: 'an XMP packet header with a bytes attribute',
    bytes: build(pdfaSpec(2, 'B', { xmpPacket: xmpPacket({ pdfa: { part: 2, conformance: 'B' } }).replace('id="W5M0MpCehiHzreSzNTczkc9d"', 'id="W5M0MpCehiHzreSzNTczkc9d" bytes="2048"') })),
  },
  { rule: 'pdfa.metadata.identification', profile: '2b', clause: '6.6.4', what: 'XMP without pdfaid', bytes: build({ ...pdfaSpec(2, 'B'), pdfa: undefined }) },
  { rule: 'pdfa.metadata.part', profile: '2b', clause: '6.6.4', what: 'a file claiming part 3 validated as part 2', bytes: build(pdfaSpec(3, 'B')) },
  { rule: 'pdfa.metadata.conformance', profile: '2a', clause: '6.6.4', what: 'a level B claim validated as level A', bytes: build(pdfaSpec(2, 'B', { markInfo: true, structTree: true })) },
  { rule: 'pdfa.metadata.conformance', profile: '4', clause: '6.7.3', what: 'a PDF/A-4f claim validated as plain PDF/A-4', bytes: build(pdfaSpec(4, 'F')) },
  { rule: 'pdfa.metadata.revision', profile: '4', clause: '6.7.3', what: 'PDF/A-4 without pdfaid:rev', bytes: build(pdfaSpec(4, undefined, { pdfa: { part: 4 } })) },
  { rule: 'pdfa.tagged.marked', profile: '2a', clause: '6.7.2.2', what: 'a level A file without MarkInfo', bytes: build(pdfaSpec(2, 'A', { markInfo: false })) },
  { rule: 'pdfa.tagged.marked', profile: '1a', clause: '6.8.2.2', what: 'a PDF/A-1a file without MarkInfo', bytes: build(pdfaSpec(1, 'A', { markInfo: false })) },
  { rule: 'pdfa.tagged.structure', profile: '3a', clause: '6.7.3.3', what: 'a level A file without structure tree', bytes: build(pdfaSpec(3, 'A', { structTree: false })) },
  { rule: 'pdfa.lang.valid', profile: '2a', clause: '6.7.4', what: 'an invalid Lang', bytes: build(pdfaSpec(2, 'A', { lang: 'en_GB' })) },
  { rule: 'pdfua.metadata.identification', profile: 'ua1', clause: '5', what: 'XMP without pdfuaid', bytes: build(pdfuaSpec(1, { pdfua: undefined })) },
  { rule: 'pdfua.metadata.part', profile: 'ua1', clause: '5', what: 'a PDF/UA-2 claim validated as PDF/UA-1', bytes: build(pdfuaSpec(2)) },
  { rule: 'pdfua.metadata.revision', profile: 'ua2', clause: '5', what: 'PDF/UA-2 without pdfuaid:rev', bytes: build(pdfuaSpec(2, { pdfua: { part: 2 } })) },
  { rule: 'pdfua.tagged.marked', profile: 'ua1', clause: '6.2', what: 'no MarkInfo', bytes: build(pdfuaSpec(1, { markInfo: false })) },
  { rule: 'pdfua.tagged.suspects', profile: 'ua1', clause: '7.1', what: 'MarkInfo Suspects true', bytes: mutate(pdfuaSpec(1), (d) => (d.catalog.lookup(PDFName.of('MarkInfo')) as PDFDict).set(PDFName.of('Suspects'), d.context.obj(true))) },
  { rule: 'pdfua.tagged.structure', profile: 'ua2', clause: '8.2.1', what: 'no structure tree', bytes: build(pdfuaSpec(2, { structTree: false })) },
  {
    rule: 'pdfua.structure.document-root',
    profile: 'ua2',
    clause: '8.2.5.2',
    what: 'a structure root whose child is not Document',
    bytes: mutate(pdfuaSpec(2), (d) => {
      const root = d.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
      (root.lookup(PDFName.of('K')) as PDFDict).set(PDFName.of('S'), PDFName.of('Sect'));
    }),
  },
  { rule: 'pdfua.metadata.present', profile: 'ua1', clause: '7.1', what: 'no XMP metadata', bytes: mutate(pdfuaSpec(1), (d) => d.catalog.delete(PDFName.of('Metadata'))) },
  { rule: 'pdfua.metadata.title', profile: 'ua2', clause: '8.11.1', what: 'XMP without dc:title', bytes: build(pdfuaSpec(2, { title: undefined })) },
  { rule: 'pdfua.display-doc-title', profile: 'ua1', clause: '7.1', what: 'DisplayDocTitle not set', bytes: build(pdfuaSpec(1, { displayDocTitle: false })) },
  { rule: 'pdfua.lang.content-text', profile: 'ua1', clause: '7.2', what: 'no language for the page text (no catalog Lang)', bytes: build(pdfuaSpec(1, { lang: undefined })) },
  { rule: 'pdfua.lang.valid', profile: 'ua2', clause: '8.4.4', what: 'an invalid Lang', bytes: build(pdfuaSpec(2, { lang: 'en GB' })) },
  { rule: 'pdfua.fonts.embedded', profile: 'ua1', clause: '7.21.4.1', what: 'a font that is not embedded', bytes: build(pdfuaSpec(1, { pageDefaults: { font: 'standard' } })) },
  { rule: 'pdfua.fonts.unicode', profile: 'ua1', clause: '7.21.7', what: 'a font without Unicode mapping', bytes: mutate(pdfuaSpec(1), (d) => firstFont(d).delete(PDFName.of('Encoding'))) },
];

describe('validate: implemented rules', () => {
  for (const v of VIOLATIONS) {
    it(`${v.rule} (${v.profile}, clause ${v.clause}) fails on ${v.what}`, async () => {
      const r = await validateBytes(await v.bytes(), [v.profile]);
      const [result] = r.profiles;
      const failure = result!.failures.find((f) => f.ruleId === v.rule);
      expect(failure, `failures: ${ruleIds(result!).join(', ')}`).toBeDefined();
      expect(failure!.clause).toBe(v.clause);
      expect(failure!.occurrences).toBeGreaterThan(0);
      expect(failure!.description.length).toBeGreaterThan(20);
      expect(result!.compliant).toBe(false);
      expect(r.outcome).toBe('fail');
    });
  }

  it('names every rule it implements in a test of its area, so each rule has a failing case somewhere', () => {
    const testsDir = dirname(fileURLToPath(import.meta.url));
    const sources = readdirSync(testsDir, { recursive: true })
      .filter((f) => String(f).endsWith('.ts'))
      .map((f) => readFileSync(join(testsDir, String(f)), 'utf8'))
      .join('\n');
    expect(ALL_RULES.map((r) => r.id).filter((id) => !sources.includes(`'${id}'`))).toEqual([]);
  });

  it('names the page and object of a failing font', async () => {
    const r = await validateBytes(await buildPdf(pdfaSpec(2, 'B', { pageDefaults: { font: 'standard' } })), ['2b']);
    const failure = r.profiles[0]!.failures.find((f) => f.ruleId === 'pdfa.fonts.embedded')!;
    expect(failure.examples[0]).toMatchObject({ page: 1, objectNumber: expect.any(Number), context: 'font Helvetica (Type1) is not embedded' });
  });

  it('accepts what a part allows: JavaScript in PDF/A-4, a level U claim for level B, a Default colour space replacing a device space', async () => {
    const js4 = await validateBytes(await buildPdf(pdfaSpec(4, undefined, { openAction: 'javascript' })), ['4']);
    expect(ruleIds(js4.profiles[0]!)).not.toContain('pdfa.actions.types');

    const u = await validateBytes(await buildPdf(pdfaSpec(2, 'U')), ['2b']);
    expect(ruleIds(u.profiles[0]!)).not.toContain('pdfa.metadata.conformance');

    const defaulted = await mutatePdf(await buildPdf(pdfaSpec(2, 'B', { outputIntent: undefined, pageDefaults: { font: 'embedded', colourSpace: 'gray' } })), (d) => {
      resourcesOf(d).set(PDFName.of('ColorSpace'), d.context.obj({ DefaultGray: d.context.obj([PDFName.of('CalGray'), d.context.obj({ WhitePoint: [0.9505, 1, 1.089] })]) }));
    });
    // The device space painted with is the Default space (ISO 32000-1 8.6.5.6), in PDF/A-1 as later.
    expect(ruleIds((await validateBytes(defaulted, ['2b'])).profiles[0]!)).not.toContain('pdfa.colour.gray');
    expect(ruleIds((await validateBytes(defaulted, ['1b'])).profiles[0]!)).not.toContain('pdfa.colour.gray');
  });

  it('validates an embedded PDF against the conformance it claims: a claim alone is not enough', async () => {
    const inner = await buildPdf(pdfaSpec(2, 'B', { pageDefaults: { font: 'standard' } }));
    const r = await validateBytes(await buildPdf(pdfaSpec(2, 'B', { embeddedFile: { name: 'inner.pdf', bytes: inner, mimeType: 'application/pdf' } })), ['2b']);
    const failure = r.profiles[0]!.failures.find((f) => f.ruleId === 'pdfa.embedded-files.pdfa-only');
    expect(failure).toMatchObject({ clause: '6.8', examples: [{ context: expect.stringMatching(/^embedded file "inner\.pdf" claims PDF\/A-2b but fails .*pdfa\.fonts\.embedded/) }] });
  });

  it('accepts an embedded file that is itself PDF/A-2 in PDF/A-2', async () => {
    const inner = await buildPdf(pdfaSpec(2, 'B'));
    const r = await validateBytes(await buildPdf(pdfaSpec(2, 'B', { embeddedFile: { name: 'inner.pdf', bytes: inner, mimeType: 'application/pdf' } })), ['2b']);
    expect(ruleIds(r.profiles[0]!)).not.toContain('pdfa.embedded-files.pdfa-only');
  });
});

describe('validate: compliance', () => {
  const baselines: [ValidateProfileCode, () => Promise<Uint8Array>][] = [
    ['1a', build(pdfaSpec(1, 'A'))],
    ['1b', build(pdfaSpec(1, 'B'))],
    ['2a', build(pdfaSpec(2, 'A'))],
    ['2b', build(pdfaSpec(2, 'B'))],
    ['2u', build(pdfaSpec(2, 'U'))],
    ['3a', build(pdfaSpec(3, 'A'))],
    ['3b', build(pdfaSpec(3, 'B'))],
    ['3u', build(pdfaSpec(3, 'U'))],
    ['4', build(pdfaSpec(4))],
    ['4e', build(pdfaSpec(4, 'E'))],
    ['4f', build(pdfaSpec(4, 'F', { embeddedFile: { ...textAttachment } }))],
    ['ua1', build(pdfuaSpec(1))],
    ['ua2', build(pdfuaSpec(2))],
  ];
  for (const [code, bytes] of baselines) {
    it(`confirms ${code} compliance of a file that meets every requirement, having run every rule of the profile`, async () => {
      const r = await validateBytes(await bytes(), [code]);
      const [p] = r.profiles;
      const ruleCount = rulesFor(standardProfile(code as Exclude<ValidateProfileCode, 'auto'>)).length;
      expect(p!.failures.map((f) => `${f.ruleId}: ${JSON.stringify(f.examples[0] ?? {})}`)).toEqual([]);
      expect(p).toMatchObject({ requested: code, matched: code, compliant: true, rules: { passed: ruleCount, failed: 0 }, checks: { failed: 0 } });
      expect(p!.checks.passed).toBeGreaterThan(ruleCount / 4);
      expect(r).toMatchObject({ outcome: 'pass', compliant: true });
    });
  }
});

describe('validate: auto', () => {
  it('validates against the PDF/A conformance the file claims', async () => {
    const r = await validateBytes(await buildPdf(pdfaSpec(2, 'B')), ['auto']);
    expect(r.profiles.map((p) => [p.requested, p.matched, p.profileName])).toEqual([['auto', '2b', 'PDF/A-2b']]);
  });

  it('validates both claims of a file claiming PDF/A and PDF/UA', async () => {
    const r = await validateBytes(await buildPdf(pdfaSpec(2, 'A', { pdfua: { part: 1 }, displayDocTitle: true })), ['auto']);
    expect(r.profiles.map((p) => p.matched)).toEqual(['2a', 'ua1']);
  });

  it('reports a file claiming nothing as unmatched, not compliant, with a failure saying so', async () => {
    const r = await validateBytes(await buildPdf({ pages: 1 }), ['auto']);
    expect(r.profiles).toEqual([
      {
        requested: 'auto',
        matched: null,
        profileName: null,
        compliant: false,
        checks: { passed: 0, failed: 0 },
        rules: { passed: 0, failed: 0 },
        failures: [expect.objectContaining({ ruleId: 'claim.none', clause: null, occurrences: 1, examples: [] })],
      },
    ]);
    expect(r.profiles[0]!.failures[0]!.description).toMatch(/claims no PDF\/A or PDF\/UA conformance/);
  });

  it('reports a claim of an unknown conformance as unmatched', async () => {
    const r = await validateBytes(await buildPdf({ pdfa: { part: 5, conformance: 'Z' } }), ['auto']);
    expect(r.profiles[0]).toMatchObject({ matched: null, failures: [expect.objectContaining({ ruleId: 'claim.unknown' })] });
    expect(r.profiles[0]!.failures[0]!.description).toContain('PDF/A-5z');
  });

  it('evaluates several requested profiles in order, once each', async () => {
    const r = await validateBytes(await buildPdf(pdfaSpec(2, 'B')), ['2b', 'ua1', '2b', 'auto']);
    expect(r.profiles.map((p) => `${p.requested}:${p.matched}`)).toEqual(['2b:2b', 'ua1:ua1', 'auto:2b']);
  });
});

describe('validate: unreadable files', () => {
  it('refuses a PDF that needs a password', async () => {
    const bytes = await buildPdf(pdfaSpec(2, 'B', { encrypt: { userPassword: 'u', ownerPassword: 'o' } }));
    await expect(validateBytes(bytes, ['auto'])).rejects.toBeInstanceOf(UnprocessableFileError);
  });
  it('refuses a damaged file', async () => {
    await expect(validateBytes(garbageAfterHeader(), ['2b'])).rejects.toBeInstanceOf(UnprocessableFileError);
  });
});
