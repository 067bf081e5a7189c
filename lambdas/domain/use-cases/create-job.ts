/**
 * Creates a job from a JobRequest (any job-creating endpoint): checks what the
 * request alone cannot show (a profile a step names is a built-in or the
 * account's own, an upload belongs to the account and its file arrived),
 * records an account profile's definition, resolved, on the steps that name it
 * (so editing or deleting the profile later never changes this job), writes inline files to the blob store, refers the job to the
 * uploads it reads (never copied: upload-references.ts), creates the job, task
 * and step records, and starts the pipeline with references only (PipelineInput).
 *
 * All or nothing: if anything fails after the first write, everything written
 * (blobs, records, a started execution) is undone and the request fails with
 * 503 service_unavailable, so a client's retry starts clean.
 */
import { ApiError } from '../errors';
import { jobPrefix, sourceKey, uploadKey } from '../blob-keys';
import { idTime, iso } from '../ids';
import type { Caller, JobGraph, JobRecord, SourceLocator, StepRecord, TaskRecord } from '../model';
import type { BlobStore, IdSource, JobStore, KeyStore, Orchestrator, PipelineInput, ProfileStore, UploadStore } from '../ports';
import type { PreflightProfileInfo } from '../../engine/preflight/profiles';
import { profileForJob } from './account-profiles';
import type { RuntimeConfig } from '../../platform/config';
import { jobExpiry, retentionDaysFor } from '../retention';
import type { JobRequest, SourceInput, SourceRequest } from './job-request';
import { fileNameFromUrl } from '../file-names';
import { holdUploads, releaseUploads, uploadsUsed, type UploadUse } from './upload-references';
import { asError, logger } from '../../observability/logger';

export interface CreateJobDeps {
  jobs: JobStore;
  uploads: UploadStore;
  blobs: BlobStore;
  orchestrator: Orchestrator;
  /** Mints the job id, whose instant is also the job's createdAt. */
  ids: IdSource;
  /** The account's own retention period, if it has one (retention.ts). */
  keys: Pick<KeyStore, 'getAccount'>;
  /** The account's own preflight profiles, which steps may name. */
  profiles: Pick<ProfileStore, 'getProfile'>;
  config: Pick<RuntimeConfig, 'retentionDays'>;
}

/** The account profiles the request's steps name, resolved, by source and step index (a built-in needs no entry). */
type StepProfiles = Map<string, PreflightProfileInfo>;
const stepProfileKey = (sourceIndex: number, stepIndex: number): string => `${sourceIndex}/${stepIndex}`;

/**
 * Resolves every `params.profileId` of the request: a built-in stays an id, an account's own is
 * read once and resolved (account-profiles.ts). One the account does not have (another account's
 * included) is a 400 profile_not_found at the field that named it.
 */
async function resolveStepProfiles(deps: CreateJobDeps, accountId: string, request: JobRequest): Promise<StepProfiles> {
  const byId = new Map<string, Promise<PreflightProfileInfo | null | undefined>>();
  const resolved: StepProfiles = new Map();
  for (const [sourceIndex, source] of request.sources.entries()) {
    for (const [stepIndex, step] of source.steps.entries()) {
      const profileId = step.params.profileId;
      if (typeof profileId !== 'string') continue;
      if (!byId.has(profileId)) byId.set(profileId, profileForJob(deps.profiles, accountId, profileId));
      const profile = await byId.get(profileId);
      if (profile === undefined) {
        const param = `sources[${sourceIndex}].${step.profileParam ?? `steps[${stepIndex}].params.profileId`}`;
        throw new ApiError('profile_not_found', `${param}: unknown preflight profile "${profileId}"; GET /profiles lists them`, param);
      }
      if (profile) resolved.set(stepProfileKey(sourceIndex, stepIndex), profile);
    }
  }
  return resolved;
}

/** A source once checked: where its bytes are (or will be fetched from) and what the task shows. */
interface ResolvedSource {
  request: SourceRequest;
  taskId: string;
  locator: SourceLocator;
  /** The contract's `source`: the URL, or the file name. */
  display: string;
  fileRef: string | null;
  /** Inline bytes still to be written to storage. */
  pendingWrite: { key: string; bytes: Uint8Array } | null;
}

/** The file name of a source without `name`: the URL's last path segment, else something stable. */
export function defaultFileName(input: SourceInput, index: number): string {
  switch (input.kind) {
    case 'url':
      return fileNameFromUrl(input.url) ?? `download-${index + 1}`;
    case 'file':
      return `file-${index + 1}`;
    case 'fileRef':
      return input.uploadId;
  }
}

async function resolveSource(
  deps: CreateJobDeps,
  accountId: string,
  jobId: string,
  request: SourceRequest,
  index: number,
): Promise<ResolvedSource> {
  const taskId = deps.ids.next('task');
  const fileName = request.name ?? defaultFileName(request.input, index);
  const input = request.input;
  switch (input.kind) {
    case 'url':
      return {
        request,
        taskId,
        locator: { kind: 'url', url: input.url, ...(input.headers ? { headers: input.headers } : {}) },
        display: input.url,
        fileRef: null,
        pendingWrite: null,
      };
    case 'file': {
      if (input.bytes.length === 0) {
        throw new ApiError('validation_error', `sources[${index}].file: is empty`, `sources[${index}].file`);
      }
      const key = sourceKey(accountId, jobId, taskId, fileName);
      return {
        request,
        taskId,
        locator: { kind: 'inline', key, sizeBytes: input.bytes.length },
        display: fileName,
        fileRef: null,
        pendingWrite: { key, bytes: input.bytes },
      };
    }
    case 'fileRef': {
      const param = `sources[${index}].fileRef`;
      const upload = await deps.uploads.getUpload(accountId, input.uploadId);
      if (!upload) throw new ApiError('source_not_uploaded', `${param}: no upload ${input.uploadId} in this account`, param);
      const key = upload.key || uploadKey(accountId, upload.id);
      const head = await deps.blobs.head(key);
      if (!head) {
        throw new ApiError('source_not_uploaded', `${param}: the file of ${input.uploadId} has not been uploaded yet`, param);
      }
      if (head.sizeBytes > upload.sizeBytes) {
        throw new ApiError(
          'source_not_uploaded',
          `${param}: the uploaded file is ${head.sizeBytes} bytes, more than the ${upload.sizeBytes} bytes declared`,
          param,
        );
      }
      return {
        request,
        taskId,
        locator: { kind: 'upload', uploadId: upload.id, key, ...(head.etag ? { etag: head.etag } : {}) },
        display: fileName,
        fileRef: upload.id,
        pendingWrite: null,
      };
    }
  }
}

function buildGraph(
  deps: CreateJobDeps,
  caller: Caller,
  jobId: string,
  request: JobRequest,
  sources: ResolvedSource[],
  profiles: StepProfiles,
  now: string,
  expiresAt: string,
): Omit<JobGraph, 'audit'> {
  const tasks: TaskRecord[] = [];
  const steps: StepRecord[] = [];
  for (const [sourceIndex, source] of sources.entries()) {
    const stepIds: string[] = [];
    source.request.steps.forEach((step, index) => {
      const id = deps.ids.next('step');
      const profile = profiles.get(stepProfileKey(sourceIndex, index));
      stepIds.push(id);
      steps.push({
        id,
        jobId,
        taskId: source.taskId,
        index,
        type: step.type,
        status: 'pending',
        outcome: null,
        reason: null,
        params: step.params,
        runtimeParams: null,
        started: null,
        ended: null,
        duration: null,
        outputs: [],
        result: null,
        resultKey: null,
        ...(profile ? { profile } : {}),
      });
    });
    tasks.push({
      id: source.taskId,
      jobId,
      accountId: caller.accountId,
      createdAt: now,
      updatedAt: now,
      status: 'pending',
      outcome: null,
      reason: null,
      fileType: null,
      mimeType: source.request.mimeType,
      source: source.display,
      locator: source.locator,
      fileRef: source.fileRef,
      clientRef: source.request.clientRef,
      name: source.request.name === null ? null : safeDisplayName(source.request.name),
      originalArtifact: null,
      currentFile: null,
      stepIds,
    });
  }
  const job: JobRecord = {
    id: jobId,
    accountId: caller.accountId,
    keyId: caller.keyId,
    endpoint: request.endpoint,
    createdAt: now,
    modifiedAt: now,
    status: 'pending',
    outcome: null,
    canProceed: null,
    ruleId: request.ruleId,
    workflowId: null,
    channel: request.channel,
    metaData: request.metaData,
    orderId: request.orderId,
    customerId: request.customerId,
    customerEmail: request.customerEmail,
    policy: request.policy,
    context: request.context,
    webhook: request.webhook ? { ...request.webhook, deliveries: [] } : null,
    review: null,
    taskIds: tasks.map((t) => t.id),
    finalizedAt: null,
    expiresAt,
  };
  return { job, tasks, steps };
}

/** The name as given, minus characters that would corrupt a download header. */
function safeDisplayName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, '_');
}

export function pipelineInputOf(graph: Omit<JobGraph, 'audit'>): PipelineInput {
  return {
    jobId: graph.job.id,
    accountId: graph.job.accountId,
    tasks: graph.tasks.map((task) => ({
      taskId: task.id,
      steps: graph.steps
        .filter((s) => s.taskId === task.id)
        .sort((a, b) => a.index - b.index)
        .map((s) => ({ stepId: s.id, type: s.type, index: s.index })),
    })),
  };
}

export async function createJob(deps: CreateJobDeps, caller: Caller, request: JobRequest): Promise<JobGraph> {
  const jobId = deps.ids.next('job');
  // One instant: the one in the id. GET /jobs bounds createdAfter/createdBefore
  // on the id, so a second clock reading here could list a job outside its own
  // createdAt (a millisecond apart).
  const now = iso(new Date(idTime(jobId)));

  // Checks first, nothing written yet: the profiles, then the sources. The sources' run together;
  // the first problem in source order is the one reported, whichever finished first.
  const profiles = await resolveStepProfiles(deps, caller.accountId, request);
  const settled = await Promise.allSettled(
    request.sources.map((source, index) => resolveSource(deps, caller.accountId, jobId, source, index)),
  );
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const sources = settled.map((r) => (r as PromiseFulfilledResult<ResolvedSource>).value);
  const retentionDays = retentionDaysFor(await deps.keys.getAccount(caller.accountId), deps.config.retentionDays);
  const graph = buildGraph(deps, caller, jobId, request, sources, profiles, now, jobExpiry(now, retentionDays));
  const uploads = uploadsUsed(sources.map((s) => s.locator));

  let workflowId: string | null = null;
  try {
    await Promise.all(
      sources.map((s) => (s.pendingWrite ? deps.blobs.putBytes(s.pendingWrite.key, s.pendingWrite.bytes, 'application/octet-stream') : null)),
    );
    // Before the records: a job that exists always holds the uploads it reads.
    await holdUploads(deps, caller.accountId, jobId, uploads);
    await deps.jobs.createJob(graph);
    workflowId = await deps.orchestrator.startJob(pipelineInputOf(graph));
    await deps.jobs.patchJob(jobId, { workflowId });
  } catch (error) {
    logger.error({ message: 'job creation failed; undoing', jobId }, asError(error));
    await undo(deps, caller.accountId, jobId, workflowId, uploads);
    throw new ApiError('service_unavailable', 'The job could not be created; nothing was kept. Retry in a moment.');
  }
  graph.job.workflowId = workflowId;
  return { ...graph, audit: {} };
}

async function undo(deps: CreateJobDeps, accountId: string, jobId: string, workflowId: string | null, uploads: UploadUse[]): Promise<void> {
  const attempts: [string, () => Promise<unknown>][] = [
    ['stop execution', async () => (workflowId ? deps.orchestrator.stop(workflowId) : undefined)],
    ['delete records', () => deps.jobs.deleteJob(jobId)],
    ['delete files', () => deps.blobs.deletePrefix(jobPrefix(accountId, jobId))],
    ['release uploads', () => releaseUploads(deps, accountId, jobId, uploads)],
  ];
  // In order, and each regardless of the others: a stopped execution writes nothing more.
  for (const [what, attempt] of attempts) {
    try {
      await attempt();
    } catch (error) {
      logger.error({ message: `undo: could not ${what}`, jobId }, asError(error));
    }
  }
}
