/**
 * Retention in the cloud (lambdas/retention/sweep.ts): a function that deletes expired jobs the way
 * DELETE /jobs/{id} does (its execution stopped, its files, its references to shared uploads, then
 * its records), run by a schedule rule, hourly by default. DynamoDB's TTL on the job's records
 * (a day after its expiry) and the bucket's lifecycle rules catch only what a sweep missed.
 */
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { EntryResolver } from '../paths';
import { ProoflineNodejsFunction } from './proofline-nodejs-function';
import { DeadLetterQueue, eventTargetDelivery } from './dead-letter-queue';
import { grantStopJobExecutions } from './stop-job-executions';
import type { Storage } from './storage';

export const RETENTION_SWEEP_ENTRY = 'lambdas/retention/sweep.ts';

export interface RetentionSweepProps {
  storage: Storage;
  /** The job pipeline's Standard machine: a job still running there when it expires has its execution stopped (Express ones cannot be). */
  standardPipeline: IStateMachine;
  /** How often the sweep runs; default one hour. */
  interval?: Duration;
  logRetention?: RetentionDays;
  resolveEntry?: EntryResolver;
}

export class RetentionSweep extends Construct {
  readonly function: ProoflineNodejsFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: RetentionSweepProps) {
    super(scope, id);
    const { table, bucket } = props.storage;
    this.function = new ProoflineNodejsFunction(this, 'Function', {
      entry: RETENTION_SWEEP_ENTRY,
      memoryMb: 512,
      // A sweep that runs out of time leaves the rest to the next one: each job is deleted whole or not at all.
      timeoutSeconds: 900,
      logRetention: props.logRetention,
      resolveEntry: props.resolveEntry,
      environment: { TABLE_NAME: table.tableName, BUCKET_NAME: bucket.bucketName, STANDARD_STATE_MACHINE_ARN: props.standardPipeline.stateMachineArn },
    });
    props.storage.grantRecords(this.function, 'readWrite');
    // Deleting the job's files, and re-tagging or deleting an upload's file no job uses any more.
    props.storage.grantFiles(this.function, 'readWrite');
    grantStopJobExecutions(props.standardPipeline, this.function);

    this.schedule = new Rule(this, 'Schedule', {
      description: 'Runs the Proofline retention sweep.',
      schedule: Schedule.rate(props.interval ?? Duration.hours(1)),
      // A lost tick only delays deletion to the next hour; it is still kept, as every rule target's is, so a delivery problem shows.
      targets: [new LambdaFunction(this.function, eventTargetDelivery(new DeadLetterQueue(this, 'ScheduleDeadLetters', { holds: 'A scheduled tick of the retention sweep' })))],
    });
  }
}
