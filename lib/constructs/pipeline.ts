/**
 * The job pipeline: one Lambda per worker that the job pipeline's definition
 * (step-definitions/job-pipeline.ts) invokes (ingest, the step workers, the failure recorder, the finaliser) and the
 * state machine itself, plus a safety net so no job can stay `running` for ever:
 * when an execution fails or times out as a whole (Finalise itself gave up, or
 * the 6-hour limit), an EventBridge rule invokes the finaliser with the
 * execution's details and `abandoned: true`.
 */
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { EventField, Rule, RuleTargetInput, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { WORKERS, type WorkerId } from '../../step-definitions/workers';
import type { EntryResolver } from '../paths';
import { jobPipelineAsl } from '../../step-definitions/job-pipeline';
import { AslStateMachine, workersInAsl } from './asl-state-machine';
import { ProoflineNodejsFunction, workerFunctionProps } from './proofline-nodejs-function';
import type { Storage } from './storage';


export interface PipelineProps {
  storage: Storage;
  /** The bus the finaliser announces terminal jobs on. */
  eventBus: IEventBus;
  logRetention?: RetentionDays;
  resolveEntry?: EntryResolver;
}

export class Pipeline extends Construct {
  readonly functions: Partial<Record<WorkerId, ProoflineNodejsFunction>> = {};
  readonly stateMachine: StateMachine;
  readonly abandonedExecutionRule: Rule;

  constructor(scope: Construct, id: string, props: PipelineProps) {
    super(scope, id);
    const { bucket, table } = props.storage;

    const definition = jobPipelineAsl();
    for (const workerId of workersInAsl(definition)) {
      const spec = WORKERS[workerId];
      const fn = new ProoflineNodejsFunction(this, `${spec.key}Function`, {
        ...workerFunctionProps(spec),
        logRetention: props.logRetention,
        resolveEntry: props.resolveEntry,
        environment: {
          TABLE_NAME: table.tableName,
          BUCKET_NAME: bucket.bucketName,
          // Ingest downloads source URLs: https only, never private addresses.
          ...(workerId === 'ingest' ? { NETWORK_MODE: 'cloud' } : {}),
        },
      });
      props.storage.grantRecords(fn, 'readWrite');
      // Workers that write files (sources, fixed PDFs, reports, images); the rest only read them.
      props.storage.grantFiles(fn, spec.writesFiles ? 'readWrite' : 'read');
      this.functions[workerId] = fn;
    }

    const finalise = this.functions.finalise;
    if (!finalise) throw new Error('The job pipeline no longer invokes the finaliser');
    finalise.addEnvironment('EVENT_BUS_NAME', props.eventBus.eventBusName);
    props.eventBus.grantPutEventsTo(finalise);

    this.stateMachine = new AslStateMachine(this, 'JobPipeline', {
      definition,
      functions: this.functions,
      logRetention: props.logRetention,
    }).stateMachine;

    // The execution input arrives only as a JSON string (detail.input), which an
    // input transformer cannot unpack, so the finaliser gets the whole detail:
    // { abandoned: true, detail: { executionArn, stateMachineArn, name, status,
    //   input: "<PipelineInput as JSON>", startDate, stopDate, ... } }.
    this.abandonedExecutionRule = new Rule(this, 'AbandonedExecutions', {
      description: 'Makes the job terminal when its pipeline execution fails or times out as a whole.',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: { status: ['FAILED', 'TIMED_OUT'], stateMachineArn: [this.stateMachine.stateMachineArn] },
      },
      targets: [
        new LambdaFunction(finalise, {
          event: RuleTargetInput.fromObject({ abandoned: true, detail: EventField.fromPath('$.detail') }),
        }),
      ],
    });
  }
}
