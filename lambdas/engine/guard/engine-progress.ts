/**
 * How far the guarded call running in this thread has got, for the caller's
 * progress figure (the step's page count, lambdas/steps/step-progress.ts):
 * an engine reports pages done out of pages as it goes, and the thread passes
 * the reports to the calling side (serve-engine-requests.ts): the first and
 * the last at once, those between at most every REPORT_INTERVAL_MS, so a file
 * of 100,000 small pages is not 100,000 messages. What is worth storing is
 * decided on the calling side. Outside a guarded call (tests, direct calls) a
 * report goes nowhere.
 */
type ProgressSink = (done: number, total: number) => void;

const REPORT_INTERVAL_MS = 250;

let sink: ProgressSink | undefined;
let lastAt = -Infinity;

export function reportEngineProgress(done: number, total: number): void {
  if (!sink) return;
  const now = Date.now();
  if (done > 0 && done < total && now - lastAt < REPORT_INTERVAL_MS) return;
  lastAt = now;
  sink(done, total);
}

export function setEngineProgressSink(next: ProgressSink | undefined): void {
  sink = next;
  lastAt = -Infinity;
}
