/**
 * The record optimizePdf and optimizeRaster keep of their transforms: which
 * fix ids changed the file and which did not, and why, in sentences for the
 * customer; and the result made from it, including the case where the file
 * did not get smaller (then nothing counts as applied: the original is kept).
 */
import type { OptimizeFixId, OptimizeResult, SkippedFix } from './types';

export class FixLog {
  readonly applied: OptimizeFixId[] = [];
  readonly skipped: SkippedFix[] = [];

  apply(id: OptimizeFixId): void {
    this.applied.push(id);
  }

  skip(id: OptimizeFixId, reason: string): void {
    this.skipped.push({ id, reason });
  }

  /** Turned off by the request's `params.<param>`. */
  off(id: OptimizeFixId, param: string): void {
    this.skip(id, `Not asked for (params.${param} is false).`);
  }

  /** The result: `sizeBytes` null when nothing was written. */
  result(sizeBytesBefore: number, sizeBytes: number | null): OptimizeResult {
    const changed = sizeBytes !== null;
    return {
      sizeBytesBefore,
      sizeBytes: sizeBytes ?? sizeBytesBefore,
      appliedFixes: changed ? [...this.applied] : [],
      skippedFixes: [...this.skipped],
      changed,
    };
  }
}

/** The file was written but is not smaller: every transform that ran is reported as skipped, and the original kept. */
export function notSmaller(log: FixLog, sizeBytesBefore: number, sizeBytesAfter: number): OptimizeResult {
  const reason = `The optimized file was not smaller than the original (${sizeBytesAfter} bytes against ${sizeBytesBefore}), so the original is kept.`;
  const skipped = [...log.applied.map((id) => ({ id, reason })), ...log.skipped];
  return { sizeBytesBefore, sizeBytes: sizeBytesBefore, appliedFixes: [], skippedFixes: skipped, changed: false };
}
