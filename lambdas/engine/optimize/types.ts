/**
 * What optimizing a file reports: its size before and after, the transforms
 * (fix ids) that changed it and those that did not, each with a sentence for
 * the customer. `results.optimize[].output` (docs/api.md §11 rule 11) is made from
 * this; `changed: false` means no output was kept and the original stays the
 * deliverable.
 */

/** The transforms, by fix id, in the order they run. */
export const OPTIMIZE_FIX_IDS = [
  'images.downsample',
  'streams.recompress',
  'objects.dedupe',
  'objects.drop-unused',
  'file.object-streams',
  'file.linearize',
  'raster.resize',
  'raster.strip-metadata',
  'raster.reencode',
] as const;
export type OptimizeFixId = (typeof OPTIMIZE_FIX_IDS)[number];

export interface SkippedFix {
  id: OptimizeFixId;
  /** Why it did not change the file, for the customer. */
  reason: string;
}

export interface OptimizeResult {
  /** The input file's size. */
  sizeBytesBefore: number;
  /** The output's size when `changed`, else the input's (the original stays the deliverable). */
  sizeBytes: number;
  /** Fix ids that changed the file, in the order they ran; empty when not `changed`. */
  appliedFixes: OptimizeFixId[];
  skippedFixes: SkippedFix[];
  /** The output is smaller than the input and was written to outPath; otherwise nothing is left there. */
  changed: boolean;
}
