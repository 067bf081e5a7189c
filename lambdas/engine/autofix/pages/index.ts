/** The implementations of the pages fixes (fix-catalogue/pages.ts describes them), by fix id. */
import { paramOrThreshold, type Fix } from '../fix';
import { mirrorBleed } from './bleed-mirror';
import { padToMultiple } from './pad-to-multiple';
import { scaleToTrim } from './scale-to-trim';
import { unrotatePages } from './unrotate';

export const PAGE_FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {
  'pages.unrotate': (doc) => unrotatePages(doc),
  'pages.scale-to-trim': (doc, ctx) =>
    scaleToTrim(doc, ctx.order, {
      tolerance_mm: paramOrThreshold(ctx, 'tolerance_mm', 'artwork.size-mismatch', 'tolerance_mm'),
      maxScalePercent: Number(ctx.params.maxScalePercent),
    }),
  'pages.pad-to-multiple': (doc, ctx) => padToMultiple(doc, { multiple: Number(ctx.params.multiple) }),
  'bleed.mirror': (doc, ctx) => mirrorBleed(doc, ctx.order, paramOrThreshold(ctx, 'bleed_mm', 'bleed.insufficient', 'required_mm')),
};
