/** POST /jobs/validate (API.md §3): steps `[validate]` per source; sync by default, `async: true` → 201 `{ job, pending: true }`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import type { ApiEvent, ApiResult } from './middleware/http';
import { validateJobBody, validateJobRequest } from './schemas/validate-job-body';
import { submitJob } from './job-submission';

async function createValidateJob(event: ApiEvent): Promise<ApiResult> {
  const body = parseRequest(validateJobBody, event.jsonBody);
  return submitJob(event, validateJobRequest(body), body.async === true ? { sync: false, markPending: true } : { sync: true });
}

export const handler = middy<ApiEvent, ApiResult>(createValidateJob).use(apiMiddleware({ auth: true, post: true }));
