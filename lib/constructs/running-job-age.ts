/**
 * The source of OldestRunningJobAge: a small function
 * (lambdas/monitoring/oldest-running-job.ts) that a schedule invokes every few
 * minutes, so the age is published even when nothing else runs, which is when
 * a job is stuck. It only reads the table.
 */
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { EntryResolver } from '../paths';
import { DeadLetterQueue, eventTargetDelivery } from './dead-letter-queue';
import { ProoflineNodejsFunction } from './proofline-nodejs-function';
import type { Storage } from './storage';

export const RUNNING_JOB_AGE_ENTRY = 'lambdas/monitoring/oldest-running-job.ts';

export interface RunningJobAgeProps {
  storage: Storage;
  /** How often the age is published; default every 5 minutes (each run scans the table for unfinished jobs). */
  every?: Duration;
  logRetention?: RetentionDays;
  resolveEntry?: EntryResolver;
}

export class RunningJobAge extends Construct {
  readonly function: ProoflineNodejsFunction;
  readonly schedule: Rule;
  readonly every: Duration;

  constructor(scope: Construct, id: string, props: RunningJobAgeProps) {
    super(scope, id);
    this.every = props.every ?? Duration.minutes(5);
    this.function = new ProoflineNodejsFunction(this, 'Function', {
      entry: RUNNING_JOB_AGE_ENTRY,
      memoryMb: 256,
      timeoutSeconds: 120,
      logRetention: props.logRetention,
      resolveEntry: props.resolveEntry,
      // Only the table is read (and granted); services() builds its adapters from both names.
      environment: { TABLE_NAME: props.storage.table.tableName, BUCKET_NAME: props.storage.bucket.bucketName },
    });
    props.storage.grantRecords(this.function, 'read');
    // A tick carries nothing but the time, so a lost one is only a late number; it still gets
    // a dead-letter queue, as every rule target here does, so a delivery problem shows.
    const dlq = new DeadLetterQueue(this, 'ScheduleDeadLetters', { holds: 'A scheduled tick of the running-job age' });
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Publishes the age of the oldest job not yet terminal (OldestRunningJobAge).',
      schedule: Schedule.rate(this.every),
      targets: [new LambdaFunction(this.function, eventTargetDelivery(dlq))],
    });
  }
}
