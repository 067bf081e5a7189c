/**
 * Optimize: makes a file smaller without a visible change (docs/api.md §11 rule
 * 11). PDFs go to optimizePdf (optimize-pdf.ts), raster images to
 * optimizeRaster (optimize-raster.ts); each writes `outPath` only when the
 * result is smaller, and otherwise reports `changed: false` (the original
 * stays the deliverable, outcome `unchanged`). The guarded thread
 * (guard/optimize-guarded.ts) runs `optimize`.
 */
import type { FileType } from '../../domain/vocabulary';
import { UnprocessableFileError } from '../../domain/errors';
import { optimizePdf } from './optimize-pdf';
import { optimizeRaster } from './optimize-raster';
import type { OptimizeParams } from './params';
import type { OptimizeResult } from './types';

export { optimizePdf } from './optimize-pdf';
export { optimizeRaster } from './optimize-raster';
export { OPTIMIZE_DEFAULTS, OPTIMIZE_PARAMS, optimizeParams, type OptimizeParams } from './params';
export { OPTIMIZE_FIX_IDS, type OptimizeFixId, type OptimizeResult, type SkippedFix } from './types';

export interface OptimizeInput {
  path: string;
  outPath: string;
  fileType: FileType;
  /** The step's params (`{ pdf?, raster? }`); defaults fill the rest. */
  params?: OptimizeParams | null;
}

export async function optimize(input: OptimizeInput): Promise<OptimizeResult> {
  if (input.fileType === 'pdf') return optimizePdf(input.path, input.outPath, input.params?.pdf ?? {});
  if (input.fileType === 'raster') return optimizeRaster(input.path, input.outPath, input.params?.raster ?? {});
  throw new UnprocessableFileError(`Optimizing ${input.fileType} files is not offered; PDF and raster images are.`);
}
