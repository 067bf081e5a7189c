/**
 * GET /jobs/{id}?expand=runs (docs/api.md §3): a flat view of a job for shop
 * integrations that only want links, one run per task:
 * - `proofs`: the preview images (page order) of the last previews step that
 *   made any, or, when no previews were made, the proof images of the check
 *   step whose report is `reportUrl` (after a repreflight, the fixed file's);
 * - `downloadUrl`: the task's final file (fixed by autofix, else the original);
 * - `reportUrl`: the report of the last check step that finished;
 * - `hasOutput`: whether the task's steps produced any file.
 */
import { isCheckStep } from '../outcomes';
import type { JobGraph, JobRecord, StoredArtifact, TaskRecord } from '../model';
import type { PresentDeps } from './artifacts';
import { finalFileOf, stepsOfTask } from './job';

export interface Run {
  id: string;
  name: string;
  status: TaskRecord['status'];
  outcome: TaskRecord['outcome'];
  hasOutput: boolean;
  proofs: { url: string; page: number | null }[];
  downloadUrl: string | null;
  reportUrl: string | null;
}

export interface JobRuns {
  id: string;
  status: JobRecord['status'];
  outcome: JobRecord['outcome'];
  canProceed: boolean | null;
  runs: Run[];
}

const byPage = (a: StoredArtifact, b: StoredArtifact): number => (a.page ?? 0) - (b.page ?? 0);

async function presign(a: StoredArtifact | null | undefined, deps: PresentDeps): Promise<string | null> {
  return a ? deps.blobs.presignGet(a.key, deps.expiresIn, a.fileName) : null;
}

async function runOf(graph: JobGraph, task: TaskRecord, deps: PresentDeps): Promise<Run> {
  const steps = stepsOfTask(graph, task.id);
  const outputs = steps.flatMap((s) => s.outputs ?? []);
  const lastCheck = [...steps].reverse().find((s) => isCheckStep(s.type) && s.status === 'done');
  const report = lastCheck?.outputs?.find((a) => a.kind === 'report');
  // One set of images. Proofs are numbered as the report at reportUrl: after a
  // repreflight, its proofs of the fixed file (none when it found nothing to
  // mark), never the preflight's of the original as well.
  const previews = [...steps].reverse().map((s) => (s.outputs ?? []).filter((a) => a.role === 'preview')).find((list) => list.length > 0) ?? [];
  const proofImages = (previews.length > 0 ? previews : (lastCheck?.outputs ?? []).filter((a) => a.role === 'proof')).sort(byPage);
  const [proofs, downloadUrl, reportUrl] = await Promise.all([
    Promise.all(proofImages.map(async (a) => ({ url: (await presign(a, deps))!, page: a.page ?? null }))),
    presign(finalFileOf(task), deps),
    presign(report, deps),
  ]);
  return {
    id: task.id,
    name: task.name ?? task.source,
    status: task.status,
    outcome: task.outcome,
    hasOutput: outputs.length > 0,
    proofs,
    downloadUrl,
    reportUrl,
  };
}

export async function presentRuns(graph: JobGraph, deps: PresentDeps): Promise<JobRuns> {
  const { job } = graph;
  return {
    id: job.id,
    status: job.status,
    outcome: job.outcome,
    canProceed: job.canProceed,
    runs: await Promise.all(graph.tasks.map((t) => runOf(graph, t, deps))),
  };
}
