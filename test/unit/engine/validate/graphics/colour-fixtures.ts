/**
 * For the colour rules' tests: synthetic ICC profiles, a one-page file whose
 * content and colour resources are replaced (and optionally its output intent's
 * profile), and the colour rules that fail.
 */
import { PDFDict, PDFName, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

export const files = tempFiles('colour-rules');

/** A synthetic ICC profile: the header fields PDF/A judges (ICC.1 7.2), the 'acsp' signature, and a marker byte to tell profiles apart. */
export function iccProfile(space: string, deviceClass: string, marker = 0): Uint8Array {
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
export const cmykProfile = (marker = 0) => iccProfile('CMYK', 'prtr', marker);

export interface Page {
  content: string;
  colourSpaces: (doc: PDFDocument, intentProfile: PDFRef | undefined) => Record<string, unknown>;
  /** Replaces the output intent's profile with this one (a CMYK printer profile). */
  intentProfile?: Uint8Array;
}

/** A one-page file of `spec` whose content and colour resources are replaced; the colour rules that fail. */
export async function colourFailures(spec: PdfSpec, profile: ValidateProfileCode, page: Page) {
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
export const ids = (fs: { ruleId: string }[]) => fs.map((f) => f.ruleId).sort();

export const square = '10 10 50 50 re f';
export const tint = (doc: PDFDocument, components: number) => doc.context.obj({ FunctionType: 2, Domain: [0, 1], C0: Array(components).fill(0), C1: Array(components).fill(1), N: 1 } as never);
export const separation = (doc: PDFDocument, alternate: unknown, components: number) => [PDFName.of('Separation'), PDFName.of('Spot'), alternate, tint(doc, components)];
export const iccSpace = (doc: PDFDocument, ref: PDFRef) => [PDFName.of('ICCBased'), ref];
export const spotPage = (alternate: (doc: PDFDocument, intent: PDFRef | undefined) => unknown, components: number, intentProfile?: Uint8Array): Page => ({
  content: `/Sp cs 1 sc ${square}`,
  colourSpaces: (doc, intent) => ({ Sp: separation(doc, alternate(doc, intent), components) }),
  ...(intentProfile ? { intentProfile } : {}),
});
