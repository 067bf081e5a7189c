/**
 * JobStore over the single table (layout in dynamo-items.ts). Every status
 * change is one conditional UpdateItem on one item, so concurrent or repeated
 * pipeline events can never move a record backwards; nothing needs a
 * transaction, which also keeps the store working on dynalite.
 */
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Approval, AuditEntry, JobGraph, JobRecord, Review, Status, StepPages, StepRecord, TaskRecord, WebhookDelivery } from '../../domain/model';
import { isTerminal, TERMINAL_STATUSES } from '../../domain/model';
import type { Clock, JobListPage, JobListQuery, JobPatch, JobStore, StepPagesReport, StepPatch, TaskPatch } from '../../domain/ports';
import { iso } from '../../domain/ids';
import { batchWriteAll, queryAll, scanAll, type WriteRequest } from './dynamo-batch';
import { conditionHeld, ExpressionBuilder, isConditionalCheckFailed } from './dynamo-expressions';
import {
  auditToItem,
  itemToAudit,
  itemToJob,
  itemToStep,
  itemToTask,
  jobItemKey,
  jobPartition,
  jobRetentionTtl,
  jobToItem,
  stepItemKey,
  stepToItem,
  taskItemKey,
  taskToItem,
  UNFINISHED_KEY,
  UNFINISHED_VALUE,
  type Item,
  type ItemKey,
} from './dynamo-items';
import { findExpiredJobs } from './dynamo-expired-jobs';
import { listJobsPage } from './dynamo-job-list';
import { assertStepFits } from './inline-result-limit';
import { TABLE_SCHEMA } from './table-schema';

export interface DynamoJobStoreOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  clock: Clock;
}

const UNFINISHED: readonly Status[] = ['pending', 'running'];

export function createDynamoJobStore({ client, tableName, clock }: DynamoJobStoreOptions): JobStore {
  const now = () => iso(clock.now());

  /**
   * SET the status and patch fields when the item exists and its status is one
   * of `from`. Returns false when the condition does not hold.
   */
  async function transition(key: ItemKey, from: Status[], to: Status, fields: Record<string, unknown>, remove: string[] = []): Promise<boolean> {
    if (from.length === 0) return false;
    const x = new ExpressionBuilder();
    const update = [x.set({ ...fields, status: to }), ...(remove.length > 0 ? [`REMOVE ${remove.map((r) => x.name(r)).join(', ')}`] : [])].join(' ');
    const condition = `attribute_exists(${x.name('pk')}) AND ${x.in('status', from)}`;
    return conditionalUpdate(key, update, condition, x);
  }

  /** One UpdateItem under a condition: false when the condition does not hold. */
  function conditionalUpdate(key: ItemKey, update: string, condition: string, x: ExpressionBuilder): Promise<boolean> {
    return conditionHeld(client.send(new UpdateCommand({ TableName: tableName, Key: key, UpdateExpression: update, ConditionExpression: condition, ...x.params() })));
  }

  /**
   * SET fields on an existing item. A record deleted meanwhile (DELETE /jobs
   * racing the pipeline) is left deleted: the condition stops the update from
   * recreating a fragment of it.
   */
  async function patch(key: ItemKey, fields: Record<string, unknown>): Promise<void> {
    const x = new ExpressionBuilder();
    const update = x.set(fields);
    if (update === '') return;
    await conditionalUpdate(key, update, `attribute_exists(${x.name('pk')})`, x);
  }

  /** Every job item matching `condition` (besides being a job), with the attributes of `projection`. */
  async function scanJobs(x: ExpressionBuilder, condition: string, projection: string): Promise<Item[]> {
    const filter = `${x.name('entity')} = ${x.value('job')} AND ${condition}`;
    return scanAll(client, { TableName: tableName, FilterExpression: filter, ProjectionExpression: projection, ...x.params() });
  }

  async function readGraph(jobId: string): Promise<JobGraph | null> {
    const items = await queryAll(client, {
      TableName: tableName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'pk' },
      ExpressionAttributeValues: { ':pk': jobPartition(jobId) },
      // Workers read right after writing; the base table can answer consistently.
      ConsistentRead: true,
    });
    return assembleGraph(items);
  }

  return {
    async createJob(graph) {
      // Rejected before anything is written, like transitionStep.
      for (const step of graph.steps) assertStepFits(step.id, step.result, stepToItem(step));
      const ttl = jobRetentionTtl(graph.job);
      const children: WriteRequest[] = [
        ...graph.tasks.map((t) => ({ PutRequest: { Item: taskToItem(t, ttl) } })),
        ...graph.steps.map((s) => ({ PutRequest: { Item: stepToItem(s, ttl) } })),
      ];
      await batchWriteAll(client, tableName, children);
      // Last, and only if new: the job item is what makes the job visible.
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: jobToItem(graph.job),
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': 'pk' },
        }),
      );
    },

    async getJob(accountId, jobId) {
      const out = await client.send(new GetCommand({ TableName: tableName, Key: jobItemKey(jobId), ConsistentRead: true }));
      if (!out.Item) return null;
      const job = itemToJob(out.Item);
      return job.accountId === accountId ? job : null;
    },

    async getGraph(accountId, jobId) {
      const graph = await readGraph(jobId);
      return graph && graph.job.accountId === accountId ? graph : null;
    },

    getGraphById: readGraph,

    listJobs(query: JobListQuery): Promise<JobListPage> {
      return listJobsPage(client, tableName, query);
    },

    // Scans the whole table: only the local runtime calls this, once at start,
    // to resume jobs a restart interrupted. The cloud never needs it (Step
    // Functions executions survive deployments).
    async listUnfinishedJobIds() {
      const x = new ExpressionBuilder();
      const items = await scanJobs(x, x.in('status', UNFINISHED), x.name('id'));
      return items.map((item) => String(item.id)).sort();
    },

    // Not a scan: the retention sweep calls it hourly in the cloud, where the table holds a whole
    // retention period's jobs; it reads the expiry index from where the last sweep left off.
    listExpiredJobs(at: Date) {
      return findExpiredJobs(client, tableName, at);
    },

    transitionJob(jobId, from, to, jobPatch: JobPatch = {}) {
      // A terminal job leaves the unfinished index in the same write that makes it terminal.
      return transition(jobItemKey(jobId), from, to, { ...jobPatch, modifiedAt: jobPatch.modifiedAt ?? now() }, isTerminal(to) ? [UNFINISHED_KEY] : []);
    },

    // One small Query of the sparse unfinished index, oldest id first (ids are ULIDs).
    async oldestUnfinishedJobId() {
      const { name, partitionKey } = TABLE_SCHEMA.unfinishedIndex;
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: name,
          KeyConditionExpression: '#p = :p',
          ExpressionAttributeNames: { '#p': partitionKey },
          ExpressionAttributeValues: { ':p': UNFINISHED_VALUE },
          ScanIndexForward: true,
          Limit: 1,
        }),
      );
      const id = out.Items?.[0]?.id;
      return typeof id === 'string' ? id : null;
    },

    // Unlike a transition, a job patch does not stamp modifiedAt itself: it
    // records bookkeeping (workflowId, eventPublishedAt), sometimes on a
    // terminal job whose modifiedAt must not move. Pass modifiedAt to set it.
    patchJob(jobId, jobPatch) {
      return patch(jobItemKey(jobId), { ...jobPatch });
    },

    transitionTask(jobId, taskId, from, to, taskPatch: TaskPatch = {}) {
      return transition(taskItemKey(jobId, taskId), from, to, { ...taskPatch, updatedAt: taskPatch.updatedAt ?? now() });
    },

    patchTask(jobId, taskId, taskPatch) {
      return patch(taskItemKey(jobId, taskId), { ...taskPatch, updatedAt: taskPatch.updatedAt ?? now() });
    },

    async transitionStep(jobId, stepId, from, to, stepPatch: StepPatch = {}) {
      // A step item holds little besides what the patch sets, so checking the
      // patch bounds the item; a too-large result must go to the blob store.
      assertStepFits(stepId, stepPatch.result, stepPatch);
      return transition(stepItemKey(jobId, stepId), from, to, { ...stepPatch });
    },

    // Two shapes of one conditional write: a part's count inside the step's
    // `pages` map when the map exists, else the whole map. The second also
    // loses when another part created the map meanwhile, so the first is tried
    // once more. Only a running step, and only a larger count, is written.
    async recordStepPages(jobId, stepId, report: StepPagesReport) {
      const key = stepItemKey(jobId, stepId);
      const running = (x: ExpressionBuilder) => `attribute_exists(${x.name('pk')}) AND ${x.name('status')} = ${x.value('running')}`;
      const intoMap = () => {
        const x = new ExpressionBuilder();
        const part = x.name(`pages.done.${report.part}`);
        const total = report.total === undefined ? '' : `, ${x.name('pages.total')} = ${x.value(report.total)}`;
        const done = x.value(report.done);
        const condition = `${running(x)} AND attribute_type(${x.name('pages')}, ${x.value('M')}) AND (attribute_not_exists(${part}) OR ${part} < ${done})`;
        return conditionalUpdate(key, `SET ${part} = ${done}${total}`, condition, x);
      };
      const wholeMap = () => {
        const x = new ExpressionBuilder();
        const pages: StepPages = { total: report.total ?? null, done: { [report.part]: report.done } };
        return conditionalUpdate(key, `SET ${x.name('pages')} = ${x.value(pages)}`, `${running(x)} AND attribute_not_exists(${x.name('pages')})`, x);
      };
      return (await intoMap()) || (await wholeMap()) || intoMap();
    },

    async appendAudit(jobId, taskId, entry: AuditEntry) {
      await client.send(new PutCommand({ TableName: tableName, Item: auditToItem(jobId, taskId, entry) }));
    },

    // list_append keeps concurrent deliveries from overwriting each other. A job
    // without a webhook, or one deleted meanwhile, has nowhere to record it.
    async appendWebhookDelivery(jobId, delivery: WebhookDelivery) {
      const x = new ExpressionBuilder();
      const deliveries = x.name('webhook.deliveries');
      const update = `SET ${deliveries} = list_append(if_not_exists(${deliveries}, ${x.value([])}), ${x.value([delivery])})`;
      const condition = `attribute_exists(${x.name('pk')}) AND attribute_type(${x.name('webhook')}, ${x.value('M')})`;
      try {
        await client.send(
          new UpdateCommand({ TableName: tableName, Key: jobItemKey(jobId), UpdateExpression: update, ConditionExpression: condition, ...x.params() }),
        );
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    async claimWebhookAttempt(jobId, attempt, nowMs, untilMs) {
      const x = new ExpressionBuilder();
      const claim = x.name('webhook.claim');
      const claimAttempt = x.name('webhook.claim.attempt');
      const claimUntil = x.name('webhook.claim.untilMs');
      const update = `SET ${claim} = ${x.value({ attempt, untilMs })}`;
      const condition =
        `attribute_exists(${x.name('pk')}) AND attribute_type(${x.name('webhook')}, ${x.value('M')}) AND ` +
        `(attribute_not_exists(${claim}) OR ${claimAttempt} < ${x.value(attempt)} OR (${claimAttempt} = ${x.value(attempt)} AND ${claimUntil} < ${x.value(nowMs)}))`;
      return conditionalUpdate(jobItemKey(jobId), update, condition, x);
    },

    async recordReview(jobId, review: Review, canProceed: boolean) {
      const x = new ExpressionBuilder();
      const update = x.set({ review, canProceed, modifiedAt: review.at });
      const reviewName = x.name('review');
      const condition =
        `attribute_exists(${x.name('pk')}) AND (attribute_not_exists(${reviewName}) OR ${reviewName} = ${x.value(null)}) ` +
        `AND ${x.in('status', TERMINAL_STATUSES)}`;
      return conditionalUpdate(jobItemKey(jobId), update, condition, x);
    },

    async revokeShares(jobId) {
      const x = new ExpressionBuilder();
      // ADD starts an absent generation at 0, so the first revocation makes it 1.
      const update = `ADD ${x.name('shareGeneration')} ${x.value(1)} SET ${x.name('modifiedAt')} = ${x.value(now())}`;
      return conditionalUpdate(jobItemKey(jobId), update, `attribute_exists(${x.name('pk')})`, x);
    },

    async recordApproval(jobId, approval: Approval, review) {
      const x = new ExpressionBuilder();
      const update = x.set({ approval, modifiedAt: approval.at, ...(review ? { review: review.review, canProceed: review.canProceed } : {}) });
      const absent = (name: string) => `(attribute_not_exists(${x.name(name)}) OR ${x.name(name)} = ${x.value(null)})`;
      const condition =
        `attribute_exists(${x.name('pk')}) AND ${absent('approval')} AND ${x.in('status', TERMINAL_STATUSES)}` +
        (review ? ` AND ${absent('review')}` : '');
      return conditionalUpdate(jobItemKey(jobId), update, condition, x);
    },

    async deleteJob(jobId) {
      const items = await queryAll(client, {
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
        ExpressionAttributeValues: { ':pk': jobPartition(jobId) },
        ProjectionExpression: '#pk, #sk',
        ConsistentRead: true,
      });
      const jobKey = jobItemKey(jobId);
      // The job item first: once it is gone the job is invisible, even if a
      // later batch fails and leaves children to a retried delete.
      if (items.some((i) => i.sk === jobKey.sk)) await client.send(new DeleteCommand({ TableName: tableName, Key: jobKey }));
      const rest = items.filter((i) => i.sk !== jobKey.sk).map((i) => ({ DeleteRequest: { Key: { pk: String(i.pk), sk: String(i.sk) } } }));
      await batchWriteAll(client, tableName, rest);
    },
  };
}

/** One job partition's items as a JobGraph; null when the job item is absent. */
export function assembleGraph(items: Item[]): JobGraph | null {
  let job: JobRecord | null = null;
  const tasks: TaskRecord[] = [];
  const steps: StepRecord[] = [];
  const auditItems: Item[] = [];
  for (const item of items) {
    switch (item.entity) {
      case 'job':
        job = itemToJob(item);
        break;
      case 'task':
        tasks.push(itemToTask(item));
        break;
      case 'step':
        steps.push(itemToStep(item));
        break;
      case 'audit':
        auditItems.push(item);
        break;
    }
  }
  if (!job) return null;

  // The job's taskIds give the order; a task it does not list (a straggler of a
  // failed create) sorts after, by id.
  const order = new Map(job.taskIds.map((id, i) => [id, i]));
  const rank = (taskId: string) => order.get(taskId) ?? Number.MAX_SAFE_INTEGER;
  tasks.sort((a, b) => rank(a.id) - rank(b.id) || compare(a.id, b.id));
  steps.sort((a, b) => rank(a.taskId) - rank(b.taskId) || compare(a.taskId, b.taskId) || a.index - b.index);

  const audit: Record<string, AuditEntry[]> = {};
  for (const task of tasks) audit[task.id] = [];
  auditItems.sort((a, b) => compare(String(a.sk), String(b.sk)));
  for (const item of auditItems) {
    const { taskId, entry } = itemToAudit(item);
    (audit[taskId] ??= []).push(entry);
  }
  return { job, tasks, steps, audit };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
