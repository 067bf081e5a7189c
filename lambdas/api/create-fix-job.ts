/** POST /jobs/fix (API.md §3): steps `[preflight, autofix, repreflight?]` per source; async (201) unless `sync: true`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import type { ApiEvent, ApiResult } from './middleware/http';
import { fixJobBody, fixJobRequest } from './schemas/fix-job-body';
import { submitJob } from './job-submission';

async function createFixJob(event: ApiEvent): Promise<ApiResult> {
  const body = parseRequest(fixJobBody, event.jsonBody);
  return submitJob(event, fixJobRequest(body), body.sync === true ? { sync: true } : { sync: false, markPending: false });
}

export const handler = middy<ApiEvent, ApiResult>(createFixJob).use(apiMiddleware({ auth: true, post: true }));
