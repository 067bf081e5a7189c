/**
 * Colour rules not covered elsewhere: the alternate space of Separation and
 * DeviceN colour spaces (6.2.4.4) and, in PDF/A-4 (6.2.4.2, 6.2.4.4), ICCBased
 * CMYK profiles that repeat the output intent's profile.
 */
import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('colour-remaining');

/** A synthetic ICC profile: the header fields PDF/A judges (ICC.1 7.2), the 'acsp' signature, and a marker byte to tell profiles apart. */
function iccProfile(space: string, deviceClass: string, marker = 0): Uint8Array {
  const b = new Uint8Array(132);
  const put = (at: number, s: string) => [...s].forEach((c, i) => (b[at + i] = c.charCodeAt(0)));
  b[3] = 132;
  b[8] = 4;
  b[9] = 0x20;
  put(12, deviceClass);
  put(16, space);
  put(20, 'XYZ ');
  put(36, 'acsp');
  b[131] = marker;
  return b;
}
const cmykProfile = (marker = 0) => iccProfile('CMYK', 'prtr', marker);

interface Page {
  content: string;
  colourSpaces: (doc: PDFDocument, intentProfile: PDFRef | undefined) => Record<string, unknown>;
  /** Replaces the output intent's profile with this one (a CMYK printer profile). */
  intentProfile?: Uint8Array;
}

/** A one-page file of `spec` whose content and colour resources are replaced; the colour rules that fail. */
async function colourFailures(spec: PdfSpec, profile: ValidateProfileCode, page: Page) {
  const bytes = await mutatePdf(await buildPdf(spec), (doc) => {
    let intentRef: PDFRef | undefined;
    if (page.intentProfile) {
      intentRef = doc.context.register(doc.context.stream(page.intentProfile, { N: 4 }));
      const intent = (doc.catalog.lookup(PDFName.of('OutputIntents')) as unknown as { lookup(i: number): PDFDict }).lookup(0);
      intent.set(PDFName.of('DestOutputProfile'), intentRef);
    }
    const node = doc.getPage(0).node;
    node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(page.content)));
    node.set(PDFName.of('Resources'), doc.context.obj({ ColorSpace: doc.context.obj(page.colourSpaces(doc, intentRef) as never) } as never));
  });
  const result = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return result.profiles[0]!.failures.filter((f) => f.ruleId.startsWith('pdfa.colour') || f.ruleId.startsWith('pdfa.output-intent'));
}
const ids = (fs: { ruleId: string }[]) => fs.map((f) => f.ruleId).sort();

const square = '10 10 50 50 re f';
const tint = (doc: PDFDocument, components: number) => doc.context.obj({ FunctionType: 2, Domain: [0, 1], C0: Array(components).fill(0), C1: Array(components).fill(1), N: 1 } as never);
const separation = (doc: PDFDocument, alternate: unknown, components: number) => [PDFName.of('Separation'), PDFName.of('Spot'), alternate, tint(doc, components)];
const iccSpace = (doc: PDFDocument, ref: PDFRef) => [PDFName.of('ICCBased'), ref];
const spotPage = (alternate: (doc: PDFDocument, intent: PDFRef | undefined) => unknown, components: number, intentProfile?: Uint8Array): Page => ({
  content: `/Sp cs 1 sc ${square}`,
  colourSpaces: (doc, intent) => ({ Sp: separation(doc, alternate(doc, intent), components) }),
  ...(intentProfile ? { intentProfile } : {}),
});

describe('alternate colour spaces of Separation and DeviceN (6.2.4.4)', () => {
  it('a DeviceCMYK alternate with an RGB output intent fails; a DeviceRGB alternate passes', async () => {
    const bad = await colourFailures(pdfaSpec(2, 'b'), '2b', spotPage(() => PDFName.of('DeviceCMYK'), 4));
    const f = bad.find((x) => x.ruleId === 'pdfa.colour.alternate-space');
    expect(f).toMatchObject({ clause: '6.2.4.4', examples: [{ page: 1, context: expect.stringContaining('DeviceCMYK as a Separation/DeviceN alternate') }] });
    expect(ids(await colourFailures(pdfaSpec(2, 'b'), '2b', spotPage(() => PDFName.of('DeviceRGB'), 3)))).toEqual([]);
  });

  it('applies to DeviceN and to PDF/A-3 and -4 as well', async () => {
    const deviceN: Page = {
      content: `/Dn cs 1 sc ${square}`,
      colourSpaces: (doc) => ({
        Dn: [PDFName.of('DeviceN'), [PDFName.of('Spot')], PDFName.of('DeviceCMYK'), tint(doc, 4), doc.context.obj({ Colorants: doc.context.obj({ Spot: separation(doc, PDFName.of('DeviceCMYK'), 4) } as never) } as never)],
      }),
    };
    expect(ids(await colourFailures(pdfaSpec(3, 'b'), '3b', deviceN))).toContain('pdfa.colour.alternate-space');
    const a4 = await colourFailures(pdfaSpec(4), '4', spotPage(() => PDFName.of('DeviceCMYK'), 4));
    expect(a4.find((x) => x.ruleId === 'pdfa.colour.alternate-space')).toMatchObject({ clause: '6.2.4.4' });
  });
});

describe('PDF/A-4: ICCBased CMYK profiles and the output intent (6.2.4.2, 6.2.4.4)', () => {
  it('an ICCBased CMYK space whose profile is the output intent profile fails', async () => {
    const page: Page = { content: `/Cs cs 0 0 0 1 sc ${square}`, colourSpaces: (doc, intent) => ({ Cs: iccSpace(doc, intent!) }), intentProfile: cmykProfile() };
    const fs = await colourFailures(pdfaSpec(4), '4', page);
    expect(ids(fs)).toEqual(['pdfa.colour.icc-cmyk-destination']);
    expect(fs[0]).toMatchObject({ clause: '6.2.4.2', examples: [{ page: 1, objectNumber: expect.any(Number), context: expect.stringContaining('identical to the output intent') }] });
  });

  it('a separate copy with the same bytes is the same profile; a different CMYK profile passes', async () => {
    const copy: Page = {
      content: `/Cs cs 0 0 0 1 sc ${square}`,
      colourSpaces: (doc) => ({ Cs: iccSpace(doc, doc.context.register(doc.context.stream(cmykProfile(), { N: 4 }))) }),
      intentProfile: cmykProfile(),
    };
    expect(ids(await colourFailures(pdfaSpec(4), '4', copy))).toEqual(['pdfa.colour.icc-cmyk-destination']);
    const other: Page = { ...copy, colourSpaces: (doc) => ({ Cs: iccSpace(doc, doc.context.register(doc.context.stream(cmykProfile(1), { N: 4 }))) }) };
    expect(ids(await colourFailures(pdfaSpec(4), '4', other))).toEqual([]);
  });

  it('the PDF/A-2 rules allow repeating the output intent profile', async () => {
    const page: Page = { content: `/Cs cs 0 0 0 1 sc ${square}`, colourSpaces: (doc, intent) => ({ Cs: iccSpace(doc, intent!) }), intentProfile: cmykProfile() };
    expect(ids(await colourFailures(pdfaSpec(2, 'b'), '2b', page))).not.toContain('pdfa.colour.icc-cmyk-destination');
  });

  it('an ICCBased alternate of a Separation repeating the output intent profile fails 6.2.4.4', async () => {
    const page = spotPage((doc, intent) => iccSpace(doc, intent!), 4, cmykProfile());
    const fs = await colourFailures(pdfaSpec(4), '4', page);
    expect(fs.find((f) => f.ruleId === 'pdfa.colour.alternate-icc-destination')).toMatchObject({
      clause: '6.2.4.4',
      examples: [{ page: 1, context: expect.stringContaining('identical to the output intent') }],
    });
    const distinct = spotPage((doc) => iccSpace(doc, doc.context.register(doc.context.stream(cmykProfile(2), { N: 4 }))), 4, cmykProfile());
    expect(ids(await colourFailures(pdfaSpec(4), '4', distinct))).not.toContain('pdfa.colour.alternate-icc-destination');
  });
});
