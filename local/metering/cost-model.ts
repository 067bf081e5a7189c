/**
 * Prices applied to metered usage: the cost of a job kind per 1,000 jobs,
 * itemised by service, from what N runs of it consumed (meter.ts) and the list
 * prices (prices.ts). Pure arithmetic; the billing rules are here:
 *
 * - Step Functions Express: a request per execution, and GB-seconds with the
 *   memory in 64 MB steps and the duration rounded up to 100 ms, per
 *   execution; Standard: per state transition;
 * - Lambda: a request per invocation and GB-seconds of the function's memory
 *   times its duration rounded up to 1 ms, per invocation;
 * - S3 storage: the bytes a job leaves stored, for the retention period, in
 *   GB-months of 30 days.
 */
import type { MeteredUsage } from './meter';
import * as P from './prices';

export interface CostLine {
  service: string;
  item: string;
  /** Per job, averaged over the runs. */
  count: number;
  unit: string;
  /** Dollars per unit. */
  unitPrice: number;
  /** Dollars per 1,000 jobs; null for a row that was not measured. */
  perThousandJobs: number | null;
  note?: string;
}

export interface CostModel {
  lines: CostLine[];
  /** Dollars per 1,000 jobs, measured rows only. */
  total: number;
  /** The same runs with every execution in a Standard machine (transitions instead of Express requests and duration). */
  allStandardTotal: number;
}

export interface CostInputs {
  /** What the runs consumed in all. */
  usage: MeteredUsage;
  runs: number;
  /** Bytes left stored in the bucket per job. */
  storedBytesPerJob: number;
  retentionDays: number;
  /** Bytes of log lines the job's functions wrote per job, or null when not measured. */
  logBytesPerJob: number | null;
}

/** GB-seconds an Express execution is billed for: memory in 64 MB steps, duration in 100 ms steps. */
export function expressGbSeconds(durationMs: number, memoryMb: number = P.SFN_EXPRESS_ASSUMED_MEMORY_MB): number {
  const billedMb = Math.max(1, Math.ceil(memoryMb / P.SFN_EXPRESS_MEMORY_STEP_MB)) * P.SFN_EXPRESS_MEMORY_STEP_MB;
  const billedMs = Math.max(1, Math.ceil(durationMs / P.SFN_EXPRESS_DURATION_STEP_MS)) * P.SFN_EXPRESS_DURATION_STEP_MS;
  return (billedMb / 1024) * (billedMs / 1000);
}

/** GB-seconds a Lambda invocation is billed for: configured memory times duration rounded up to 1 ms. */
export function lambdaGbSeconds(durationMs: number, memoryMb: number): number {
  const billedMs = Math.max(1, Math.ceil(durationMs / P.LAMBDA_DURATION_STEP_MS)) * P.LAMBDA_DURATION_STEP_MS;
  return (memoryMb / 1024) * (billedMs / 1000);
}

/** GB-months of keeping `bytes` for `days` (a month of 30 days). */
export const storageGbMonths = (bytes: number, days: number): number => (bytes / P.BYTES_PER_GB) * (days / 30);

const line = (service: string, item: string, count: number, unit: string, unitPrice: number, note?: string): CostLine => ({
  service,
  item,
  count,
  unit,
  unitPrice,
  perThousandJobs: count * unitPrice * 1000,
  ...(note ? { note } : {}),
});

export function costModel(inputs: CostInputs): CostModel {
  const { usage, runs } = inputs;
  const per = (n: number) => n / runs;
  const express = usage.executions.filter((e) => e.kind === 'express');
  const standard = usage.executions.filter((e) => e.kind === 'standard');
  const transitions = (xs: typeof usage.executions) => xs.reduce((s, e) => s + e.stateTransitions, 0);

  const lines: CostLine[] = [
    line('Step Functions', 'Express requests', per(express.length), 'execution', P.SFN_EXPRESS_PER_REQUEST),
    line('Step Functions', 'Express duration (64 MB assumed)', per(express.reduce((s, e) => s + expressGbSeconds(e.durationMs), 0)), 'GB-s', P.SFN_EXPRESS_PER_GB_SECOND),
    line('Step Functions', 'Standard state transitions', per(transitions(standard)), 'transition', P.SFN_STANDARD_PER_TRANSITION),
    line('Lambda (arm64)', 'requests', per(usage.lambda.length), 'invocation', P.LAMBDA_PER_REQUEST),
    line('Lambda (arm64)', 'duration', per(usage.lambda.reduce((s, i) => s + lambdaGbSeconds(i.durationMs, i.memoryMb), 0)), 'GB-s', P.LAMBDA_ARM_PER_GB_SECOND),
    line('API Gateway REST', 'requests', per(usage.apiRequests), 'request', P.APIGW_REST_PER_REQUEST),
    line('DynamoDB on-demand', 'write request units', per(usage.dynamodb.writeUnits), 'WRU', P.DYNAMODB_PER_WRITE_UNIT),
    line('DynamoDB on-demand', 'read request units', per(usage.dynamodb.readUnits), 'RRU', P.DYNAMODB_PER_READ_UNIT),
    line('S3', 'PUT, COPY, POST, LIST requests', per(usage.s3.tier1), 'request', P.S3_PER_TIER1_REQUEST),
    line('S3', 'GET, HEAD and other requests', per(usage.s3.tier2), 'request', P.S3_PER_TIER2_REQUEST),
    line('S3', 'DELETE requests', per(usage.s3.delete), 'request', P.S3_PER_DELETE_REQUEST),
    line('S3', `storage for ${inputs.retentionDays} days`, storageGbMonths(inputs.storedBytesPerJob, inputs.retentionDays), 'GB-month', P.S3_PER_GB_MONTH),
    line('EventBridge', 'custom events', per(usage.events), 'event', P.EVENTBRIDGE_PER_CUSTOM_EVENT),
    inputs.logBytesPerJob === null
      ? { service: 'CloudWatch Logs', item: 'ingestion', count: 0, unit: 'GB', unitPrice: P.CLOUDWATCH_LOGS_PER_GB_INGESTED, perThousandJobs: null, note: 'not measured' }
      : line('CloudWatch Logs', 'ingestion (function log lines)', inputs.logBytesPerJob / P.BYTES_PER_GB, 'GB', P.CLOUDWATCH_LOGS_PER_GB_INGESTED),
  ];
  const total = lines.reduce((s, l) => s + (l.perThousandJobs ?? 0), 0);
  const stepFunctions = lines.filter((l) => l.service === 'Step Functions').reduce((s, l) => s + (l.perThousandJobs ?? 0), 0);
  const allStandard = per(transitions(usage.executions)) * P.SFN_STANDARD_PER_TRANSITION * 1000;
  return { lines, total, allStandardTotal: total - stepFunctions + allStandard };
}
