/**
 * A long step's page count, written to its record while it runs (StepRecord.pages,
 * read by domain/present/progress.ts for the `progress` of tasks and jobs).
 *
 * An engine calls the counter as each page finishes; that must cost it nothing,
 * so the counter only remembers the count and writes it at most once every
 * PAGE_COUNT_WRITE_INTERVAL_MS, one write at a time, in the background. `flush`
 * writes the last count when the part ends. A write that fails is logged and
 * forgotten: a progress figure is never worth failing or slowing the step.
 */
import type { StepRecord } from '../domain/model';
import type { JobStore } from '../domain/ports';
import { asError, logger } from '../observability/logger';

/** At most one write of a part's count this often (a 500-page file is not 500 writes). */
export const PAGE_COUNT_WRITE_INTERVAL_MS = 2_000;

export interface PageCounter {
  /** `done` pages of this part so far, and the step's pages when this part knows them. */
  (done: number, total?: number): void;
  /** Writes the last count unless already written, after any write under way. */
  flush(): Promise<void>;
}

export interface PageCounterOptions {
  intervalMs?: number;
  now?: () => number;
}

/** The counter of one part of a step (`main`, or `batch-<n>` for a batch of previews). */
export function pageCounter(jobs: Pick<JobStore, 'recordStepPages'>, step: Pick<StepRecord, 'id' | 'jobId' | 'type'>, part: string, options: PageCounterOptions = {}): PageCounter {
  const intervalMs = options.intervalMs ?? PAGE_COUNT_WRITE_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let latest: { done: number; total?: number } | null = null;
  let written: { done: number; total?: number } | null = null;
  let lastWriteAt = -Infinity;
  let inFlight: Promise<void> | null = null;

  const unwritten = () => latest !== null && (written === null || latest.done > written.done || latest.total !== written.total);

  const write = (): Promise<void> => {
    const report = latest!;
    lastWriteAt = now();
    written = report;
    let call: Promise<unknown>;
    try {
      call = jobs.recordStepPages(step.jobId, step.id, { part, done: report.done, ...(report.total === undefined ? {} : { total: report.total }) });
    } catch (err) {
      // Called from an engine's page callback, where an uncaught throw ends the process: a store
      // that throws at once is a failed write like any other.
      call = Promise.reject(err);
    }
    inFlight = call
      .then(
        () => undefined,
        (err: unknown) => logger.warn({ message: 'page count not written; the next write carries it', worker: step.type, jobId: step.jobId, stepId: step.id }, asError(err)),
      )
      .finally(() => (inFlight = null));
    return inFlight;
  };

  const counter = ((done: number, total?: number) => {
    if (latest && done < latest.done) return;
    latest = { done, total: total ?? latest?.total };
    if (inFlight || now() - lastWriteAt < intervalMs) return;
    void write();
  }) as PageCounter;

  counter.flush = async () => {
    if (inFlight) await inFlight;
    if (unwritten()) await write();
  };
  return counter;
}
