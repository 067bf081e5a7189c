/**
 * Plays the pipeline's part for API tests: takes a created job to terminal
 * through the real JobStore and BlobStore, the way ingest, the step workers
 * and the finaliser do (source artifact, step outputs and results, task and
 * job verdicts by the rules of outcomes.ts) — without running any engine.
 */
import { sourceKey, stepOutputKey } from '../../../../lambdas/domain/blob-keys';
import { iso } from '../../../../lambdas/domain/ids';
import type { CheckVerdict, StepRecord, StoredArtifact, TaskRecord } from '../../../../lambdas/domain/model';
import { canProceed, jobOutcome, jobStatus, taskOutcome } from '../../../../lambdas/domain/outcomes';
import type { Services } from '../../../../lambdas/domain/ports';

export interface StandInOptions {
  /** The verdict of every check step (default pass). */
  verdict?: CheckVerdict;
  /** Task indexes that fail at ingest (status error). */
  failTasks?: number[];
  /** The preflight steps' report instead of the default one (findings with boxes, pages). */
  report?: Record<string, unknown>;
}

const PDF_BYTES = new TextEncoder().encode('%PDF-1.7\n%stand-in\n');

async function store(svc: Services, key: string, bytes: Uint8Array, artifact: Omit<StoredArtifact, 'bucket' | 'key' | 'sizeBytes'>): Promise<StoredArtifact> {
  await svc.blobs.putBytes(key, bytes, artifact.mimeType);
  return { ...artifact, bucket: svc.blobs.bucket, key, sizeBytes: bytes.length };
}

function stepResult(step: StepRecord, verdict: CheckVerdict, report?: Record<string, unknown>): { outcome: StepRecord['outcome']; result: unknown } {
  switch (step.type) {
    case 'preflight':
    case 'repreflight':
      return {
        outcome: verdict,
        result: report ?? {
          profile: { id: 'default', name: 'Default' },
          outcome: verdict,
          summary: { errors: verdict === 'fail' ? 1 : 0, warnings: verdict === 'warn' ? 1 : 0, infos: 0, pages: 1 },
          findings: [],
          recommendedFixes: ['boxes.normalize'],
        },
      };
    case 'autofix':
      return { outcome: 'fixed', result: { applied: [{ fixId: 'boxes.normalize', count: 1, pages: [1] }], skipped: [] } };
    case 'validate':
      return { outcome: verdict === 'pass' ? 'pass' : 'fail', result: { compliant: false, profiles: [] } };
    case 'previews':
      return { outcome: 'na', result: { pages: 2, failures: [] } };
    case 'optimize':
      return {
        outcome: 'fixed',
        result: { sizeBytesBefore: PDF_BYTES.length + 100, sizeBytes: PDF_BYTES.length, appliedFixes: ['streams.recompress'], skippedFixes: [{ id: 'file.linearize', reason: 'Not asked for.' }], changed: true },
      };
  }
}

async function runStep(svc: Services, task: TaskRecord, step: StepRecord, verdict: CheckVerdict, report?: Record<string, unknown>): Promise<StoredArtifact | null> {
  const jobs = svc.jobs;
  const started = iso(svc.clock.now());
  await jobs.transitionStep(step.jobId, step.id, ['pending'], 'running', { started });
  const key = (name: string) => stepOutputKey(task.accountId, task.jobId, task.id, step.id, name);
  const outputs: StoredArtifact[] = [];
  let fixed: StoredArtifact | null = null;
  if (step.type === 'preflight' || step.type === 'repreflight' || step.type === 'validate') {
    const role = step.type === 'validate' ? 'validation-report' : 'preflight-report';
    outputs.push(await store(svc, key('report.json'), new TextEncoder().encode('{}'), { kind: 'report', role, mimeType: 'application/json', fileName: 'report.json' }));
  }
  if (step.type === 'autofix' || step.type === 'optimize') {
    const role = step.type === 'autofix' ? 'fixed' : 'optimized';
    fixed = await store(svc, key(`${role}.pdf`), PDF_BYTES, { kind: 'file', role, mimeType: 'application/pdf', fileName: `${role}.pdf` });
    outputs.push(fixed);
  }
  if (step.type === 'previews') {
    for (const page of [2, 1]) {
      outputs.push(await store(svc, key(`page-${page}.jpg`), new Uint8Array([0xff, 0xd8, 0xff]), { kind: 'image', role: 'preview', mimeType: 'image/jpeg', fileName: `page-${page}.jpg`, page, width: 10, height: 10 }));
    }
  }
  const { outcome, result } = stepResult(step, verdict, report);
  const ended = iso(svc.clock.now());
  await jobs.transitionStep(step.jobId, step.id, ['running'], 'done', { outcome, result, outputs, ended, duration: 1 });
  return fixed;
}

export async function finishJob(svc: Services, accountId: string, jobId: string, options: StandInOptions = {}): Promise<void> {
  const jobs = svc.jobs;
  const graph = await jobs.getGraph(accountId, jobId);
  if (!graph) throw new Error(`finishJob: no job ${jobId}`);
  await jobs.transitionJob(jobId, ['pending'], 'running');
  for (const [index, task] of graph.tasks.entries()) {
    if (options.failTasks?.includes(index)) {
      await jobs.transitionTask(jobId, task.id, ['pending'], 'error', { reason: 'The source could not be downloaded (HTTP 404).' });
      continue;
    }
    const original = await store(svc, sourceKey(accountId, jobId, task.id, 'card.pdf'), PDF_BYTES, {
      kind: 'file',
      role: 'source',
      mimeType: 'application/pdf',
      fileName: 'card.pdf',
    });
    await jobs.transitionTask(jobId, task.id, ['pending'], 'running', { fileType: 'pdf', mimeType: 'application/pdf', originalArtifact: original, currentFile: original });
    for (const step of graph.steps.filter((s) => s.taskId === task.id).sort((a, b) => a.index - b.index)) {
      const fixed = await runStep(svc, task, step, options.verdict ?? 'pass', options.report);
      if (fixed) await jobs.patchTask(jobId, task.id, { currentFile: fixed });
    }
    const after = await jobs.getGraph(accountId, jobId);
    await jobs.transitionTask(jobId, task.id, ['running'], 'done', { outcome: taskOutcome(after!.steps.filter((s) => s.taskId === task.id)) });
  }
  const done = (await jobs.getGraph(accountId, jobId))!;
  await jobs.transitionJob(jobId, ['running'], jobStatus(done.tasks), {
    outcome: jobOutcome(done.tasks),
    canProceed: canProceed(done.job.policy.onFail, done.tasks, null),
    finalizedAt: iso(svc.clock.now()),
  });
}
