/**
 * For the graphics rules' tests: a conforming file whose first page paints
 * given content with given resources, and the graphics rules that fail.
 */
import { PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { GRAPHICS_RULES } from '../../../../../lambdas/engine/validate/graphics/rules';
import { buildPdf, mutatePdf, pdfaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

export const files = tempFiles('graphics-paint');
export const GRAPHICS_IDS = new Set(GRAPHICS_RULES.map((r) => r.id));

export type Build = (doc: PDFDocument) => { content: string; resources: Record<string, unknown> };

/** A file of `spec` whose first page paints `content` with `resources`; the graphics rules that fail. */
export async function graphicsFailures(spec: PdfSpec, profile: ValidateProfileCode, build: Build) {
  const bytes = await mutatePdf(await buildPdf(spec), (doc) => {
    const page = doc.getPage(0).node;
    const { content, resources } = build(doc);
    page.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
    page.set(PDFName.of('Resources'), doc.context.obj(resources as never));
  });
  const result = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return result.profiles[0]!.failures.filter((f) => GRAPHICS_IDS.has(f.ruleId));
}
export const ids = (fs: { ruleId: string }[]) => fs.map((f) => f.ruleId).sort();

export const a2b = pdfaSpec(2, 'B');
export const a4 = pdfaSpec(4);
