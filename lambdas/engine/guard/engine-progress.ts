/**
 * How far the guarded call running in this thread has got, for the caller's
 * progress figure (the step's page count, lambdas/steps/step-progress.ts):
 * an engine reports pages done out of pages as it goes, and the thread passes
 * each report to the calling side (serve-engine-requests.ts). A report costs
 * a message of two numbers; what is worth storing is decided on the calling
 * side. Outside a guarded call (tests, direct calls) a report goes nowhere.
 */
type ProgressSink = (done: number, total: number) => void;

let sink: ProgressSink | undefined;

export function reportEngineProgress(done: number, total: number): void {
  sink?.(done, total);
}

export function setEngineProgressSink(next: ProgressSink | undefined): void {
  sink = next;
}
