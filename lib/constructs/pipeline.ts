/**
 * The job pipeline: one Lambda per worker that the job pipeline's definition
 * (step-definitions/job-pipeline.ts) invokes (ingest, the step workers, the
 * failure recorder, the finaliser), and the definition deployed twice: as an
 * Express state machine every job starts in (cheap: billed by the request and
 * the second, not by the transition) and as a Standard one for the job that
 * outlives the Express limit of five minutes. Two safety nets, so no job can
 * stay `running` for ever:
 * - an Express execution that ends without success (timed out, failed,
 *   aborted) is found in its log group by a subscription filter, which invokes
 *   ContinueJob (lambdas/steps/continue-job.ts): the job continues in the
 *   Standard machine. Express executions send no EventBridge events, so their
 *   log is the only place their end can be seen;
 * - a Standard execution that fails or times out as a whole (Finalise itself
 *   gave up, or the 6-hour limit) is found by an EventBridge rule, which invokes
 *   the finaliser with the execution's details and `abandoned: true`.
 */
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { FilterPattern, SubscriptionFilter } from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import { EventField, Rule, RuleTargetInput, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { StateMachineType, type StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { WORKERS, type WorkerId } from '../../step-definitions/workers';
import type { EntryResolver } from '../paths';
import { jobPipelineAsl } from '../../step-definitions/job-pipeline';
import { AslStateMachine, workersInAsl } from './asl-state-machine';
import { asyncInvocationFailures, DeadLetterQueue, eventTargetDelivery } from './dead-letter-queue';
import { ProoflineNodejsFunction, workerFunctionProps } from './proofline-nodejs-function';
import type { Storage } from './storage';

/** The Express execution ends ContinueJob is told of: every end but success. */
export const EXPRESS_UNFINISHED_END_TYPES = ['ExecutionTimedOut', 'ExecutionFailed', 'ExecutionAborted'] as const;

export interface PipelineProps {
  storage: Storage;
  /** The bus the finaliser announces terminal jobs on. */
  eventBus: IEventBus;
  logRetention?: RetentionDays;
  resolveEntry?: EntryResolver;
}

export class Pipeline extends Construct {
  readonly functions: Partial<Record<WorkerId, ProoflineNodejsFunction>> = {};
  /** Every job's first execution. */
  readonly stateMachine: StateMachine;
  /** Where a job still running at the Express limit continues. */
  readonly standardStateMachine: StateMachine;
  readonly continueJobFunction: ProoflineNodejsFunction;
  readonly abandonedExecutionRule: Rule;
  /** Abandoned-execution events the finaliser never took (replayed to the finaliser). */
  readonly abandonedExecutionDeadLetters: DeadLetterQueue;
  /** Express execution ends ContinueJob failed on after its retries (replayed to ContinueJob). */
  readonly continueJobFailures: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: PipelineProps) {
    super(scope, id);
    const express = jobPipelineAsl('express');
    const standard = jobPipelineAsl('standard');
    for (const workerId of workersInAsl(express)) {
      this.functions[workerId] = this.workerFunction(workerId, props, workerId === 'ingest' ? { NETWORK_MODE: 'cloud' } : {});
    }

    const finalise = this.functions.finalise;
    if (!finalise) throw new Error('The job pipeline no longer invokes the finaliser');
    finalise.addEnvironment('EVENT_BUS_NAME', props.eventBus.eventBusName);
    props.eventBus.grantPutEventsTo(finalise);

    // The construct id JobPipeline is kept for the Express machine: it is the one jobs start in.
    const expressMachine = new AslStateMachine(this, 'JobPipeline', {
      definition: express,
      functions: this.functions,
      logRetention: props.logRetention,
      stateMachineType: StateMachineType.EXPRESS,
    });
    this.stateMachine = expressMachine.stateMachine;
    this.standardStateMachine = new AslStateMachine(this, 'StandardJobPipeline', {
      definition: standard,
      functions: this.functions,
      logRetention: props.logRetention,
      stateMachineType: StateMachineType.STANDARD,
    }).stateMachine;

    this.continueJobFunction = this.workerFunction(
      'continueJob',
      props,
      { STATE_MACHINE_ARN: this.stateMachine.stateMachineArn, STANDARD_STATE_MACHINE_ARN: this.standardStateMachine.stateMachineArn },
      { files: false },
    );
    this.standardStateMachine.grantStartExecution(this.continueJobFunction);
    // CloudWatch Logs invokes ContinueJob asynchronously: what still fails after Lambda's retries is kept.
    this.continueJobFailures = new DeadLetterQueue(this, 'ContinueJobFailures', { holds: 'An Express execution end ContinueJob failed on (its job is still running)' });
    asyncInvocationFailures(this.continueJobFunction, this.continueJobFailures);
    new SubscriptionFilter(this, 'ExpressUnfinishedEnds', {
      logGroup: expressMachine.logGroup,
      destination: new LambdaDestination(this.continueJobFunction),
      filterPattern: FilterPattern.any(...EXPRESS_UNFINISHED_END_TYPES.map((type) => FilterPattern.stringValue('$.type', '=', type))),
    });

    // The execution input arrives only as a JSON string (detail.input), which an
    // input transformer cannot unpack, so the finaliser gets the whole detail:
    // { abandoned: true, detail: { executionArn, stateMachineArn, name, status,
    //   input: "<PipelineInput as JSON>", startDate, stopDate, ... } }.
    this.abandonedExecutionDeadLetters = new DeadLetterQueue(this, 'AbandonedExecutionDeadLetters', { holds: 'An abandoned-execution event for the finaliser (its job is still running)' });
    // EventBridge invokes the finaliser asynchronously here (the state machine's Finalise is synchronous).
    asyncInvocationFailures(finalise, this.abandonedExecutionDeadLetters);
    this.abandonedExecutionRule = new Rule(this, 'AbandonedExecutions', {
      description: 'Makes the job terminal when its Standard pipeline execution fails or times out as a whole.',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { status: ['FAILED', 'TIMED_OUT'], stateMachineArn: [this.standardStateMachine.stateMachineArn] },
      },
      targets: [
        new LambdaFunction(finalise, {
          event: RuleTargetInput.fromObject({ abandoned: true, detail: EventField.fromPath('$.detail') }),
          ...eventTargetDelivery(this.abandonedExecutionDeadLetters),
        }),
      ],
    });
  }

  /** A worker's function with the records and files it may touch. */
  private workerFunction(workerId: WorkerId, props: PipelineProps, environment: Record<string, string>, access = { files: true }): ProoflineNodejsFunction {
    const spec = WORKERS[workerId];
    const { bucket, table } = props.storage;
    const fn = new ProoflineNodejsFunction(this, `${spec.key}Function`, {
      ...workerFunctionProps(spec),
      logRetention: props.logRetention,
      resolveEntry: props.resolveEntry,
      // Ingest downloads source URLs: https only, never private addresses (NETWORK_MODE cloud).
      environment: { TABLE_NAME: table.tableName, BUCKET_NAME: bucket.bucketName, ...environment },
    });
    props.storage.grantRecords(fn, 'readWrite');
    // Workers that write files (sources, fixed PDFs, reports, images); the rest only read them, or never touch them.
    if (access.files) props.storage.grantFiles(fn, spec.writesFiles ? 'readWrite' : 'read');
    return fn;
  }
}
