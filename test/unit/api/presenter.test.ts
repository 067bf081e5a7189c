import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobGraph, StepRecord, StoredArtifact, TaskRecord } from '../../../lambdas/domain/model';
import { jobSummary } from '../../../lambdas/domain/outcomes';
import { presentJob } from '../../../lambdas/domain/present/job';
import { presentRuns } from '../../../lambdas/domain/present/runs';
import type { PreviewsOutputsEntry } from '../../../lambdas/domain/present/previews-outputs';
import { buildWebhookPayload } from '../../../lambdas/domain/present/webhook-payload';
import { jobResponse, jobRunsResponse } from '../../../lambdas/api/openapi/response-schemas';
import { startTestServices, type TestServices } from '../../support/test-services';
import { captureLogLines } from '../../support/log-lines';

const JOB = 'job_01jz0000000000000000000000';
const T1 = 'task_01jz0000000000000000000001';
const T2 = 'task_01jz0000000000000000000002';
const T3 = 'task_01jz0000000000000000000003';
const AT = '2026-07-29T10:15:02.000Z';
const LATER = '2026-07-29T10:15:09.500Z';
const REPREFLIGHT_RESULT_KEY = `acct/jobs/${JOB}/${T1}/s4/result.json`;

const art = (key: string, kind: StoredArtifact['kind'], role: StoredArtifact['role'], extra: Partial<StoredArtifact> = {}): StoredArtifact => ({
  kind,
  role,
  bucket: 'b',
  key: `acct/jobs/${JOB}/${key}`,
  mimeType: kind === 'image' ? 'image/jpeg' : kind === 'report' ? 'application/json' : 'application/pdf',
  sizeBytes: 10,
  fileName: key.split('/').pop()!,
  ...extra,
});

const step = (id: string, taskId: string, index: number, type: StepRecord['type'], extra: Partial<StepRecord>): StepRecord => ({
  id,
  jobId: JOB,
  taskId,
  index,
  type,
  status: 'done',
  outcome: null,
  reason: null,
  params: {},
  runtimeParams: null,
  started: AT,
  ended: LATER,
  duration: 7500,
  outputs: [],
  result: null,
  resultKey: null,
  ...extra,
});

const task = (id: string, extra: Partial<TaskRecord>): TaskRecord => ({
  id,
  jobId: JOB,
  accountId: 'acct',
  createdAt: AT,
  updatedAt: LATER,
  status: 'done',
  outcome: 'pass',
  reason: null,
  fileType: 'pdf',
  mimeType: 'application/pdf',
  source: 'https://files.example.com/card.pdf',
  locator: { kind: 'url', url: 'https://files.example.com/card.pdf' },
  fileRef: null,
  clientRef: null,
  name: null,
  originalArtifact: null,
  currentFile: null,
  stepIds: [],
  ...extra,
});

const original1 = art(`${T1}/source/card.pdf`, 'file', 'source');
const fixed1 = art(`${T1}/s2/fixed.pdf`, 'file', 'fixed');
const original3 = art(`${T3}/source/photo.jpg`, 'file', 'source', { mimeType: 'image/jpeg' });
const preflightReport = { profile: { id: 'default', name: 'Default' }, outcome: 'warn', summary: { errors: 0, warnings: 1, infos: 0, pages: 2 }, findings: [], recommendedFixes: ['boxes.normalize'] };
const repreflightReport = { ...preflightReport, outcome: 'pass', summary: { errors: 0, warnings: 0, infos: 0, pages: 2 }, recommendedFixes: [] };

function terminalGraph(): JobGraph {
  const steps: StepRecord[] = [
    step('s1', T1, 0, 'preflight', {
      outcome: 'warn',
      params: { profileId: 'default' },
      runtimeParams: { profileId: 'default', bleed_mm: 3 },
      result: preflightReport,
      outputs: [art(`${T1}/s1/report.json`, 'report', 'preflight-report'), art(`${T1}/s1/proof-1.jpg`, 'image', 'proof', { page: 1 })],
    }),
    step('s2', T1, 1, 'autofix', {
      outcome: 'fixed',
      result: { applied: [{ fixId: 'boxes.normalize', count: 2, pages: [1, 2] }], skipped: [] },
      outputs: [fixed1],
    }),
    step('s4', T1, 2, 'repreflight', {
      outcome: 'pass',
      resultKey: REPREFLIGHT_RESULT_KEY,
      outputs: [art(`${T1}/s4/report.json`, 'report', 'preflight-report')],
    }),
    step('s5', T1, 3, 'previews', {
      outcome: 'na',
      result: { pages: 2, failures: [], totalPages: 9 },
      outputs: [
        art(`${T1}/s5/page-2.jpg`, 'image', 'preview', { page: 2, width: 100, height: 141 }),
        art(`${T1}/s5/page-1.jpg`, 'image', 'preview', { page: 1, width: 100, height: 141 }),
        art(`${T1}/s5/thumb.jpg`, 'image', 'thumbnail', { page: 1 }),
      ],
    }),
    step('s6', T2, 0, 'validate', { status: 'error', started: null, ended: null, duration: null, reason: 'The source could not be downloaded.' }),
    step('s7', T3, 0, 'validate', { status: 'skipped', started: null, ended: null, duration: null, reason: 'The validate step does not accept raster files.' }),
    step('s8', T3, 1, 'preflight', {
      outcome: 'fail',
      result: { ...preflightReport, outcome: 'fail' },
      outputs: [art(`${T3}/s8/report.json`, 'report', 'preflight-report'), art(`${T3}/s8/proof-1.jpg`, 'image', 'proof', { page: 1 })],
    }),
  ];
  return {
    job: {
      id: JOB,
      accountId: 'acct',
      keyId: 'key_01jz0000000000000000000000',
      endpoint: 'jobs',
      createdAt: AT,
      modifiedAt: LATER,
      status: 'done',
      outcome: 'mixed',
      canProceed: false,
      ruleId: 'rule_a',
      workflowId: 'arn:aws:states:exec',
      channel: 'store',
      metaData: { shop: 'x' },
      orderId: 'o-1',
      customerId: 'c-1',
      customerEmail: 'c@example.com',
      policy: { onFail: 'reject' },
      context: { bleed: { required_mm: 3 } },
      webhook: {
        url: 'https://hooks.example.com/proofline',
        headers: { Authorization: 'Bearer receiver-secret' },
        deliveries: [{ attempt: 1, at: LATER, statusCode: 500, durationMs: 40, error: null }],
      },
      review: null,
      taskIds: [T1, T2, T3],
      finalizedAt: LATER,
    },
    tasks: [
      task(T1, { clientRef: 'line-1', name: 'card.pdf', originalArtifact: original1, currentFile: fixed1 }),
      task(T2, { status: 'error', outcome: null, reason: 'The source could not be downloaded (HTTP 404).', fileType: null, mimeType: null }),
      task(T3, { outcome: 'fail', fileType: 'raster', mimeType: 'image/jpeg', source: 'photo.jpg', locator: { kind: 'inline', key: original3.key, sizeBytes: 10 }, originalArtifact: original3, currentFile: original3 }),
    ],
    steps,
    audit: { [T1]: [{ at: AT, event: 'source.fetched', message: 'Downloaded 10 bytes.' }] },
  };
}

let t: TestServices;
let deps: { blobs: TestServices['services']['blobs']; expiresIn: number };
beforeAll(async () => {
  t = await startTestServices();
  deps = { blobs: t.services.blobs, expiresIn: 3600 };
  await t.services.blobs.putBytes(REPREFLIGHT_RESULT_KEY, new TextEncoder().encode(JSON.stringify(repreflightReport)), 'application/json');
});
afterAll(() => t?.stop());

describe('presentJob on a terminal job', () => {
  it('has every field of the contract’s Job, plus webhook without its headers', async () => {
    const job = await presentJob(terminalGraph(), deps);
    expect(Object.keys(job).sort()).toEqual(
      ['id', 'createdAt', 'modifiedAt', 'status', 'outcome', 'canProceed', 'ruleId', 'workflowId', 'channel', 'metaData', 'tasks', 'orderId', 'customerId', 'customerEmail', 'policy', 'deliverables', 'context', 'webhook', 'summary', 'results',
        // Added by this service for people watching (docs/api.md §4).
        'progress',
        // The reference's fields that mean nothing here, present and null (docs/api.md §11 rule 1).
        'wfPhase', 'wfStreamStatus', 'orderStatus', 'orderDetails', 'expiresAt'].sort(),
    );
    expect(job.webhook).toEqual({ url: 'https://hooks.example.com/proofline', deliveries: [{ attempt: 1, at: LATER, statusCode: 500, durationMs: 40, error: null }] });
    expect(JSON.stringify(job)).not.toContain('receiver-secret');
    expect(jobResponse.safeParse(job).success).toBe(true);
  });

  it('carries the summary of outcomes.jobSummary: created in epoch milliseconds, finalized in ISO 8601, each stored source, domainIdx null', async () => {
    const graph = terminalGraph();
    const job = await presentJob(graph, deps);
    expect(job.summary).toEqual(jobSummary(graph.job, graph.tasks));
    expect(job.summary).toMatchObject({ created: Date.parse(AT), finalized: LATER, taskIds: [T1, T2, T3], domainIdx: null });
    const stored = graph.tasks.filter((t) => t.originalArtifact);
    expect(stored.length).toBeGreaterThan(0);
    expect(job.summary!.sourceRefs).toEqual(stored.map((t) => ({ taskId: t.id, bucket: t.originalArtifact!.bucket, key: t.originalArtifact!.key })));
  });

  it('builds results with keys only for the step types that ran, one entry per step in step order', async () => {
    const graph = terminalGraph();
    const job = await presentJob(graph, deps);
    expect(Object.keys(job.results!).sort()).toEqual(['autofix', 'preflight', 'previews']);
    // Every entry starts with the task's file and the step's status and outcome (docs/api.md §11 rule 4).
    const header = (taskId: string, status: string, outcome: string | null) => {
      const task = graph.tasks.find((t) => t.id === taskId)!;
      return { taskId, fileRef: task.fileRef, source: task.source, fileType: task.fileType, mimeType: task.mimeType, status, outcome };
    };
    expect(job.results!.preflight).toEqual([
      { ...header(T1, 'done', 'warn'), stepId: 's1', stepType: 'preflight', report: preflightReport },
      { ...header(T1, 'done', 'pass'), stepId: 's4', stepType: 'repreflight', report: repreflightReport },
      { ...header(T3, 'done', 'fail'), stepId: 's8', stepType: 'preflight', report: { ...preflightReport, outcome: 'fail' } },
    ]);
    const autofixStep = graph.steps.find((st) => st.type === 'autofix')!;
    // A result stored before autofix worked in rounds is shown as one round.
    const applied = [{ fixId: 'boxes.normalize', count: 2, pages: [1, 2] }];
    expect(job.results!.autofix).toEqual([{ ...header(T1, autofixStep.status, autofixStep.outcome), applied, skipped: [], rounds: [{ applied, skipped: [] }] }]);
    const previewsStep = graph.steps.find((st) => st.type === 'previews')!;
    expect(job.results!.previews).toEqual([{ ...header(T1, previewsStep.status, previewsStep.outcome), pages: 2 }]);
    for (const entries of Object.values(job.results!)) {
      for (const entry of entries as object[]) expect(Object.keys(entry).slice(0, 7)).toEqual(['taskId', 'fileRef', 'source', 'fileType', 'mimeType', 'status', 'outcome']);
    }
  });

  it('lists one deliverable per finished task: the fixed file, else the original', async () => {
    const job = await presentJob(terminalGraph(), deps);
    expect(job.deliverables.map((d) => [d.role, d.fileName])).toEqual([['fixed', 'fixed.pdf'], ['source', 'photo.jpg']]);
    // Which file of a multi-file job each deliverable is (docs/api.md §11 rule 4).
    expect(job.deliverables.map((d) => d.taskId)).toEqual([T1, T3]);
    for (const d of job.deliverables) {
      expect(d.expiresIn).toBe(3600);
      expect(d.downloadUrl).toContain('X-Amz-Expires=3600');
    }
  });

  it('presents tasks with their steps, outputs in step order, audit, and a reason only when in error', async () => {
    const job = await presentJob(terminalGraph(), deps);
    const [t1, t2, t3] = job.tasks;
    expect(Object.keys(t1!).sort()).toEqual(
      ['id', 'createdAt', 'updatedAt', 'status', 'outcome', 'fileType', 'mimeType', 'source', 'name', 'fileRef', 'clientRef', 'jobId', 'wfKind', 'wfPhase', 'originalArtifact', 'inputArtifact', 'currentArtifact', 'outputArtifacts', 'steps', 'audit', 'progress'].sort(),
    );
    expect(t1).toMatchObject({ wfKind: null, wfPhase: null });
    expect(t1!.inputArtifact).toEqual(t1!.originalArtifact);
    // T1 was fixed: its current file is the fixed one.
    expect(t1!.currentArtifact).toMatchObject({ role: 'fixed', downloadUrl: expect.any(String) });
    expect(t1!.steps![0]!.inStream).toBeNull();
    expect(t1!.outputArtifacts.map((a) => a.fileName)).toEqual(['report.json', 'proof-1.jpg', 'fixed.pdf', 'report.json', 'page-2.jpg', 'page-1.jpg', 'thumb.jpg']);
    expect(t1!.audit).toEqual([{ at: AT, event: 'source.fetched', message: 'Downloaded 10 bytes.' }]);
    expect(t1!.steps![0]).toEqual({
      id: 's1', type: 'preflight', status: 'done', outcome: 'warn', reason: null,
      params: { profileId: 'default' }, runtimeParams: { profileId: 'default', bleed_mm: 3 },
      started: AT, ended: LATER, duration: 7500, inStream: null, outputs: expect.any(Array),
    });
    expect(t2!.reason).toBe('The source could not be downloaded (HTTP 404).');
    expect(t2!.audit).toEqual([]);
    expect(t3!.steps![0]).toMatchObject({ status: 'skipped', reason: expect.stringContaining('raster') });
    expect(t1!.originalArtifact).toMatchObject({ role: 'source', downloadUrl: expect.any(String), expiresIn: 3600 });
    expect(t1!.steps![3]!.outputs[0]).toMatchObject({ page: 2, width: 100, height: 141 });
  });

  it('ends a finished previews step\'s outputs with the previews entry: pages rendered, pages in the file, and each page\'s presigned image (docs/api.md §11 rule 6)', async () => {
    const job = await presentJob(terminalGraph(), deps);
    const outputs = job.tasks[0]!.steps![3]!.outputs;
    expect(outputs).toHaveLength(4);
    const entry = outputs[3] as { kind: string; count: number; total: number | null; pages: { page: number; url: string }[] };
    expect(entry).toEqual({
      kind: 'previews',
      count: 2,
      total: 9,
      pages: [
        { page: 1, url: expect.stringContaining('page-1.jpg'), width: 100, height: 141, mimeType: 'image/jpeg' },
        { page: 2, url: expect.stringContaining('page-2.jpg'), width: 100, height: 141, mimeType: 'image/jpeg' },
      ],
    });
    expect(entry.pages[0]!.url).toContain('X-Amz-Expires=3600');
    // A preflight's report file carries the report's counts (step-outputs.ts).
    expect(job.tasks[0]!.steps![0]!.outputs.find((o) => 'role' in o && o.role === 'preflight-report')).toMatchObject({ body: { summary: preflightReport.summary } });
    // Other steps have no such entry.
    expect(job.tasks[0]!.steps![0]!.outputs.some((o) => 'kind' in o && o.kind === 'previews')).toBe(false);
  });

  it('puts the previews entry in the webhook body too, without URLs', () => {
    const payload = buildWebhookPayload(terminalGraph());
    const outputs = payload.tasks[0]!.steps[3]!.outputs;
    const entry = outputs.at(-1) as PreviewsOutputsEntry;
    expect(entry).toMatchObject({ kind: 'previews', count: 2, total: 9 });
    expect(entry.pages.map((p) => p.page)).toEqual([1, 2]);
    for (const p of entry.pages) expect(p).not.toHaveProperty('url');
  });

  it('downloads under the artifact’s file name', async () => {
    const job = await presentJob(terminalGraph(), deps);
    expect(decodeURIComponent(job.deliverables[0]!.downloadUrl)).toContain('fixed.pdf');
  });

  it('has no summary and no results while the job runs, and a lean form without steps', async () => {
    const graph = terminalGraph();
    graph.job.status = 'running';
    const running = await presentJob(graph, deps);
    expect(running.summary).toBeUndefined();
    expect(running.results).toBeUndefined();
    const lean = await presentJob(terminalGraph(), deps, { lean: true });
    expect(lean.summary).toBeUndefined();
    expect(lean.results).toBeUndefined();
    expect(lean.tasks.every((task) => task.steps === undefined)).toBe(true);
    expect(lean.tasks[0]!.outputArtifacts).toHaveLength(7);
  });

  it('gives each task and the job their progress: steps terminal out of steps, the last counting step\'s pages, 100 % once terminal', async () => {
    const graph = terminalGraph();
    graph.steps.find((st) => st.type === 'previews')!.pages = { total: 2, done: { main: 1 } };
    const job = await presentJob(graph, deps);
    const stepsOf = (taskId: string) => graph.steps.filter((st) => st.taskId === taskId).length;
    expect(job.tasks[0]!.progress).toEqual({ stepsDone: stepsOf(T1), stepsTotal: stepsOf(T1), pagesDone: 2, pagesTotal: 2, percent: 100 });
    expect(job.progress).toMatchObject({ stepsDone: graph.steps.length, stepsTotal: graph.steps.length, pagesDone: 2, pagesTotal: 2, percent: 100 });
  });

  it('reports a running job\'s progress in the full and the lean form alike, below 100 %', async () => {
    const graph = terminalGraph();
    graph.job.status = 'running';
    for (const t of graph.tasks) t.status = 'running';
    const previews = graph.steps.find((st) => st.type === 'previews')!;
    previews.status = 'running';
    previews.pages = { total: 40, done: { main: 0, 'batch-0': 20, 'batch-1': 10 } };
    const full = await presentJob(graph, deps);
    const lean = await presentJob(graph, deps, { lean: true });
    expect(lean.progress).toEqual(full.progress);
    expect(lean.tasks.map((t) => t.progress)).toEqual(full.tasks.map((t) => t.progress));
    const t1Steps = graph.steps.filter((st) => st.taskId === T1).length;
    expect(full.tasks[0]!.progress).toMatchObject({ stepsDone: t1Steps - 1, stepsTotal: t1Steps, pagesDone: 30, pagesTotal: 40 });
    expect(full.tasks[0]!.progress.percent).toBe(Math.floor(((t1Steps - 1 + 30 / 40) / t1Steps) * 100));
    expect(full.progress.percent).toBeLessThan(100);
    expect(jobResponse.safeParse(full).success).toBe(true);
  });

  it('shows a step result it cannot read as missing rather than failing', async () => {
    const graph = terminalGraph();
    graph.steps[2]!.resultKey = 'acct/jobs/missing.json';
    const log = captureLogLines();
    try {
      const job = await presentJob(graph, deps);
      expect(job.results!.preflight![1]!.report).toBeNull();
    } finally {
      log.restore();
    }
    expect(log.lines()).toEqual([expect.objectContaining({ level: 'ERROR', message: 'step result not readable', jobId: graph.job.id, stepId: graph.steps[2]!.id })]);
  });
});

describe('presentRuns', () => {
  it('gives each task its proofs, final file and report', async () => {
    const runs = await presentRuns(terminalGraph(), deps);
    expect(jobRunsResponse.safeParse(runs).success).toBe(true);
    expect(runs).toMatchObject({ id: JOB, status: 'done', outcome: 'mixed', canProceed: false });
    const [r1, r2, r3] = runs.runs;
    expect(r1).toMatchObject({ id: T1, name: 'card.pdf', status: 'done', outcome: 'pass', hasOutput: true });
    // Previews, in page order; neither the thumbnail nor preflight's proof.
    expect(r1!.proofs.map((p) => p.page)).toEqual([1, 2]);
    expect(r1!.proofs.every((p) => p.url.includes('/s5/page-'))).toBe(true);
    expect(r1!.downloadUrl).toContain('fixed.pdf');
    expect(r1!.reportUrl).toContain('/s4/report.json');
    expect(r2).toMatchObject({ id: T2, name: 'https://files.example.com/card.pdf', status: 'error', outcome: null, hasOutput: false, proofs: [], downloadUrl: null, reportUrl: null });
    // No previews: preflight's proof images stand in.
    expect(r3!.proofs).toEqual([{ url: expect.stringContaining('/s8/proof-1.jpg'), page: 1 }]);
    expect(r3!.downloadUrl).toContain('photo.jpg');
    expect(r3!.reportUrl).toContain('/s8/report.json');
  });
});

describe('presentRuns after autofix and repreflight', () => {
  it('lists the proofs of the check step whose report it links (the fixed file\'s), not the preflight\'s as well', async () => {
    const graph = terminalGraph();
    // No previews step; the repreflight made a proof of page 2 of the fixed file.
    graph.steps = graph.steps.filter((st) => st.id !== 's5');
    const repreflight = graph.steps.find((st) => st.id === 's4')!;
    repreflight.outputs = [...repreflight.outputs, art(`${T1}/s4/proof-2.jpg`, 'image', 'proof', { page: 2 })];
    const [r1] = (await presentRuns(graph, deps)).runs;
    expect(r1!.proofs).toEqual([{ url: expect.stringContaining('/s4/proof-2.jpg'), page: 2 }]);
  });

  it('lists none when the repreflight found nothing to mark: the preflight\'s proofs would number another report', async () => {
    const graph = terminalGraph();
    graph.steps = graph.steps.filter((st) => st.id !== 's5');
    const [r1] = (await presentRuns(graph, deps)).runs;
    expect(r1!.reportUrl).toContain('/s4/report.json');
    expect(r1!.proofs).toEqual([]);
  });
});

describe('buildWebhookPayload', () => {
  it('is the summary plus type job.completed and the tasks with their steps', () => {
    const graph = terminalGraph();
    const payload = buildWebhookPayload(graph);
    expect(payload).toMatchObject({ ...jobSummary(graph.job, graph.tasks), type: 'job.completed' });
    expect(typeof payload.finalized).toBe('string');
    expect(payload.tasks.map((task) => task.id)).toEqual([T1, T2, T3]);
    expect(Object.keys(payload.tasks[0]!).sort()).toEqual(
      ['id', 'status', 'outcome', 'mimeType', 'fileType', 'clientRef', 'source', 'fileRef', 'sourceRef', 'originalArtifact', 'outputArtifacts', 'steps'].sort(),
    );
    expect(payload.tasks[0]!.sourceRef).toEqual({ bucket: original1.bucket, key: original1.key });
    expect(Object.keys(payload.tasks[0]!.steps[0]!).sort()).toEqual(['id', 'type', 'status', 'outcome', 'reason', 'outputs', 'ended'].sort());
    expect(payload.tasks[0]!.outputArtifacts).toHaveLength(7);
    expect(payload.tasks[0]!.originalArtifact).toEqual(original1);
  });

  it('carries no presigned URLs and no webhook headers', () => {
    const text = JSON.stringify(buildWebhookPayload(terminalGraph()));
    expect(text).not.toContain('downloadUrl');
    expect(text).not.toContain('expiresIn');
    expect(text).not.toContain('X-Amz');
    expect(text).not.toContain('receiver-secret');
    expect(text).not.toContain('hooks.example.com');
    // The only URLs are the tasks' own sources as the client gave them.
    expect(new Set(text.match(/https?:\/\/[^"]+/g))).toEqual(new Set(['https://files.example.com/card.pdf']));
  });
});
