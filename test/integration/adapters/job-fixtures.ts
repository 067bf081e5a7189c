/**
 * Job graphs for store tests, built the way the create-job use case builds
 * them: ids from the id source, tasks listed on the job, steps indexed.
 */
import type { JobGraph, JobRecord, StepRecord, StepType, TaskRecord } from '../../../lambdas/domain/model';
import type { IdSource } from '../../../lambdas/domain/ports';

export interface JobFixtureOptions {
  ids: IdSource;
  accountId?: string;
  /** createdAt of the job and its records; default now. */
  at?: string;
  stepTypes?: StepType[][];
  job?: Partial<JobRecord>;
}

export function makeJobGraph(options: JobFixtureOptions): Omit<JobGraph, 'audit'> {
  const { ids, accountId = 'acct-a', at = new Date().toISOString(), stepTypes = [['preflight', 'previews']] } = options;
  const jobId = ids.next('job');
  const tasks: TaskRecord[] = [];
  const steps: StepRecord[] = [];
  for (const types of stepTypes) {
    const taskId = ids.next('task');
    const taskSteps = types.map(
      (type, index): StepRecord => ({
        id: ids.next('step'),
        jobId,
        taskId,
        index,
        type,
        status: 'pending',
        outcome: null,
        reason: null,
        params: { profileId: 'default' },
        runtimeParams: null,
        started: null,
        ended: null,
        duration: null,
        outputs: [],
        result: null,
        resultKey: null,
      }),
    );
    steps.push(...taskSteps);
    tasks.push({
      id: taskId,
      jobId,
      accountId,
      createdAt: at,
      updatedAt: at,
      status: 'pending',
      outcome: null,
      reason: null,
      fileType: null,
      mimeType: null,
      source: 'https://example.test/card.pdf',
      locator: { kind: 'url', url: 'https://example.test/card.pdf' },
      fileRef: null,
      clientRef: `line-${tasks.length + 1}`,
      name: 'card.pdf',
      originalArtifact: null,
      currentFile: null,
      stepIds: taskSteps.map((s) => s.id),
    });
  }
  const job: JobRecord = {
    id: jobId,
    accountId,
    keyId: 'key_01hzzzzzzzzzzzzzzzzzzzzzzz',
    endpoint: 'jobs',
    createdAt: at,
    modifiedAt: at,
    status: 'pending',
    outcome: null,
    canProceed: null,
    ruleId: null,
    workflowId: null,
    channel: 'api',
    metaData: { shop: 'Ünïcode Print', nested: { n: 1 } },
    orderId: null,
    customerId: null,
    customerEmail: null,
    policy: { onFail: 'reject' },
    context: null,
    webhook: null,
    review: null,
    taskIds: tasks.map((t) => t.id),
    finalizedAt: null,
    ...options.job,
  };
  return { job, tasks, steps };
}

/** An id source whose clock advances one second per job, so createdAt bounds are easy to reason about. */
export function steppingClock(startMs: number) {
  let ms = startMs;
  return { now: () => new Date(ms), advance: (by = 1000) => (ms += by), set: (to: number) => (ms = to) };
}
