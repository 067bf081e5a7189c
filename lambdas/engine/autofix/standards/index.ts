/** The implementations of the standards fixes (fix-catalogue/standards.ts describes them), by fix id. */
import { checkThreshold, type Fix } from '../fix';
import { metadataSyncFix } from './metadata-sync';
import { preparePdfa } from './pdfa-prepare';
import { DEFAULT_CONDITION, preparePdfx } from './pdfx-prepare';

export const STANDARDS_FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {
  'metadata.sync': (doc) => metadataSyncFix(doc),
  'pdfa.prepare': (doc, ctx) =>
    preparePdfa(doc, { part: Number(ctx.params.part ?? 2), conformance: String(ctx.params.conformance ?? (Number(ctx.params.part) === 4 ? '' : 'b')), header: ctx.header ?? null }),
  'pdfx.prepare': (doc, ctx) =>
    preparePdfx(doc, {
      version: String(ctx.params.version ?? 'PDF/X-4'),
      condition: String(ctx.params.condition ?? DEFAULT_CONDITION),
      order: ctx.order,
      requiredBleedMm: checkThreshold(ctx, 'bleed.insufficient', 'required_mm'),
    }),
};
