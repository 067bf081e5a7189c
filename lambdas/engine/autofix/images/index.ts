/** The implementations of the image fixes (fix-catalogue/images.ts describes them), by fix id. */
import type { Fix } from '../fix';
import { downsampleImages } from './downsample';

export const IMAGE_FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {
  'images.downsample': (doc, ctx) =>
    downsampleImages(doc, {
      ppi: Number(ctx.params.ppi),
      // thresholdPpi must be at least ppi; parameters are range-checked one by one, so a lower one is raised here
      // (images between the two would only be reported as already at their size).
      thresholdPpi: Math.max(Number(ctx.params.thresholdPpi), Number(ctx.params.ppi)),
      quality: Number(ctx.params.quality),
    }),
};
