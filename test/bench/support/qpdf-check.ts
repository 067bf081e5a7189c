/**
 * `qpdf --check` for the benches that must not damage files (bench:autofix,
 * bench:optimize): its verdict on one file, and whether a written file's is
 * worse than its original's.
 */
import { runTool } from './run-tool';

export interface QpdfCheck {
  /** qpdf --check exit status: 0 clean, 3 warnings, 2 errors; null when it could not run. */
  status: number | null;
  /** Lines reporting a warning or an error. */
  issues: number;
}

const QPDF_RANK: Record<number, number> = { 0: 0, 3: 1, 2: 2 };

export async function runQpdfCheck(file: string, timeoutMs: number): Promise<QpdfCheck> {
  const run = await runTool('qpdf', ['--check', file], timeoutMs);
  if (run.outcome === 'timeout' || run.exitCode === null) return { status: null, issues: 0 };
  // WARNING and ERROR lines, and qpdf's own fatal line ("qpdf: file: unable to …"); not its
  // "No syntax or stream encoding errors found" nor "operation succeeded with warnings".
  const issues = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => /^(WARNING|ERROR)\b/i.test(l) || (/^qpdf: /.test(l) && !/operation succeeded/.test(l))).length;
  return { status: run.exitCode, issues };
}

/**
 * Worse: a worse exit status, or the same status with more warning and error
 * lines. A better status wins whatever the line count (a file qpdf could not
 * read at all, now read with warnings). Unknown when either did not run.
 */
export function qpdfWorse(before: QpdfCheck, after: QpdfCheck): boolean {
  if (before.status === null || after.status === null) return false;
  const [rankBefore, rankAfter] = [QPDF_RANK[before.status] ?? 2, QPDF_RANK[after.status] ?? 2];
  return rankAfter > rankBefore || (rankAfter === rankBefore && after.issues > before.issues);
}
