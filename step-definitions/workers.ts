/**
 * The functions the state machines invoke: ingest, the step workers (taken from
 * the step-type catalogue), the failure recorder, the finaliser, the job
 * continuer and the webhook caller. CDK builds one Lambda from each (lib/constructs/pipeline.ts and
 * job-events.ts); the local runtime runs the same entries (local/worker-invoker.ts).
 * What a spec holds is described in worker-spec.ts.
 */
import { stepWorkers, type StepWorkerId } from './catalogue';
import { worker, type WorkerSpec } from './worker-spec';

export { ASL_PLACEHOLDER, TASK_TIMEOUT_MARGIN_SECONDS, taskTimeoutSeconds, type WorkerSpec } from './worker-spec';

// Ingest downloads or copies each task's source into the job's prefix and detects its type.
const ingest = worker({ id: 'ingest', key: 'Ingest', stateNames: ['Ingest'], entry: 'lambdas/steps/ingest.ts', memoryMb: 1024, timeoutSeconds: 300, ephemeralStorageMb: 1536, writesFiles: true, threaded: true });
const recordFailure = worker({ id: 'recordFailure', key: 'RecordFailure', stateNames: ['IngestFailed', 'StepFailed'], entry: 'lambdas/steps/record-failure.ts', memoryMb: 512, timeoutSeconds: 30, ephemeralStorageMb: 512 });
const finalise = worker({ id: 'finalise', key: 'Finalise', stateNames: ['Finalise'], entry: 'lambdas/steps/finalise.ts', memoryMb: 1024, timeoutSeconds: 60, ephemeralStorageMb: 512 });
// Not in any state machine: a job whose Express execution ended unfinished continues in the Standard one (job-pipeline.ts).
const continueJob = worker({ id: 'continueJob', key: 'ContinueJob', stateNames: [], entry: 'lambdas/steps/continue-job.ts', memoryMb: 512, timeoutSeconds: 60, ephemeralStorageMb: 512 });
const webhookCaller = worker({ id: 'webhookCaller', key: 'WebhookCaller', stateNames: ['Deliver'], entry: 'lambdas/webhooks/caller.ts', memoryMb: 512, timeoutSeconds: 60, ephemeralStorageMb: 512 });

type FixedWorkerId = 'ingest' | 'recordFailure' | 'finalise' | 'continueJob' | 'webhookCaller';
export type WorkerId = FixedWorkerId | StepWorkerId;

/** Every worker by id: ingest, then the step workers in catalogue order, then the rest. */
export const WORKERS = Object.fromEntries(
  [ingest, ...stepWorkers(), recordFailure, finalise, continueJob, webhookCaller].map((w) => [w.id, w]),
) as { readonly [Id in WorkerId]: WorkerSpec<Id> };
