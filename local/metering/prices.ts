/**
 * AWS list prices, us-east-1, for the cost model (`npm run cost`). One constant
 * per billed unit, in US dollars per unit (not per million): the arithmetic in
 * cost-model.ts multiplies counts by these and nothing else.
 *
 * Read on 2026-11-28 through the project's search tool (stored copies of the
 * pages named below; the AWS pages render most figures client-side, so where a
 * stored copy lacks the figure the comment names the secondary source that
 * quotes it). First tier everywhere; no free tier.
 */

// Step Functions, https://aws.amazon.com/step-functions/pricing/
/** Standard workflows: $0.025 per 1,000 state transitions. */
export const SFN_STANDARD_PER_TRANSITION = 0.025 / 1_000;
/** Express workflows: $1.00 per million requests (executions started). */
export const SFN_EXPRESS_PER_REQUEST = 1.0 / 1_000_000;
/** Express workflows: $0.00001667 per GB-second, first 1,000 hours GB (the tier every job here is in). */
export const SFN_EXPRESS_PER_GB_SECOND = 0.00001667;
/** Express duration is billed in 64 MB steps of memory... */
export const SFN_EXPRESS_MEMORY_STEP_MB = 64;
/** ...and rounded up to the next 100 ms. */
export const SFN_EXPRESS_DURATION_STEP_MS = 100;
/**
 * The memory an Express execution is billed for is not something we can
 * measure locally (Step Functions reports it per execution in the cloud,
 * BillingDetails.billedMemoryUsedInMB); our executions pass small JSON
 * documents between states, so we assume the 64 MB minimum.
 */
export const SFN_EXPRESS_ASSUMED_MEMORY_MB = 64;

// Lambda, https://aws.amazon.com/lambda/pricing/ (arm64; the per-GB-s figure as quoted by
// cloudchipr.com/blog/aws-lambda-pricing, "First 7.5 Billion GB-seconds per month")
/** $0.20 per million requests, either architecture. */
export const LAMBDA_PER_REQUEST = 0.2 / 1_000_000;
/** arm64: $0.0000133334 per GB-second. */
export const LAMBDA_ARM_PER_GB_SECOND = 0.0000133334;
/** Duration is rounded up to the next millisecond. */
export const LAMBDA_DURATION_STEP_MS = 1;

// API Gateway, https://aws.amazon.com/api-gateway/pricing/
/** REST APIs: $3.50 per million requests (first 333 million a month). */
export const APIGW_REST_PER_REQUEST = 3.5 / 1_000_000;

// DynamoDB on-demand, https://aws.amazon.com/dynamodb/pricing/on-demand/ (after the
// 1 November 2024 cut of on-demand throughput by half; the figures as quoted by
// airbyte.com/data-engineering-resources/dynamodb-pricing, "Current Pricing Structure (US East)")
/** $0.625 per million write request units. */
export const DYNAMODB_PER_WRITE_UNIT = 0.625 / 1_000_000;
/** $0.125 per million read request units. */
export const DYNAMODB_PER_READ_UNIT = 0.125 / 1_000_000;

// S3 Standard, https://aws.amazon.com/s3/pricing/
/** PUT, COPY, POST, LIST requests: $0.005 per 1,000. */
export const S3_PER_TIER1_REQUEST = 0.005 / 1_000;
/** GET, SELECT and all other requests (HEAD among them): $0.0004 per 1,000. */
export const S3_PER_TIER2_REQUEST = 0.0004 / 1_000;
/** DELETE and CANCEL requests are free. */
export const S3_PER_DELETE_REQUEST = 0;
/** Storage, first 50 TB: $0.023 per GB-month. */
export const S3_PER_GB_MONTH = 0.023;

// EventBridge, https://aws.amazon.com/eventbridge/pricing/
/** Custom events published: $1.00 per million. */
export const EVENTBRIDGE_PER_CUSTOM_EVENT = 1.0 / 1_000_000;

// CloudWatch Logs, https://aws.amazon.com/cloudwatch/pricing/
/** Standard log class, data ingested: $0.50 per GB. */
export const CLOUDWATCH_LOGS_PER_GB_INGESTED = 0.5;

/** Byte counts are billed in GB of 2^30 bytes (the AWS bills' GB). */
export const BYTES_PER_GB = 1024 ** 3;
