/** POST /jobs (API.md §3): a job of sources with their own steps; async (201) unless `sync: true`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import type { ApiEvent, ApiResult } from './middleware/http';
import { createJobBody, jobRequestOf } from './schemas/create-job-body';
import { submitJob } from './job-submission';

async function createJobHandler(event: ApiEvent): Promise<ApiResult> {
  const body = parseRequest(createJobBody, event.jsonBody);
  return submitJob(event, jobRequestOf(body), body.sync === true ? { sync: true } : { sync: false, markPending: false });
}

export const handler = middy<ApiEvent, ApiResult>(createJobHandler).use(apiMiddleware({ auth: true, post: true }));
