/**
 * Robustness over a corpus: every file must end with a report or an error with
 * a reason for the customer, within the per-file budget. Crashes (any other
 * exception) and runs at or over the budget are what the bench exists to find.
 */

/** One file's outcome as robustness counts it (FileRun fits; other engines' benches map to it). */
export interface RobustnessRun {
  file: string;
  ours: { status: 'report'; ms: number } | { status: 'error'; ms: number; reason: string } | { status: 'crash'; ms: number; error: string };
}

export interface RobustnessSummary {
  files: number;
  reports: number;
  errors: number;
  crashes: number;
  overBudget: number;
  /** Reasons given to customers, most frequent first. */
  topReasons: { reason: string; count: number }[];
  crashed: { file: string; error: string }[];
  slowest: { file: string; ms: number; status: string }[];
}

export function summariseRobustness(runs: readonly RobustnessRun[], budgetMs: number, top = 10): RobustnessSummary {
  const reasons = new Map<string, number>();
  for (const r of runs) if (r.ours.status === 'error') reasons.set(r.ours.reason, (reasons.get(r.ours.reason) ?? 0) + 1);
  const count = (status: string) => runs.filter((r) => r.ours.status === status).length;
  return {
    files: runs.length,
    reports: count('report'),
    errors: count('error'),
    crashes: count('crash'),
    // The guard ends a run at the budget with an error; a report that took as long is over budget too.
    overBudget: runs.filter((r) => r.ours.ms >= budgetMs).length,
    topReasons: [...reasons].map(([reason, n]) => ({ reason, count: n })).sort((a, b) => b.count - a.count).slice(0, top),
    crashed: runs.flatMap((r) => (r.ours.status === 'crash' ? [{ file: r.file, error: r.ours.error }] : [])),
    slowest: [...runs]
      .sort((a, b) => b.ours.ms - a.ours.ms)
      .slice(0, top)
      .map((r) => ({ file: r.file, ms: r.ours.ms, status: r.ours.status })),
  };
}
