import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFStream, type PDFDocument } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('colour');

/** A synthetic ICC profile: only the header fields PDF/A judges (ICC.1 7.2) and the 'acsp' signature. */
function iccProfile(opts: { space?: string; deviceClass?: string; major?: number } = {}): Uint8Array {
  const b = new Uint8Array(132);
  const put = (at: number, s: string) => [...s].forEach((c, i) => (b[at + i] = c.charCodeAt(0)));
  b[3] = 132;
  b[8] = opts.major ?? 2;
  b[9] = 0x10;
  put(12, opts.deviceClass ?? 'mntr');
  put(16, opts.space ?? 'RGB ');
  put(20, 'XYZ ');
  put(36, 'acsp');
  return b;
}

interface Page {
  content: string;
  /** Entries of the page's ColorSpace resources, built with the document's context. */
  colourSpaces?: (doc: PDFDocument) => Record<string, unknown>;
  extGState?: Record<string, unknown>;
}

/** A one-page file of the given spec whose content and colour resources are replaced. */
async function fileWith(spec: PdfSpec, page: Page): Promise<string> {
  const base = await buildPdf(spec);
  const bytes = await mutatePdf(base, (doc) => {
    const node = doc.getPage(0).node;
    const resources = node.lookup(PDFName.of('Resources')) as PDFDict;
    node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(page.content)));
    if (page.colourSpaces) resources.set(PDFName.of('ColorSpace'), doc.context.obj(page.colourSpaces(doc) as never));
    if (page.extGState) resources.set(PDFName.of('ExtGState'), doc.context.obj({ GS0: doc.context.obj(page.extGState as never) }));
  });
  return files.write(bytes, 'pdf');
}

async function failuresOf(path: string, profile: ValidateProfileCode) {
  const result = await validate({ path, profiles: [profile] });
  return result.profiles[0]!.failures.filter((f) => f.ruleId.startsWith('pdfa.colour') || f.ruleId.startsWith('pdfa.output-intent'));
}
const ids = (fs: { ruleId: string }[]) => fs.map((f) => f.ruleId);

const iccStream = (doc: PDFDocument, n: number, opts: Parameters<typeof iccProfile>[0] = {}) => doc.context.register(doc.context.stream(iccProfile(opts), { N: n }));
const square = '10 10 50 50 re f';
const noIntent = (part: number) => ({ ...pdfaSpec(part, part === 4 ? undefined : 'b'), outputIntent: undefined });

describe('device colour spaces (ISO 19005-2 6.2.4.3)', () => {
  it('accepts DeviceRGB with an RGB output intent, and rejects DeviceCMYK against it', async () => {
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), { content: `1 0 0 rg ${square}` }), '2b'))).toEqual([]);
    const cmyk = await failuresOf(await fileWith(pdfaSpec(2, 'b'), { content: `0 1 0 0 k ${square}` }), '2b');
    expect(ids(cmyk)).toEqual(['pdfa.colour.cmyk']);
    expect(cmyk[0]!.clause).toBe('6.2.4.3');
    expect(cmyk[0]!.examples[0]).toMatchObject({ page: 1 });
    expect(cmyk[0]!.examples[0]!.context).toContain('DeviceCMYK for fill colour');
  });

  it('needs an output intent for DeviceGray used to paint, unless DefaultGray replaces it', async () => {
    expect(ids(await failuresOf(await fileWith(noIntent(2), { content: `0.5 g ${square}` }), '2b'))).toEqual(['pdfa.colour.gray']);
    const defaulted = await fileWith(noIntent(2), { content: `0.5 g ${square}`, colourSpaces: (doc) => ({ DefaultGray: [PDFName.of('ICCBased'), iccStream(doc, 1, { space: 'GRAY' })] }) });
    expect(ids(await failuresOf(defaulted, '2b'))).toEqual([]);
  });

  it('counts a device colour set by rg/RG/k/K/g/G or scn/SCN even when nothing is painted with it', async () => {
    expect(ids(await failuresOf(await fileWith(noIntent(2), { content: '1 0 0 rg 0 1 0 RG' }), '2b'))).toEqual(['pdfa.colour.rgb']);
    // The stroke colour is set, only a fill is painted (in DeviceGray, which the output intent allows).
    expect(ids(await failuresOf(await fileWith(pdfaSpec(1, 'b'), { content: `0 0 0 1 K 0 g ${square}` }), '1b'))).toEqual(['pdfa.colour.cmyk']);
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), { content: `/DeviceCMYK cs 0 0 0 1 scn` }), '2b'))).toEqual(['pdfa.colour.cmyk']);
    expect(ids(await failuresOf(await fileWith(pdfaSpec(1, 'b'), { content: `0 0 0 1 k` }), '1b'))).toEqual(['pdfa.colour.cmyk']);
    // A shading pattern in DeviceCMYK chosen as the fill colour, nothing painted.
    const shadingPattern = await mutatePdf(await buildPdf(pdfaSpec(2, 'b')), (doc) => {
      const fn = doc.context.obj({ FunctionType: 2, Domain: [0, 1], C0: [0, 0, 0, 0], C1: [0, 0, 0, 1], N: 1 } as never);
      const shading = doc.context.obj({ ShadingType: 2, ColorSpace: 'DeviceCMYK', Coords: [0, 0, 1, 0], Function: fn } as never);
      const pattern = doc.context.register(doc.context.obj({ PatternType: 2, Shading: shading } as never));
      const node = doc.getPage(0).node;
      (node.lookup(PDFName.of('Resources')) as PDFDict).set(PDFName.of('Pattern'), doc.context.obj({ P0: pattern }));
      node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream('/Pattern cs /P0 scn')));
    });
    expect(ids(await failuresOf(files.write(shadingPattern, 'pdf'), '2b'))).toEqual(['pdfa.colour.cmyk']);
  });

  it('does not count a space chosen by cs/CS or a colour given by sc/SC until something is painted with it', async () => {
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), { content: `/DeviceCMYK cs 0 0 0 1 sc /DeviceCMYK CS 0 0 0 1 SC 0 g ${square}` }), '2b'))).toEqual([]);
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), { content: `/DeviceCMYK cs 0 0 0 1 sc ${square}` }), '2b'))).toEqual(['pdfa.colour.cmyk']);
    // The output intent is RGB (sRGB), so the same colours set in DeviceRGB pass.
    expect(ids(await failuresOf(await fileWith(pdfaSpec(1, 'b'), { content: `1 0 0 RG 0 g ${square}` }), '1b'))).toEqual([]);
  });

  it('reports a device base of an Indexed space under 6.2.4.5 as well', async () => {
    const path = await fileWith(noIntent(2), {
      content: `/CS0 cs 1 sc ${square}`,
      colourSpaces: (doc) => ({ CS0: [PDFName.of('Indexed'), PDFName.of('DeviceRGB'), 1, PDFHexString.of('FF000000FF00')] }),
    });
    const fs = await failuresOf(path, '2b');
    expect(ids(fs).sort()).toEqual(['pdfa.colour.base-space', 'pdfa.colour.rgb']);
    expect(fs.find((f) => f.ruleId === 'pdfa.colour.base-space')!.clause).toBe('6.2.4.5');
  });

  it('lets a PDF/A-4 page group with an ICC RGB blending space calibrate DeviceRGB', async () => {
    const base = await fileWith(noIntent(4), { content: `1 0 0 rg ${square}` });
    expect(ids(await failuresOf(base, '4'))).toEqual(['pdfa.colour.rgb']);
    const bytes = await mutatePdf(await buildPdf(noIntent(4)), (doc) => {
      const node = doc.getPage(0).node;
      node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(`1 0 0 rg ${square}`)));
      node.set(PDFName.of('Group'), doc.context.obj({ S: 'Transparency', CS: [PDFName.of('ICCBased'), iccStream(doc, 3)] } as never));
    });
    expect(ids(await failuresOf(files.write(bytes, 'pdf'), '4'))).toEqual([]);
  });
});

describe('ICCBased colour spaces (6.2.4.2, PDF/A-1 6.2.3.2)', () => {
  const iccPage = (opts: Parameters<typeof iccProfile>[0], n = 3): Page => ({
    content: `/CS0 cs 0.1 0.2 0.3${n === 4 ? ' 0.4' : ''} sc ${square}`,
    colourSpaces: (doc) => ({ CS0: [PDFName.of('ICCBased'), iccStream(doc, n, opts)] }),
  });

  it('allows ICC version 4 profiles from PDF/A-2 on, not in PDF/A-1', async () => {
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), iccPage({ major: 4 })), '2b'))).toEqual([]);
    const a1 = await failuresOf(await fileWith(pdfaSpec(1, 'b'), iccPage({ major: 4 })), '1b');
    expect(ids(a1)).toEqual(['pdfa.colour.icc-profile']);
    expect(a1[0]!.examples[0]!.context).toContain('version 4.1');
  });

  it('rejects an abstract (link) profile and an N that does not match the profile in PDF/A-1', async () => {
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), iccPage({ deviceClass: 'link' })), '2b'))).toEqual(['pdfa.colour.icc-profile']);
    expect(ids(await failuresOf(await fileWith(pdfaSpec(1, 'b'), iccPage({ space: 'CMYK' }, 3)), '1b'))).toEqual(['pdfa.colour.icc-components']);
  });

  it('forbids overprint mode 1 with overprinting an ICCBased CMYK colour', async () => {
    const page = (opm: number): Page => ({ ...iccPage({ space: 'CMYK', deviceClass: 'prtr' }, 4), content: `/GS0 gs ${iccPage({}, 4).content}`, extGState: { Type: 'ExtGState', OP: true, op: true, OPM: opm } });
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), page(0)), '2b'))).toEqual([]);
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), page(1)), '2b'))).toEqual(['pdfa.colour.icc-cmyk-overprint']);
  });
});

describe('Separation and DeviceN colour spaces (6.2.4.4)', () => {
  const tint = (doc: PDFDocument, c1: number) => doc.context.obj({ FunctionType: 2, Domain: [0, 1], C0: [0], C1: [c1], N: 1 } as never);
  const separation = (doc: PDFDocument, c1: number) => [PDFName.of('Separation'), PDFName.of('Spot'), PDFName.of('DeviceGray'), tint(doc, c1)];

  it('requires Separations of one colorant name to share alternate space and tint transform', async () => {
    const page = (c1: number): Page => ({ content: `/A cs 1 sc ${square} /B cs 1 sc ${square}`, colourSpaces: (doc) => ({ A: separation(doc, 1), B: separation(doc, c1) }) });
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), page(1)), '2b'))).toEqual([]);
    const fs = await failuresOf(await fileWith(pdfaSpec(2, 'b'), page(0.5)), '2b');
    expect(ids(fs)).toEqual(['pdfa.colour.separation-consistent']);
    expect(fs[0]!.examples[0]!.context).toContain('Separation Spot');
  });

  it('requires a Colorants entry for each spot colorant of a DeviceN space', async () => {
    const page = (withColorants: boolean): Page => ({
      content: `/D cs 1 1 sc ${square}`,
      colourSpaces: (doc) => ({
        D: [PDFName.of('DeviceN'), [PDFName.of('Cyan'), PDFName.of('Spot')], PDFName.of('DeviceGray'), tint(doc, 1), ...(withColorants ? [doc.context.obj({ Colorants: doc.context.obj({ Spot: separation(doc, 1) } as never) } as never)] : [])],
      }),
    });
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), page(true)), '2b'))).toEqual([]);
    const fs = await failuresOf(await fileWith(pdfaSpec(2, 'b'), page(false)), '2b');
    expect(ids(fs)).toEqual(['pdfa.colour.devicen-colorants']);
    expect(fs[0]!.examples[0]!.context).toContain('Spot');
  });
});

describe('output intents (6.2.3, PDF/A-1 6.2.2)', () => {
  it('accepts the fixture sRGB output intent and rejects one without a profile', async () => {
    expect(ids(await failuresOf(await fileWith(pdfaSpec(2, 'b'), { content: `1 0 0 rg ${square}` }), '2b'))).toEqual([]);
    const fs = await failuresOf(await fileWith({ ...pdfaSpec(2, 'b'), outputIntent: 'pdfa-no-profile' }, { content: '' }), '2b');
    expect(ids(fs)).toContain('pdfa.output-intent.profile');
  });

  /** A file of `spec` whose document output intent's profile stream has its N replaced (undefined removes it). */
  const withIntentN = (spec: PdfSpec, n: number | undefined) =>
    buildPdf(spec)
      .then((base) =>
        mutatePdf(base, (doc) => {
          const intent = (doc.catalog.lookup(PDFName.of('OutputIntents')) as PDFArray).lookup(0, PDFDict);
          const profile = intent.lookup(PDFName.of('DestOutputProfile')) as PDFStream;
          if (n === undefined) profile.dict.delete(PDFName.of('N'));
          else profile.dict.set(PDFName.of('N'), doc.context.obj(n));
        }),
      )
      .then((bytes) => files.write(bytes, 'pdf'));

  it("PDF/A-1 (6.2.3.2): the output intent profile stream's N is present and matches the profile's colour space", async () => {
    expect(ids(await failuresOf(await withIntentN(pdfaSpec(1, 'b'), 3), '1b'))).toEqual([]);
    const wrong = await failuresOf(await withIntentN(pdfaSpec(1, 'b'), 4), '1b');
    expect(wrong.map((f) => [f.ruleId, f.clause])).toEqual([['pdfa.output-intent.components', '6.2.3.2']]);
    expect(wrong[0]!.examples[0]!.context).toBe('N is 4; the profile\'s colour space is "RGB"');
    expect(ids(await failuresOf(await withIntentN(pdfaSpec(1, 'b'), undefined), '1b'))).toEqual(['pdfa.output-intent.components']);
    // Later parts have no such rule for output intents.
    expect(ids(await failuresOf(await withIntentN(pdfaSpec(2, 'b'), 4), '2b'))).toEqual([]);
  });

  it("judges a page's own output intents in every part, as the document's", async () => {
    const bytes = await mutatePdf(await buildPdf(pdfaSpec(2, 'b')), (doc) => {
      const bad = iccProfile({ deviceClass: 'scnr' });
      const intent = doc.context.obj({ Type: 'OutputIntent', S: 'GTS_PDFA1', OutputConditionIdentifier: 'x', DestOutputProfile: doc.context.register(doc.context.stream(bad, { N: 3 })) } as never);
      doc.getPage(0).node.set(PDFName.of('OutputIntents'), doc.context.obj([intent]));
    });
    const fs = await failuresOf(files.write(bytes, 'pdf'), '2b');
    expect(fs.find((f) => f.ruleId === 'pdfa.output-intent.profile')).toMatchObject({ clause: '6.2.3', examples: [{ page: 1 }] });
  });
});
