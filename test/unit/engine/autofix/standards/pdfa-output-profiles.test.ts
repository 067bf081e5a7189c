import { PDFArray, PDFDict, PDFName, type PDFDocument, type PDFRef, PDFStream, PDFString } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { FixContext } from '../../../../../lambdas/engine/autofix/fix';
import { STANDARDS_FIX_IMPLEMENTATIONS } from '../../../../../lambdas/engine/autofix/standards/index';
import { preparePdfa } from '../../../../../lambdas/engine/autofix/standards/pdfa-prepare';
import { ADOBE_RGB, APPLE_RGB, rgbProfile, SRGB, type RgbSpace, type Xyz } from '../../../../../lambdas/engine/autofix/standards/rgb-profiles';
import { readFileHeader } from '../../../../../lambdas/engine/core/file-header';
import { openPdfBytes } from '../../../../../lambdas/engine/core/load-pdf';
import { readOutputIntents } from '../../../../../lambdas/engine/core/output-intents';
import { streamBytes } from '../../../../../lambdas/engine/core/pdf-objects';
import { iccHeader } from '../../../../../lambdas/engine/validate/graphics/icc-profile';
import { buildPdf, type PageSpec } from '../../../../support/pdf-fixtures';
import { applyDirect, edit, expectSameRendering, failedRules, files, FIXED_NOW, iccHeaderOnly, reopen, runFixes, textOf, withHead } from './fixtures';

/** The tags of an ICC profile: XYZ values, a curve's gamma or point count, description text. */
function tagsOf(icc: Uint8Array): Map<string, { type: string; xyz?: number[]; gamma?: number; points?: number; text?: string }> {
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength);
  const out = new Map();
  for (let i = 0; i < view.getUint32(128); i++) {
    const at = 132 + i * 12;
    const sig = Buffer.from(icc.subarray(at, at + 4)).toString('latin1');
    const off = view.getUint32(at + 4);
    const type = Buffer.from(icc.subarray(off, off + 4)).toString('latin1');
    const tag: Record<string, unknown> = { type };
    if (type === 'XYZ ') tag.xyz = [0, 1, 2].map((k) => view.getInt32(off + 8 + k * 4) / 65536);
    if (type === 'curv') {
      const n = view.getUint32(off + 8);
      if (n === 1) tag.gamma = view.getUint16(off + 12) / 256;
      else tag.points = n;
    }
    if (type === 'desc') tag.text = Buffer.from(icc.subarray(off + 12, off + 12 + view.getUint32(off + 8) - 1)).toString('latin1');
    out.set(sig, tag);
  }
  return out;
}

const expectClose = (actual: number[] | undefined, expected: readonly number[], tolerance: number, what: string) =>
  expected.forEach((v, i) => expect(Math.abs(actual![i]! - v), `${what}[${i}] = ${actual![i]} vs ${v}`).toBeLessThanOrEqual(tolerance));

/**
 * Reference colorants (D50): for Adobe RGB (1998) and Apple RGB the values in
 * Adobe's own profiles of those spaces; for sRGB the values published with
 * IEC 61966-2-1 (computed with a slightly different D50 white, hence the wider tolerance).
 */
const REFERENCE: [RgbSpace, [Xyz, Xyz, Xyz], number][] = [
  [SRGB, [[0.4360747, 0.2225045, 0.0139322], [0.3850649, 0.7168786, 0.0971045], [0.1430804, 0.0606169, 0.7141733]], 3e-4],
  [ADOBE_RGB, [[0.60974, 0.31111, 0.01947], [0.20528, 0.62567, 0.06087], [0.14919, 0.06322, 0.74457]], 5e-5],
  [APPLE_RGB, [[0.47554, 0.25516, 0.01845], [0.33972, 0.67259, 0.11333], [0.14896, 0.07225, 0.69312]], 5e-5],
];

/** A file with an embedded font and a PDF/A output intent whose condition texts and profile are given (profile null: none). */
async function withIntent(entries: { id?: string; condition?: string; info?: string; profile: Uint8Array | null }, page: PageSpec = {}) {
  return edit(await buildPdf({ pages: [{ font: 'embedded', ...page }], outputIntent: 'pdfa-srgb' }), (doc) => {
    const intent = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
    const set = (key: string, v: string | undefined) => (v === undefined ? intent.delete(PDFName.of(key)) : intent.set(PDFName.of(key), PDFString.of(v)));
    set('OutputConditionIdentifier', entries.id);
    set('OutputCondition', entries.condition);
    set('Info', entries.info);
    if (entries.profile) intent.set(PDFName.of('DestOutputProfile'), doc.context.register(doc.context.flateStream(entries.profile, { N: 3 })));
    else intent.delete(PDFName.of('DestOutputProfile'));
  });
}

/** The decoded bytes of the PDF/A intent's profile. */
function intentProfile(doc: PDFDocument): Uint8Array {
  const intent = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
  return streamBytes(doc.context.lookup(intent.get(PDFName.of('DestOutputProfile')) as PDFRef) as PDFStream)!;
}

const prepare = (bytes: Uint8Array, part: number, conformance = part === 4 ? '' : 'b') => applyDirect(bytes, (doc) => preparePdfa(doc, { part, conformance, now: () => FIXED_NOW }));
/** A profile the validator rejects: version 5. */
const V5 = (() => {
  const icc = Buffer.from(rgbProfile(ADOBE_RGB));
  icc[8] = 5;
  return new Uint8Array(icc);
})();

describe('built-in RGB profiles', () => {
  it('are ICC version 2.1 display profiles whose colorants are those of the space, adapted to D50', () => {
    for (const [space, colorants, tolerance] of REFERENCE) {
      const icc = rgbProfile(space);
      expect(Buffer.from(icc).readUInt32BE(0), space.label).toBe(icc.length);
      const tags = tagsOf(icc);
      expect([...tags.keys()].sort()).toEqual(['bTRC', 'bXYZ', 'cprt', 'desc', 'gTRC', 'gXYZ', 'rTRC', 'rXYZ', 'wtpt']);
      (['rXYZ', 'gXYZ', 'bXYZ'] as const).forEach((sig, i) => expectClose(tags.get(sig)!.xyz, colorants[i]!, tolerance, `${space.label} ${sig}`));
      // The media white is the space's own (D65), as version 2 display profiles record it.
      expectClose(tags.get('wtpt')!.xyz, [0.95046, 1, 1.08906], 5e-5, `${space.label} wtpt`);
      expect(tags.get('desc')!.text).toBe(space.description);
    }
    // The transfer curves: Adobe RGB's gamma 563/256 exactly, Apple RGB's 1.8 as the nearest u8Fixed8 value, sRGB's sampled.
    expect(tagsOf(rgbProfile(ADOBE_RGB)).get('rTRC')).toMatchObject({ type: 'curv', gamma: 2.19921875 });
    expect(tagsOf(rgbProfile(APPLE_RGB)).get('gTRC')).toMatchObject({ type: 'curv', gamma: 461 / 256 });
    expect(tagsOf(rgbProfile(SRGB)).get('bTRC')).toMatchObject({ type: 'curv', points: 1024 });
  });

  it("pass the validator's ICC profile checks for every PDF/A part", async () => {
    const doc = (await openPdfBytes(await buildPdf({ pages: 1 }))).doc;
    for (const space of [SRGB, ADOBE_RGB, APPLE_RGB]) {
      const stream = doc.context.flateStream(rgbProfile(space), { N: 3 });
      expect(iccHeader(stream), space.label).toEqual({ deviceClass: 'mntr', colourSpace: 'RGB ', version: '2.1', major: 2, minor: 1 });
    }
  });

  it('are read by Little CMS (through sharp): attached and read back whole, and sRGB colours convert as with the reference profiles', async () => {
    const colours = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [200, 100, 50],
      [128, 128, 128],
    ];
    const png = await sharp(Buffer.from(colours.flat()), { raw: { width: colours.length, height: 1, channels: 3 } }).png().toBuffer();
    // What Adobe's own Adobe RGB (1998) and Apple RGB profiles give through the same conversion (sRGB pure blue
    // becomes 3,0,250 with Adobe's: a 2e-5 difference in the blue colorant, steepened by the gamma near 0).
    const expected: [RgbSpace, number[][]][] = [
      [SRGB, colours],
      [ADOBE_RGB, [[219, 0, 0], [144, 255, 60], [0, 0, 250], [177, 100, 56], [127, 127, 127]]],
      [APPLE_RGB, [[246, 0, 0], [61, 255, 0], [0, 0, 255], [183, 78, 35], [109, 109, 109]]],
    ];
    for (const [space, want] of expected) {
      const path = files.write(rgbProfile(space), 'icc');
      const converted = [...(await sharp(png).withIccProfile(path).raw().toBuffer())];
      want.flat().forEach((v, i) => expect(Math.abs(converted[i]! - v), `${space.label} value ${i}: ${converted[i]} vs ${v}`).toBeLessThanOrEqual(1));
      const attached = await sharp(await sharp(png).withIccProfile(path).png().toBuffer()).metadata();
      expect(Buffer.compare(attached.icc!, Buffer.from(rgbProfile(space))), space.label).toBe(0);
    }
  });
});

describe('pdfa.prepare: an unusable profile under an Adobe RGB or Apple RGB condition', () => {
  it('is replaced by the built-in profile of the space the OutputConditionIdentifier names', async () => {
    for (const [id, space, bad, why] of [
      ['Adobe RGB (1998)', ADOBE_RGB, iccHeaderOnly('scnr', 'RGB '), 'of device class "scnr"'],
      ['Apple RGB', APPLE_RGB, iccHeaderOnly('mntr', 'Lab '), 'of colour space "Lab"'],
      ['AdobeRGB1998', ADOBE_RGB, V5, 'ICC version 5.1, above the 4 PDF/A-2 allows'],
    ] as const) {
      const bytes = await withIntent({ id, info: 'RGB', profile: bad });
      expect(await failedRules(files.write(bytes, 'pdf'), '2b'), id).toContain('pdfa.output-intent.profile');
      const { outcome, path } = await prepare(bytes, 2);
      expect(outcome.detail).toContain(`output intent profile replaced by ${space.label} (the file's own was ${why})`);
      const doc = await reopen(path);
      expect(Buffer.compare(Buffer.from(intentProfile(doc)), Buffer.from(rgbProfile(space))), id).toBe(0);
      // The declaration stays as it was: only the profile changed.
      expect(readOutputIntents(doc)).toMatchObject([{ subtype: 'GTS_PDFA1', outputConditionIdentifier: id, info: 'RGB', profile: { deviceClass: 'mntr', colourSpace: 'RGB ', version: '2.1' } }]);
      expect(await failedRules(path, '2b'), id).toEqual([]);
    }
  });

  it('reads the space from OutputCondition or Info where the identifier is "Custom" or empty, also for PDF/A-1 and -4', async () => {
    const unreadable = new Uint8Array(64); // too short for an ICC header
    for (const [entries, part, space] of [
      [{ id: 'Custom', info: 'Apple RGB', profile: unreadable }, 1, APPLE_RGB],
      [{ id: '', condition: 'Adobe RGB (1998)', profile: null }, 4, ADOBE_RGB],
      [{ id: 'Custom', info: 'display', profile: unreadable }, 2, SRGB],
    ] as const) {
      const { outcome, path } = await prepare(await withIntent(entries), part);
      expect(outcome.detail, JSON.stringify(entries)).toMatch(new RegExp(`output intent profile (replaced by |added \\()${space.label.replace(/[()]/g, '\\$&')}`));
      expect(Buffer.compare(Buffer.from(intentProfile(await reopen(path))), Buffer.from(rgbProfile(space)))).toBe(0);
      expect(await failedRules(path, part === 4 ? '4' : (`${part}b` as never))).toEqual([]);
    }
  });

  it('is kept where the condition names another space, the profile header another colour space, or the pages paint CMYK', async () => {
    for (const [bytes, what] of [
      [await withIntent({ id: 'eciRGB v2', profile: V5 }), 'an RGB space we do not build'],
      [await withIntent({ id: 'FOGRA39', info: 'Adobe RGB (1998)', profile: V5 }), 'a press condition (the identifier rules over Info)'],
      [await withIntent({ id: 'Adobe RGB (1998)', profile: iccHeaderOnly('scnr', 'CMYK') }), 'a CMYK profile'],
      [await withIntent({ id: 'Adobe RGB (1998)', profile: V5 }, { colourSpace: 'cmyk' }), 'CMYK content'],
    ] as const) {
      const { outcome, path } = await prepare(bytes, 2);
      expect(outcome.detail, what).not.toMatch(/output intent profile (replaced|added)/);
      expect(await failedRules(path, '2b'), what).toContain('pdfa.output-intent.profile');
    }
  });

  it('runs through the engine once: the file re-opens, prints and reads the same, and a second run changes nothing', async () => {
    const bytes = await withIntent({ id: 'Adobe RGB (1998)', info: 'RGB', profile: iccHeaderOnly('scnr', 'RGB ') }, { text: 'Adobe RGB file' });
    const params = { fixParams: { 'pdfa.prepare': { part: 2 } } };
    const first = await runFixes(bytes, ['pdfa.prepare'], params);
    expect(first.result.applied).toEqual([{ fixId: 'pdfa.prepare', count: expect.any(Number), pages: [] }]);
    expect(await textOf(first.outPath)).toContain('Adobe RGB file');
    await expectSameRendering(first.path, first.outPath);
    const again = await runFixes(await reopen(first.outPath).then((d) => d.save({ useObjectStreams: false })), ['pdfa.prepare'], params);
    expect(again.result).toMatchObject({ changed: false, applied: [] });
  });
});

describe('pdfa.prepare: a header line whose version is right but whose form is not', () => {
  const BINARY = '%\xe2\xe3\xcf\xd3\n';

  it('is rewritten when the caller passes the header read from the bytes: "%PDF-2.0   " for PDF/A-4', async () => {
    const prepared = (await prepare(await buildPdf({ pages: [{ font: 'embedded' }] }), 4)).bytes;
    const bytes = withHead(prepared, `%PDF-2.0   \n${BINARY}`);
    expect(await failedRules(files.write(bytes, 'pdf'), '4')).toEqual(['pdfa.file.header']);
    // pdf-lib parses the version and forgets the rest: without the header, nothing is seen to change.
    expect((await prepare(bytes, 4)).outcome).toMatchObject({ count: 0, detail: 'already prepared for PDF/A-4' });
    const header = readFileHeader(bytes);
    const { outcome, path, bytes: out } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 4, conformance: '', now: () => FIXED_NOW, header }));
    expect(outcome.detail).toContain('header line rewritten ("%PDF-2.0   " had more than the version)');
    expect(Buffer.from(out.subarray(0, 9)).toString('latin1')).toBe('%PDF-2.0\n');
    expect(await failedRules(path, '4')).toEqual([]);
    // The registered fix hands the engine's header on (FixContext.header, once the engine passes it).
    const { doc } = await openPdfBytes(bytes);
    const viaRegistry = await STANDARDS_FIX_IMPLEMENTATIONS['pdfa.prepare']!(doc, { order: null, params: { part: 4, conformance: '' }, header } as FixContext);
    expect(viaRegistry.detail).toContain('header line rewritten');
    // Once written, the header is right: a second run changes nothing.
    const second = await applyDirect(out, (d) => preparePdfa(d, { part: 4, conformance: '', header: readFileHeader(out) }));
    expect(second.outcome.count).toBe(0);
  });

  it('is rewritten when it does not start at byte 0 or lacks the binary comment, and left where the part accepts it', async () => {
    const prepared = (await prepare(await buildPdf({ pages: [{ font: 'embedded' }] }), 2)).bytes;
    for (const [head, rule, why] of [
      [`junk\n%PDF-1.7\n${BINARY}`, 'pdfa.file.header', 'it started at byte 5'],
      ['%PDF-1.7\n', 'pdfa.file.binary-comment', 'no binary comment followed it'],
    ] as const) {
      const bytes = withHead(prepared, head);
      expect(await failedRules(files.write(bytes, 'pdf'), '2b'), why).toEqual([rule]);
      const { outcome, path } = await applyDirect(bytes, (doc) => preparePdfa(doc, { part: 2, conformance: 'b', header: readFileHeader(bytes) }));
      expect(outcome.detail).toContain(`header line rewritten (${why})`);
      expect(await failedRules(path, '2b'), why).toEqual([]);
    }
    // PDF/A-1 asks only that the header start with "%PDF-1.n": text after the version is no reason to rewrite.
    const pdfa1 = withHead((await prepare(await buildPdf({ pages: [{ font: 'embedded' }] }), 1)).bytes, `%PDF-1.4   \n${BINARY}`);
    expect(await failedRules(files.write(pdfa1, 'pdf'), '1b')).toEqual([]);
    expect((await applyDirect(pdfa1, (doc) => preparePdfa(doc, { part: 1, conformance: 'b', header: readFileHeader(pdfa1) }))).outcome.count).toBe(0);
  });
});
