/** POST /jobs/previews (API.md §3): steps `[previews]` per source; async (201) unless `sync: true`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import type { ApiEvent, ApiResult } from './middleware/http';
import { previewsJobBody, previewsJobRequest } from './schemas/previews-job-body';
import { submitJob } from './job-submission';

async function createPreviewsJob(event: ApiEvent): Promise<ApiResult> {
  const body = parseRequest(previewsJobBody, event.jsonBody);
  return submitJob(event, previewsJobRequest(body), body.sync === true ? { sync: true } : { sync: false, markPending: false });
}

export const handler = middy<ApiEvent, ApiResult>(createPreviewsJob).use(apiMiddleware({ auth: true, post: true }));
