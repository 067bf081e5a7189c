/**
 * The job pipeline's state machine definition (Amazon States Language, JSONPath):
 * one execution per job. Each task ingests its source, then runs its steps in
 * order (MaxConcurrency 1, so a step sees the file as the previous one left it);
 * RouteStep sends each step to the Task of the worker the catalogue names for
 * its type. Any failure is recorded on the step and task by RecordFailure;
 * Finalise always runs and makes the job terminal.
 *
 * Built from the step-type catalogue, so a new step type is routed to its
 * worker without editing this file. The same document is deployed by CDK
 * (lib/constructs/pipeline.ts, function ARNs through definitionSubstitutions)
 * and run by the local runtime under aws-local-stepfunctions
 * (lambdas/adapters/local/asl-definition.ts), which keys its handlers by state
 * name: every Task state here is named in its worker's `stateNames`.
 */
import { STEP_CATALOGUE, stepTypesOf, stepWorkers } from './catalogue';
import { WORKERS } from './workers';
import { ASL_PLACEHOLDER, taskTimeoutSeconds, type WorkerSpec } from './worker-spec';

type State = Record<string, unknown>;

/** Retries of the errors Lambda reports when the invocation itself failed, not the function. */
const LAMBDA_SERVICE_RETRY = {
  ErrorEquals: ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException', 'Lambda.TooManyRequestsException'],
  IntervalSeconds: 2,
  MaxAttempts: 4,
  BackoffRate: 2,
  JitterStrategy: 'FULL',
};

const catchInto = (next: string): State[] => [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: next }];

const resource = (w: WorkerSpec): string => `\${${ASL_PLACEHOLDER(w)}}`;

/** A Task state invoking a worker with the given parameters, its timeout the worker's plus the margin. */
function task(w: WorkerSpec, parameters: State, rest: State): State {
  return {
    Type: 'Task',
    Resource: resource(w),
    Parameters: parameters,
    TimeoutSeconds: taskTimeoutSeconds(w),
    Retry: [LAMBDA_SERVICE_RETRY],
    ...rest,
  };
}

const TASK_INPUT = { 'jobId.$': '$.jobId', 'accountId.$': '$.accountId', 'taskId.$': '$.taskId' };
const STEP_INPUT = { ...TASK_INPUT, 'step.$': '$.step' };

/** RouteStep's choice for one worker: the step types it runs, by `$.step.type`. */
function routeTo(w: WorkerSpec): State {
  const matches = stepTypesOf(w.id).map((type) => ({ Variable: '$.step.type', StringEquals: type }));
  return matches.length === 1 ? { ...matches[0], Next: w.key } : { Or: matches, Next: w.key };
}

/** The Task state of a step worker, named by its key. */
function stepTask(w: WorkerSpec): State {
  if (w.stateNames[0] !== w.key) throw new Error(`The step worker ${w.id} must list its Task state ${w.key} first in stateNames`);
  return task(w, STEP_INPUT, { ResultPath: null, Catch: catchInto('StepFailed'), End: true });
}

/**
 * The previews worker renders a document of many pages in batches: its first
 * invocation either renders everything or plans batches; the batches are then
 * rendered in parallel and a last invocation finishes the step (see
 * lambdas/steps/previews.ts).
 */
function previewsStates(w: WorkerSpec): Record<string, State> {
  return {
    [w.key]: task(w, STEP_INPUT, { ResultPath: '$.plan', Catch: catchInto('StepFailed'), Next: 'PreviewsPlanned' }),
    PreviewsPlanned: {
      Type: 'Choice',
      Comment: 'More pages than one batch: the Previews invocation planned batches instead of rendering; render them in parallel, then finish the step.',
      Choices: [
        {
          And: [
            { Variable: '$.plan.status', IsPresent: true },
            { Variable: '$.plan.status', StringEquals: 'batched' },
          ],
          Next: 'RenderPreviewBatches',
        },
      ],
      Default: 'PreviewsEnded',
    },
    PreviewsEnded: { Type: 'Succeed' },
    RenderPreviewBatches: {
      Type: 'Map',
      ItemsPath: '$.plan.batches',
      MaxConcurrency: 25,
      ItemSelector: { ...STEP_INPUT, phase: 'batch', 'batch.$': '$$.Map.Item.Value' },
      ItemProcessor: {
        ProcessorConfig: { Mode: 'INLINE' },
        StartAt: 'RenderPreviewBatch',
        States: {
          RenderPreviewBatch: task(w, { ...STEP_INPUT, 'phase.$': '$.phase', 'batch.$': '$.batch' }, { ResultPath: null, End: true }),
        },
      },
      ResultPath: null,
      Catch: catchInto('StepFailed'),
      Next: 'FinishPreviews',
    },
    FinishPreviews: task(w, { ...STEP_INPUT, phase: 'finish' }, { ResultPath: null, Catch: catchInto('StepFailed'), End: true }),
  };
}

/** RunSteps' iterator: route each step to its worker, record any failure. */
function stepStates(): Record<string, State> {
  const workers = stepWorkers();
  const states: Record<string, State> = {
    RouteStep: { Type: 'Choice', Choices: workers.map(routeTo), Default: 'UnknownStepType' },
  };
  for (const w of workers) Object.assign(states, w.id === STEP_CATALOGUE.previews.worker.id ? previewsStates(w) : { [w.key]: stepTask(w) });
  states.UnknownStepType = {
    Type: 'Pass',
    Result: { Error: 'UnknownStepType', Cause: 'The pipeline has no worker for this step type.' },
    ResultPath: '$.failure',
    Next: 'StepFailed',
  };
  states.StepFailed = task(WORKERS.recordFailure, { ...STEP_INPUT, 'failure.$': '$.failure' }, { ResultPath: null, End: true });
  return states;
}

/** One task: ingest its source, then run its steps unless ingest failed or the file was refused. */
function taskStates(): Record<string, State> {
  return {
    Ingest: task(WORKERS.ingest, TASK_INPUT, { ResultPath: '$.ingest', Catch: catchInto('IngestFailed'), Next: 'SourceReady' }),
    SourceReady: {
      Type: 'Choice',
      Choices: [{ Variable: '$.ingest.ok', BooleanEquals: true, Next: 'RunSteps' }],
      Default: 'TaskEnded',
    },
    IngestFailed: task(WORKERS.recordFailure, { ...TASK_INPUT, 'failure.$': '$.failure' }, { ResultPath: null, Next: 'TaskEnded' }),
    RunSteps: {
      Type: 'Map',
      ItemsPath: '$.steps',
      MaxConcurrency: 1,
      ItemSelector: { ...TASK_INPUT, 'step.$': '$$.Map.Item.Value' },
      ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' }, StartAt: 'RouteStep', States: stepStates() },
      ResultPath: null,
      Next: 'TaskEnded',
    },
    TaskEnded: { Type: 'Succeed' },
  };
}

/**
 * The two machines the one definition is deployed as. Every job starts in the
 * Express machine: billed by the request and the second instead of by the
 * state transition, it is what makes a job cheap (npm run cost), but an
 * Express execution may run five minutes at most and is not exactly-once. A
 * job still running when its Express execution times out is started again in
 * the Standard machine (lib/constructs/pipeline.ts in the cloud, the local
 * orchestrator locally), which may run six hours; the steps already done are
 * not done again (step-runner.ts: `already-done`), the one interrupted is run
 * again (`step.retried`).
 */
export const PIPELINE_KINDS = ['express', 'standard'] as const;
export type PipelineKind = (typeof PIPELINE_KINDS)[number];

/** Step Functions ends an Express execution after five minutes whatever its definition says. */
export const EXPRESS_TIME_LIMIT_SECONDS = 300;
export const STANDARD_TIME_LIMIT_SECONDS = 21600;

export const pipelineTimeLimitSeconds = (kind: PipelineKind): number => (kind === 'express' ? EXPRESS_TIME_LIMIT_SECONDS : STANDARD_TIME_LIMIT_SECONDS);

/** The definition, with `${<Key>FunctionArn}` placeholders where function ARNs go; the kinds differ only in TimeoutSeconds. */
export function jobPipelineDefinition(kind: PipelineKind = 'express'): State {
  return {
    Comment:
      'Proofline job pipeline: one execution per job. Each task ingests its source, then runs its steps in order (MaxConcurrency 1, so a step sees the file as the previous one left it). Any failure is recorded on the step and task by RecordFailure; Finalise always runs and makes the job terminal. A previews step of many pages renders its page batches in parallel (RenderPreviewBatches). Deployed twice: as an Express machine every job starts in, and as a Standard one a job still running after the Express time limit continues in. Function ARN placeholders are filled by CDK definitionSubstitutions and by the local runtime.',
    StartAt: 'ProcessTasks',
    TimeoutSeconds: pipelineTimeLimitSeconds(kind),
    States: {
      ProcessTasks: {
        Type: 'Map',
        ItemsPath: '$.tasks',
        MaxConcurrency: 10,
        ItemSelector: {
          'jobId.$': '$.jobId',
          'accountId.$': '$.accountId',
          'taskId.$': '$$.Map.Item.Value.taskId',
          'steps.$': '$$.Map.Item.Value.steps',
        },
        ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' }, StartAt: 'Ingest', States: taskStates() },
        ResultPath: null,
        Catch: catchInto('Finalise'),
        Next: 'Finalise',
      },
      // Retried on any error: a job must not stay `running` because finalising failed once.
      Finalise: {
        Type: 'Task',
        Resource: resource(WORKERS.finalise),
        Parameters: { 'jobId.$': '$.jobId', 'accountId.$': '$.accountId' },
        TimeoutSeconds: taskTimeoutSeconds(WORKERS.finalise),
        ResultPath: null,
        Retry: [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 2, MaxAttempts: 6, BackoffRate: 2, JitterStrategy: 'FULL' }],
        End: true,
      },
    },
  };
}

/** The definition as the text CDK deploys and the local runtime parses. */
export const jobPipelineAsl = (kind: PipelineKind = 'express'): string => `${JSON.stringify(jobPipelineDefinition(kind), null, 2)}\n`;
