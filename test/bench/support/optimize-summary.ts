/**
 * The figures of `npm run bench:optimize`, from each file's outcome: size
 * reductions (median, share made smaller), files that render differently or
 * that qpdf --check finds worse than their original. Pure, so it is
 * unit-tested (test/unit/bench/optimize-summary.test.ts).
 */
import { median } from './concurrency';

export { qpdfWorse } from './qpdf-check';

export interface SideOutcome {
  file: string;
  sizeBefore: number;
  /** Size of what the side delivers (the original's when it kept it); null: the side failed on the file. */
  sizeAfter: number | null;
  /** First-page RMSE against the original's rendering; null when not compared. */
  rmse: number | null;
  /** The first page could not be rendered from the output although it could from the original. */
  renderLost?: boolean;
  qpdfWorse?: boolean;
  failure?: string;
  /** pdftoppm rendered the original differently on two runs: MuPDF judged the file (optimize-render-compare.ts). */
  judgedBy?: 'mutool';
  /** pdftoppm rendered the original differently on two runs and no stable renderer was at hand. */
  unstable?: boolean;
}

export const RMSE_LIMIT = 0.01;

export interface SideSummary {
  files: number;
  failed: number;
  /** Median of 1 − after/before over the files the side handled (0 for a file kept as it was). */
  medianReduction: number;
  /** Total bytes after over total before, as a reduction. */
  totalReduction: number;
  smaller: number;
  renderedDifferently: { file: string; rmse: number | null }[];
  qpdfWorse: string[];
  /** Files pdftoppm could not judge (unstable on the original) and MuPDF did. */
  judgedByMutool: string[];
  /** Files pdftoppm could not judge and no stable renderer could: pdftoppm's verdict stands. */
  unstable: string[];
}

export function summariseSide(outcomes: readonly SideOutcome[]): SideSummary {
  const done = outcomes.filter((o) => o.sizeAfter !== null);
  const reductions = done.map((o) => 1 - o.sizeAfter! / o.sizeBefore);
  const before = done.reduce((s, o) => s + o.sizeBefore, 0);
  const after = done.reduce((s, o) => s + o.sizeAfter!, 0);
  return {
    files: outcomes.length,
    failed: outcomes.length - done.length,
    medianReduction: done.length ? median(reductions) : NaN,
    totalReduction: before > 0 ? 1 - after / before : NaN,
    smaller: done.filter((o) => o.sizeAfter! < o.sizeBefore).length,
    renderedDifferently: done.filter((o) => o.renderLost || (o.rmse !== null && o.rmse > RMSE_LIMIT)).map((o) => ({ file: o.file, rmse: o.rmse })),
    qpdfWorse: done.filter((o) => o.qpdfWorse).map((o) => o.file),
    judgedByMutool: done.filter((o) => o.judgedBy === 'mutool').map((o) => o.file),
    unstable: done.filter((o) => o.unstable).map((o) => o.file),
  };
}
