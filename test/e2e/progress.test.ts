/**
 * docs/api.md §4 `progress`, watched over HTTP: a previews job of a many-page
 * file reports the pages rendered as its batches render them (three batches of
 * at most 20 pages, in parallel), never goes back, and ends at 100 %.
 */
import { describe, expect, it } from 'vitest';
import { api } from './support/client';
import { onePagePdfBase64 } from './support/files';

const PAGES = 60;
const terminal = (status: string) => status === 'done' || status === 'error';

describe('progress of a previews job of a 60-page file', () => {
  it('advances page by page while the job runs and ends at 100 % with every page counted', async () => {
    const res = await api('POST', '/jobs/previews', {
      body: { sources: [{ file: await onePagePdfBase64({ pages: PAGES }), name: 'catalogue.pdf', params: { format: 'png', dpi: 72, pages: `1-${PAGES}`, thumbnail: false } }] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.job.progress).toEqual({ stepsDone: 0, stepsTotal: 1, pagesDone: 0, pagesTotal: null, percent: 0 });
    const id = res.body.job.id;

    const seen: { status: string; job: any; task: any }[] = [];
    const deadline = Date.now() + 180_000;
    for (;;) {
      const { body } = await api('GET', `/jobs/${id}`);
      seen.push({ status: body.job.status, job: body.job.progress, task: body.job.tasks[0].progress });
      if (terminal(body.job.status) || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const last = seen.at(-1)!;
    expect(last.status).toBe('done');
    expect(last.job).toEqual({ stepsDone: 1, stepsTotal: 1, pagesDone: PAGES, pagesTotal: PAGES, percent: 100 });
    expect(last.task).toEqual(last.job);

    const running = seen.filter((s) => !terminal(s.status));
    // Seen part-way: the pages' total known, some of them rendered and not all.
    const partWay = running.filter((s) => s.task.pagesTotal === PAGES && s.task.pagesDone > 0 && s.task.pagesDone < PAGES);
    expect(partWay.length, JSON.stringify(running.map((s) => s.task))).toBeGreaterThan(0);
    expect(partWay.every((s) => s.task.percent > 0 && s.task.percent < 100)).toBe(true);
    expect(running.every((s) => s.job.percent < 100)).toBe(true);
    // Never back: each read at least where the one before it was.
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.task.pagesDone).toBeGreaterThanOrEqual(seen[i - 1]!.task.pagesDone);
      expect(seen[i]!.task.percent).toBeGreaterThanOrEqual(seen[i - 1]!.task.percent);
      expect(seen[i]!.job.percent).toBeGreaterThanOrEqual(seen[i - 1]!.job.percent);
    }
  }, 200_000);
});
