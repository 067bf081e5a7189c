/** POST /jobs/preflight (API.md §3): steps `[preflight]` per source; async (201) unless `sync: true`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import type { ApiEvent, ApiResult } from './middleware/http';
import { preflightJobBody, preflightJobRequest } from './schemas/preflight-job-body';
import { submitJob } from './job-submission';

async function createPreflightJob(event: ApiEvent): Promise<ApiResult> {
  const body = parseRequest(preflightJobBody, event.jsonBody);
  return submitJob(event, preflightJobRequest(body), body.sync === true ? { sync: true } : { sync: false, markPending: false });
}

export const handler = middy<ApiEvent, ApiResult>(createPreflightJob).use(apiMiddleware({ auth: true, post: true }));
