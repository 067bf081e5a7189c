/**
 * The handler of every job-creating route (docs/api.md §3): parse the body with the
 * route's schema, turn it into a JobRequest, and submit it in the mode the body
 * asks for (job-submission.ts). Each route's module only names these three.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import type { JobRequest } from '../domain/use-cases/job-request';
import { submitJob, type SubmissionMode } from './job-submission';
import { apiMiddleware } from './middleware/api-middleware';
import { metricsFlushed } from '../platform/observability/metrics';
import type { ApiEvent, ApiResult } from './middleware/http';
import { parseRequest } from './schemas/parse-request';

export function jobHandler<Schema extends z.ZodType>(
  schema: Schema,
  toRequest: (body: z.output<Schema>) => JobRequest,
  mode: (body: z.output<Schema>) => SubmissionMode,
) {
  async function createJob(event: ApiEvent, context?: Context): Promise<ApiResult> {
    const body = parseRequest(schema, event.jsonBody);
    return submitJob(event, toRequest(body), mode(body), context);
  }
  // metricsFlushed last: its onError runs first, before http-errors turns the error into a response.
  return middy<ApiEvent, ApiResult>(createJob).use(apiMiddleware({ post: true })).use(metricsFlushed());
}

/** Answer 201 at once, unless the body says `sync: true`. */
export const asyncUnlessSync = (body: { sync?: boolean }): SubmissionMode =>
  body.sync === true ? { sync: true } : { sync: false, markPending: false };

/** Wait for the job, unless the body says `async: true`: then 201 with `pending: true`. */
export const syncUnlessAsync = (body: { async?: boolean }): SubmissionMode =>
  body.async === true ? { sync: false, markPending: true } : { sync: true };
