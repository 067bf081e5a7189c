/**
 * Jobs the job page starts for one of its tasks, through the public API like any client:
 * - `previews`: page images of the original file, when the job has none of its own (a plain
 *   preflight job renders only proofs, with the findings drawn in: page-images.ts). The console
 *   starts it when the page is opened, as `POST /jobs/previews` on the same file
 *   (task-source.ts), so staff see the pages without asking;
 * - `fix`: "Fix it", on the same file, the steps `POST /jobs/fix` with `repreflight: true` builds
 *   (preflight with the task's profile, autofix with the fixes that preflight recommends,
 *   repreflight) plus a previews step after them. It is sent as `POST /jobs` because the
 *   convenience endpoint takes no further steps, and the previews step is what shows the fixed
 *   file page by page: the fixed file is no upload, so a separate previews job could only get it
 *   by downloading and uploading it through the browser.
 * Which job serves a task is kept in sessionStorage (with the key, for this tab), and requests
 * naming the same file again carry an Idempotency-Key, so reopening the page, or opening it in
 * another tab within 24 hours, finds the same job instead of making another.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, isTerminal } from '../api';
import { usePolling } from '../poll';
import type { JobDetail, TaskDetail } from './job-detail';
import { PREVIEW_PARAMS } from './page-images';
import { sourceOfTask } from './task-source';

export type CompanionKind = 'previews' | 'fix';

const storageKey = (kind: CompanionKind, taskId: string) => `proofline.${kind}.${taskId}`;

export function rememberedJob(kind: CompanionKind, taskId: string): string | null {
  try {
    return sessionStorage.getItem(storageKey(kind, taskId));
  } catch {
    return null;
  }
}

function remember(kind: CompanionKind, taskId: string, jobId: string): void {
  try {
    sessionStorage.setItem(storageKey(kind, taskId), jobId);
  } catch {
    // storage full or refused: the job is started again next time
  }
}

/** The name the new task gets: the original's file name (never its URL). */
const nameOf = (task: TaskDetail): string | undefined => task.name ?? task.originalArtifact?.fileName ?? undefined;

async function create(kind: CompanionKind, taskId: string, path: string, body: (source: Record<string, unknown>) => unknown, task: TaskDetail): Promise<string> {
  const { locator, stable } = await sourceOfTask(task);
  const name = nameOf(task);
  const headers: Record<string, string> = stable ? { 'idempotency-key': `console-${kind}-${taskId}` } : {};
  const answer = await api<{ job: { id: string } }>('POST', path, body({ ...locator, ...(name ? { name } : {}) }), headers);
  remember(kind, taskId, answer.job.id);
  return answer.job.id;
}

export function startPreviewsJob(job: JobDetail, task: TaskDetail): Promise<string> {
  return create('previews', task.id, '/jobs/previews', (source) => ({ sources: [{ ...source, params: PREVIEW_PARAMS }], metaData: { console: { previewsOf: { jobId: job.id, taskId: task.id } } } }), task);
}

export function startFixJob(job: JobDetail, task: TaskDetail, profileId: string): Promise<string> {
  const steps = [{ type: 'preflight', params: { profileId } }, { type: 'autofix' }, { type: 'repreflight' }, { type: 'previews', params: PREVIEW_PARAMS }];
  const context = (job as JobDetail & { context?: unknown }).context;
  return create(
    'fix',
    task.id,
    '/jobs',
    (source) => ({
      sources: [{ ...source, steps }],
      orderId: job.orderId,
      customerId: job.customerId,
      ...(context ? { context } : {}),
      metaData: { console: { fixOf: { jobId: job.id, taskId: task.id } } },
    }),
    task,
  );
}

export interface Companion {
  job: JobDetail | null;
  error: string | null;
  /** Starts the job unless one is already known; errors land in `error`. */
  start: () => void;
  started: boolean;
}

/** The companion job of this kind for the task: remembered, or started by `start()` (or at once when `auto`). */
export function useCompanionJob(kind: CompanionKind, taskId: string, begin: () => Promise<string>, auto: boolean): Companion {
  const [jobId, setJobId] = useState<string | null>(() => rememberedJob(kind, taskId));
  const [job, setJob] = useState<JobDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  const start = () => {
    if (jobId || starting) return;
    setStarting(true);
    setError(null);
    begin()
      .then(setJobId)
      .catch((e: Error) => setError(e.message))
      .finally(() => setStarting(false));
  };
  useEffect(() => {
    if (auto && !jobId) start();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [auto, jobId]);

  usePolling(
    async (current) => {
      if (!jobId) return false;
      try {
        const { job: next } = await api<{ job: JobDetail }>('GET', `/jobs/${encodeURIComponent(jobId)}`);
        if (!current()) return false;
        setJob(next);
        return !isTerminal(next.status);
      } catch (e) {
        if (current()) setError((e as Error).message);
        return false;
      }
    },
    [jobId],
    1500,
  );
  return { job, error, start, started: jobId !== null || starting };
}
