/**
 * The DynamoDB job store against a real dynalite: conditional transitions,
 * graph assembly, audit and webhook appends, reviews, deletes and the job list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynalite, type StandIn } from '../../support/dynalite';
import { useStandInCredentials } from '../../support/s3rver';
import { createDynamoDocumentClient } from '../../../lambdas/adapters/aws/dynamo-client';
import { provisionTable } from '../../../lambdas/adapters/aws/provision';
import { createDynamoJobStore } from '../../../lambdas/adapters/aws/dynamo-job-store';
import { InlineResultTooLargeError, MAX_INLINE_RESULT_BYTES } from '../../../lambdas/adapters/aws/inline-result-limit';
import { ulidIdSource } from '../../../lambdas/domain/ids';
import { ApiError } from '../../../lambdas/domain/errors';
import type { JobStore } from '../../../lambdas/domain/ports';
import type { StoredArtifact } from '../../../lambdas/domain/model';
import { makeJobGraph, steppingClock } from './job-fixtures';

const TABLE = 'jobs-store-test';
let dynalite: StandIn;
let client: DynamoDBDocumentClient;
let store: JobStore;
const clock = steppingClock(Date.parse('2026-07-29T10:00:00.000Z'));
const ids = ulidIdSource(clock);

beforeAll(async () => {
  useStandInCredentials();
  dynalite = await startDynalite();
  client = createDynamoDocumentClient({ region: 'us-east-1', endpoints: { dynamodb: dynalite.endpoint } });
  await provisionTable(client, TABLE);
  store = createDynamoJobStore({ client, tableName: TABLE, clock });
});

afterAll(async () => {
  client?.destroy();
  await dynalite?.stop();
});

async function partitionItems(jobId: string) {
  const out = await client.send(
    new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `JOB#${jobId}` } }),
  );
  return out.Items ?? [];
}

describe('creating and reading a job', () => {
  it('returns the graph as written: tasks in the job\'s order, steps by task then index, an empty audit per task', async () => {
    const graph = makeJobGraph({ ids, stepTypes: [['preflight', 'autofix', 'repreflight'], ['previews']] });
    await store.createJob(graph);
    const read = await store.getGraph('acct-a', graph.job.id);
    expect(read).toEqual({ ...graph, audit: { [graph.tasks[0]!.id]: [], [graph.tasks[1]!.id]: [] } });
    expect(read!.steps.map((s) => `${s.taskId === graph.tasks[0]!.id ? 0 : 1}:${s.index}:${s.type}`)).toEqual([
      '0:0:preflight',
      '0:1:autofix',
      '0:2:repreflight',
      '1:0:previews',
    ]);
    expect(await store.getJob('acct-a', graph.job.id)).toEqual(graph.job);
  });

  it('hides a job from every other account but not from workers', async () => {
    const graph = makeJobGraph({ ids, accountId: 'acct-owner' });
    await store.createJob(graph);
    expect(await store.getJob('acct-other', graph.job.id)).toBeNull();
    expect(await store.getGraph('acct-other', graph.job.id)).toBeNull();
    expect((await store.getGraphById(graph.job.id))?.job.accountId).toBe('acct-owner');
  });

  it('returns null for a job that does not exist', async () => {
    expect(await store.getJob('acct-a', 'job_01j00000000000000000000000')).toBeNull();
    expect(await store.getGraphById('job_01j00000000000000000000000')).toBeNull();
  });

  it('writes more than one batch of tasks and steps (51 items)', async () => {
    const sixteen = Array.from({ length: 16 }, () => 'preflight' as const);
    const graph = makeJobGraph({ ids, stepTypes: [sixteen, sixteen, sixteen] });
    await store.createJob(graph);
    const read = await store.getGraphById(graph.job.id);
    expect(read!.tasks).toHaveLength(3);
    expect(read!.steps).toHaveLength(48);
    expect(read!.steps.map((s) => s.id)).toEqual(graph.steps.map((s) => s.id));
  });

  it('refuses to overwrite an existing job', async () => {
    const graph = makeJobGraph({ ids });
    await store.createJob(graph);
    await expect(store.createJob(graph)).rejects.toThrow();
  });
});

describe('status transitions', () => {
  it('moves forward and sets the patch with modifiedAt', async () => {
    const graph = makeJobGraph({ ids });
    await store.createJob(graph);
    const jobId = graph.job.id;
    expect(await store.transitionJob(jobId, ['pending'], 'running', { workflowId: 'arn:x' })).toBe(true);
    const job = await store.getJob('acct-a', jobId);
    expect(job).toMatchObject({ status: 'running', workflowId: 'arn:x', modifiedAt: clock.now().toISOString() });
  });

  it('never lets a status regress: done → running returns false and changes nothing', async () => {
    const graph = makeJobGraph({ ids });
    await store.createJob(graph);
    const jobId = graph.job.id;
    expect(await store.transitionJob(jobId, ['pending'], 'running')).toBe(true);
    expect(await store.transitionJob(jobId, ['running'], 'done', { outcome: 'pass', canProceed: true })).toBe(true);
    const before = await store.getJob('acct-a', jobId);
    expect(await store.transitionJob(jobId, ['pending', 'running'], 'running')).toBe(false);
    expect(await store.transitionJob(jobId, [], 'error')).toBe(false);
    expect(await store.getJob('acct-a', jobId)).toEqual(before);
  });

  it('lets exactly one of two concurrent pending → running transitions win, for jobs, tasks and steps', async () => {
    for (let round = 0; round < 5; round++) {
      const graph = makeJobGraph({ ids });
      await store.createJob(graph);
      const { job, tasks, steps } = graph;
      const jobWins = await Promise.all([store.transitionJob(job.id, ['pending'], 'running'), store.transitionJob(job.id, ['pending'], 'running')]);
      const taskWins = await Promise.all([
        store.transitionTask(job.id, tasks[0]!.id, ['pending'], 'running'),
        store.transitionTask(job.id, tasks[0]!.id, ['pending'], 'running'),
      ]);
      const stepWins = await Promise.all([
        store.transitionStep(job.id, steps[0]!.id, ['pending'], 'running'),
        store.transitionStep(job.id, steps[0]!.id, ['pending'], 'running'),
      ]);
      for (const wins of [jobWins, taskWins, stepWins]) expect(wins.filter(Boolean)).toHaveLength(1);
    }
  });

  it('patches a finished job\'s bookkeeping without moving its modifiedAt', async () => {
    const graph = makeJobGraph({ ids });
    await store.createJob(graph);
    await store.transitionJob(graph.job.id, ['pending'], 'done', { outcome: 'pass', finalizedAt: clock.now().toISOString() });
    const finished = await store.getJob('acct-a', graph.job.id);
    clock.advance(5000);
    await store.patchJob(graph.job.id, { eventPublishedAt: clock.now().toISOString() });
    expect(await store.getJob('acct-a', graph.job.id)).toEqual({ ...finished, eventPublishedAt: clock.now().toISOString() });
  });

  it('returns false for a record that does not exist and does not create it', async () => {
    const jobId = ids.next('job');
    expect(await store.transitionJob(jobId, ['pending'], 'running')).toBe(false);
    expect(await store.transitionTask(jobId, ids.next('task'), ['pending'], 'running')).toBe(false);
    expect(await store.transitionStep(jobId, ids.next('step'), ['pending'], 'running')).toBe(false);
    await store.patchJob(jobId, { workflowId: 'arn:y' });
    expect(await partitionItems(jobId)).toEqual([]);
  });

  it('records a task\'s and a step\'s patch fields, with updatedAt on the task', async () => {
    const graph = makeJobGraph({ ids });
    await store.createJob(graph);
    const jobId = graph.job.id;
    const task = graph.tasks[0]!;
    const step = graph.steps[0]!;
    const artifact: StoredArtifact = {
      kind: 'report',
      role: 'preflight-report',
      bucket: 'b',
      key: 'k/report.json',
      mimeType: 'application/json',
      sizeBytes: 12,
      fileName: 'report.json',
    };
    clock.advance();
    expect(await store.transitionTask(jobId, task.id, ['pending'], 'running', { fileType: 'pdf', mimeType: 'application/pdf' })).toBe(true);
    expect(
      await store.transitionStep(jobId, step.id, ['pending'], 'done', {
        outcome: 'warn',
        started: '2026-07-29T10:00:01.000Z',
        ended: '2026-07-29T10:00:02.000Z',
        duration: 1000,
        outputs: [artifact],
        result: { outcome: 'warn', findings: [] },
      }),
    ).toBe(true);
    await store.patchTask(jobId, task.id, { currentFile: artifact });
    const graphRead = await store.getGraphById(jobId);
    expect(graphRead!.tasks[0]).toMatchObject({ status: 'running', fileType: 'pdf', currentFile: artifact, updatedAt: clock.now().toISOString() });
    expect(graphRead!.steps[0]).toMatchObject({ status: 'done', outcome: 'warn', duration: 1000, outputs: [artifact], result: { outcome: 'warn' } });
  });

  it('refuses an inline step result over the limit with a clear error and writes nothing', async () => {
    const graph = makeJobGraph({ ids });
    await store.createJob(graph);
    const step = graph.steps[0]!;
    const big = { findings: 'x'.repeat(MAX_INLINE_RESULT_BYTES) };
    const attempt = store.transitionStep(graph.job.id, step.id, ['pending'], 'done', { result: big });
    await expect(attempt).rejects.toBeInstanceOf(InlineResultTooLargeError);
    await expect(attempt).rejects.toThrow(/resultKey/);
    expect((await store.getGraphById(graph.job.id))!.steps[0]!.status).toBe('pending');
    // Just under the limit is stored.
    const fits = { findings: 'y'.repeat(MAX_INLINE_RESULT_BYTES - 100) };
    expect(await store.transitionStep(graph.job.id, step.id, ['pending'], 'done', { result: fits })).toBe(true);
    expect((await store.getGraphById(graph.job.id))!.steps[0]!.result).toEqual(fits);
  });
});

describe('page counts of running steps', () => {
  async function runningStep() {
    const graph = makeJobGraph({ ids, stepTypes: [['previews']] });
    await store.createJob(graph);
    const step = graph.steps[0]!;
    await store.transitionStep(graph.job.id, step.id, ['pending'], 'running');
    const pages = async () => (await store.getGraphById(graph.job.id))!.steps[0]!.pages;
    return { jobId: graph.job.id, stepId: step.id, pages };
  }

  it('keeps the total and each part\'s count, the first report creating the record\'s map', async () => {
    const { jobId, stepId, pages } = await runningStep();
    expect(await pages()).toBeUndefined();
    expect(await store.recordStepPages(jobId, stepId, { part: 'main', done: 0, total: 60 })).toBe(true);
    expect(await store.recordStepPages(jobId, stepId, { part: 'batch-0', done: 12 })).toBe(true);
    expect(await store.recordStepPages(jobId, stepId, { part: 'batch-1', done: 20 })).toBe(true);
    expect(await pages()).toEqual({ total: 60, done: { main: 0, 'batch-0': 12, 'batch-1': 20 } });
  });

  it('never lowers a part\'s count: a retried batch counting again from the start writes nothing until it passes it', async () => {
    const { jobId, stepId, pages } = await runningStep();
    await store.recordStepPages(jobId, stepId, { part: 'batch-0', done: 15 });
    expect(await store.recordStepPages(jobId, stepId, { part: 'batch-0', done: 3 })).toBe(false);
    expect(await store.recordStepPages(jobId, stepId, { part: 'batch-0', done: 15 })).toBe(false);
    expect(await pages()).toEqual({ total: null, done: { 'batch-0': 15 } });
    expect(await store.recordStepPages(jobId, stepId, { part: 'batch-0', done: 18 })).toBe(true);
    expect((await pages())!.done['batch-0']).toBe(18);
  });

  it('loses none of many parts reporting at once, whichever creates the map', async () => {
    const { jobId, stepId, pages } = await runningStep();
    const parts = Array.from({ length: 8 }, (_, i) => `batch-${i}`);
    const written = await Promise.all(parts.map((part, i) => store.recordStepPages(jobId, stepId, { part, done: i + 1 })));
    expect(written.every(Boolean)).toBe(true);
    expect((await pages())!.done).toEqual(Object.fromEntries(parts.map((part, i) => [part, i + 1])));
  });

  it('writes nothing once the step is no longer running, nor for a step that is gone', async () => {
    const { jobId, stepId, pages } = await runningStep();
    await store.recordStepPages(jobId, stepId, { part: 'main', done: 4, total: 9 });
    await store.transitionStep(jobId, stepId, ['running'], 'done');
    expect(await store.recordStepPages(jobId, stepId, { part: 'main', done: 9 })).toBe(false);
    expect(await pages()).toEqual({ total: 9, done: { main: 4 } });
    const gone = ids.next('job');
    expect(await store.recordStepPages(gone, ids.next('step'), { part: 'main', done: 1, total: 2 })).toBe(false);
    expect(await partitionItems(gone)).toEqual([]);
  });
});

describe('audit, webhook deliveries and reviews', () => {
  it('keeps each task\'s audit oldest first, in append order within one millisecond', async () => {
    const graph = makeJobGraph({ ids, stepTypes: [['preflight'], ['previews']] });
    await store.createJob(graph);
    const [t1, t2] = graph.tasks.map((t) => t.id) as [string, string];
    const at = '2026-07-29T10:15:02.000Z';
    await store.appendAudit(graph.job.id, t1, { at: '2026-07-29T10:15:03.000Z', event: 'step.started', stepId: graph.steps[0]!.id, message: 'third' });
    await store.appendAudit(graph.job.id, t1, { at, event: 'source.fetched', message: 'first' });
    await store.appendAudit(graph.job.id, t1, { at, event: 'type.detected', message: 'second' });
    await store.appendAudit(graph.job.id, t2, { at, event: 'source.failed', message: 'other task' });
    const { audit } = (await store.getGraphById(graph.job.id))!;
    expect(audit[t1]!.map((e) => e.message)).toEqual(['first', 'second', 'third']);
    expect(audit[t1]![2]).toEqual({ at: '2026-07-29T10:15:03.000Z', event: 'step.started', stepId: graph.steps[0]!.id, message: 'third' });
    expect(audit[t2]).toEqual([{ at, event: 'source.failed', message: 'other task' }]);
  });

  it('appends concurrent webhook deliveries without losing any', async () => {
    const graph = makeJobGraph({ ids, job: { webhook: { url: 'https://hooks.example.test/x', deliveries: [] } } });
    await store.createJob(graph);
    await Promise.all(
      [1, 2, 3, 4].map((attempt) =>
        store.appendWebhookDelivery(graph.job.id, { attempt, at: new Date().toISOString(), statusCode: 500, durationMs: 10, error: null }),
      ),
    );
    const job = await store.getJob('acct-a', graph.job.id);
    expect(job!.webhook!.url).toBe('https://hooks.example.test/x');
    expect(job!.webhook!.deliveries.map((d) => d.attempt).sort()).toEqual([1, 2, 3, 4]);
  });

  it('records nothing for a job without a webhook', async () => {
    const graph = makeJobGraph({ ids });
    await store.createJob(graph);
    await store.appendWebhookDelivery(graph.job.id, { attempt: 1, at: new Date().toISOString(), statusCode: 200, durationMs: 5, error: null });
    expect((await store.getJob('acct-a', graph.job.id))!.webhook).toBeNull();
  });

  it('records a review once, on a terminal job only, and updates canProceed', async () => {
    const graph = makeJobGraph({ ids, job: { policy: { onFail: 'manual_review' } } });
    await store.createJob(graph);
    const jobId = graph.job.id;
    const review = { decision: 'approve' as const, note: 'ok', at: '2026-07-29T11:00:00.000Z', keyId: 'key_x' };
    expect(await store.recordReview(jobId, review, true)).toBe(false);
    await store.transitionJob(jobId, ['pending'], 'done', { outcome: 'fail', canProceed: false });
    expect(await store.recordReview(jobId, review, true)).toBe(true);
    expect(await store.recordReview(jobId, { ...review, decision: 'reject' }, false)).toBe(false);
    expect(await store.getJob('acct-a', jobId)).toMatchObject({ review, canProceed: true, modifiedAt: review.at });
    expect(await store.recordReview(ids.next('job'), review, true)).toBe(false);
  });
});

describe('deleting and recovering jobs', () => {
  it('deletes the job item and every task, step and audit item of it', async () => {
    const sixteen = Array.from({ length: 16 }, () => 'preflight' as const);
    const graph = makeJobGraph({ ids, stepTypes: [sixteen, sixteen] });
    await store.createJob(graph);
    await store.appendAudit(graph.job.id, graph.tasks[0]!.id, { at: new Date().toISOString(), event: 'source.received', message: 'm' });
    expect((await partitionItems(graph.job.id)).length).toBe(1 + 2 + 32 + 1);
    await store.deleteJob(graph.job.id);
    expect(await partitionItems(graph.job.id)).toEqual([]);
    expect(await store.getGraphById(graph.job.id)).toBeNull();
    await store.deleteJob(graph.job.id); // twice is harmless
  });

  it('lists the ids of unfinished jobs of every account', async () => {
    const pending = makeJobGraph({ ids, accountId: 'acct-r1' });
    const running = makeJobGraph({ ids, accountId: 'acct-r2' });
    const done = makeJobGraph({ ids, accountId: 'acct-r1' });
    for (const g of [pending, running, done]) await store.createJob(g);
    await store.transitionJob(running.job.id, ['pending'], 'running');
    await store.transitionJob(done.job.id, ['pending'], 'done');
    const unfinished = await store.listUnfinishedJobIds();
    expect(unfinished).toContain(pending.job.id);
    expect(unfinished).toContain(running.job.id);
    expect(unfinished).not.toContain(done.job.id);
  });

  it('finds the oldest unfinished job through the unfinished index, which a job leaves as it becomes terminal', async () => {
    for (const id of await store.listUnfinishedJobIds()) await store.transitionJob(id, ['pending', 'running'], 'done');
    expect(await store.oldestUnfinishedJobId()).toBeNull();
    const older = makeJobGraph({ ids, accountId: 'acct-u1' });
    const newer = makeJobGraph({ ids, accountId: 'acct-u2' });
    await store.createJob(older);
    await store.createJob(newer);
    expect(await store.oldestUnfinishedJobId()).toBe(older.job.id);
    await store.transitionJob(older.job.id, ['pending'], 'running');
    expect(await store.oldestUnfinishedJobId()).toBe(older.job.id);
    await store.transitionJob(older.job.id, ['running'], 'error');
    expect(await store.oldestUnfinishedJobId()).toBe(newer.job.id);
    await store.transitionJob(newer.job.id, ['pending'], 'done');
    expect(await store.oldestUnfinishedJobId()).toBeNull();
    // The index key is the store's own: a job record never shows it.
    expect((await store.getGraphById(newer.job.id))!.job).not.toHaveProperty('unfinished');
  });
});

describe('listing jobs', () => {
  const account = 'acct-list';
  const created: { id: string; ms: number; orderId: string | null; channel: string }[] = [];
  const startMs = Date.parse('2026-08-01T00:00:00.000Z');

  beforeAll(async () => {
    clock.set(startMs);
    for (let i = 0; i < 30; i++) {
      const ms = clock.now().getTime();
      const graph = makeJobGraph({
        ids,
        accountId: account,
        at: new Date(ms).toISOString(),
        job: { orderId: i % 3 === 0 ? 'order-3x' : `order-${i}`, channel: i % 2 === 0 ? 'store' : 'api', customerId: 'cust-1' },
      });
      await store.createJob(graph);
      created.push({ id: graph.job.id, ms, orderId: graph.job.orderId, channel: graph.job.channel });
      clock.advance(1000);
    }
    // Another account's jobs interleaved in time must never show up.
    await store.createJob(makeJobGraph({ ids, accountId: 'acct-list-other', job: { orderId: 'order-3x' } }));
  });

  const newestFirst = () => [...created].reverse();

  async function allPages(query: Omit<Parameters<JobStore['listJobs']>[0], 'cursor'>) {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await store.listJobs({ ...query, ...(cursor ? { cursor } : {}) });
      pages.push(page.jobs.map((j) => j.id));
      cursor = page.nextCursor ?? undefined;
      expect(pages.length).toBeLessThan(40);
    } while (cursor);
    return pages;
  }

  it('lists the account\'s jobs newest first', async () => {
    const page = await store.listJobs({ accountId: account, limit: 100 });
    expect(page.jobs.map((j) => j.id)).toEqual(newestFirst().map((c) => c.id));
    expect(page.nextCursor).toBeNull();
  });

  it('pages through a filter matching every third job without skipping or repeating one', async () => {
    const expected = newestFirst().filter((c) => c.orderId === 'order-3x').map((c) => c.id);
    expect(expected).toHaveLength(10);
    const pages = await allPages({ accountId: account, limit: 4, orderId: 'order-3x' });
    expect(pages.map((p) => p.length)).toEqual([4, 4, 2]);
    expect(pages.flat()).toEqual(expected);
  });

  it('pages without filters, the last page carrying a null cursor', async () => {
    const pages = await allPages({ accountId: account, limit: 7 });
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 2]);
    expect(pages.flat()).toEqual(newestFirst().map((c) => c.id));
    // An exact multiple ends without an empty trailing page.
    const tens = await allPages({ accountId: account, limit: 10 });
    expect(tens.map((p) => p.length)).toEqual([10, 10, 10]);
  });

  it('combines filters and a creation window', async () => {
    const after = new Date(created[10]!.ms).toISOString();
    const before = new Date(created[20]!.ms).toISOString();
    const expected = newestFirst()
      .filter((c) => c.ms >= created[10]!.ms && c.ms <= created[20]!.ms && c.channel === 'store')
      .map((c) => c.id);
    const pages = await allPages({ accountId: account, limit: 2, channel: 'store', createdAfter: after, createdBefore: before });
    expect(pages.flat()).toEqual(expected);
    expect(expected).toHaveLength(6);
  });

  it('filters on status, outcome and customerId', async () => {
    const target = created[5]!.id;
    await store.transitionJob(target, ['pending'], 'done', { outcome: 'fail' });
    const done = await store.listJobs({ accountId: account, limit: 20, status: 'done', outcome: 'fail', customerId: 'cust-1' });
    expect(done.jobs.map((j) => j.id)).toEqual([target]);
    expect(done.nextCursor).toBeNull();
    const none = await store.listJobs({ accountId: account, limit: 20, customerId: 'nobody' });
    expect(none).toEqual({ jobs: [], nextCursor: null });
  });

  it('returns an empty page for an empty window', async () => {
    const page = await store.listJobs({ accountId: account, limit: 5, createdAfter: '2026-09-01T00:00:00.000Z', createdBefore: '2026-08-01T00:00:00.000Z' });
    expect(page).toEqual({ jobs: [], nextCursor: null });
  });

  it('refuses a cursor it did not issue as a validation error on nextKey', async () => {
    for (const cursor of ['not-a-cursor', '', 'am9iX25vcGU', '%%%']) {
      const attempt = store.listJobs({ accountId: account, limit: 5, cursor });
      await expect(attempt).rejects.toBeInstanceOf(ApiError);
      await expect(attempt).rejects.toMatchObject({ code: 'validation_error', param: 'nextKey' });
    }
  });
});
