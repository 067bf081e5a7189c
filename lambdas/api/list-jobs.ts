/** GET /jobs (docs/api.md §3): the caller's jobs, newest first, paged by `nextKey`, filtered, optionally lean (`preview=true`). */
import '../platform/polyfills';
import middy from '@middy/core';
import { DEFAULT_LIST_LIMIT, listJobs } from '../domain/use-cases/list-jobs';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { listJobsQuery } from './schemas/job-queries';

async function listJobsHandler(event: ApiEvent): Promise<ApiResult> {
  const { limit, preview, ...filters } = parseRequest(listJobsQuery, event.queryStringParameters ?? {});
  const svc = services();
  const page = await listJobs(
    { jobs: svc.jobs, blobs: svc.blobs, downloadUrlExpiresSeconds: svc.config.downloadUrlExpiresSeconds },
    callerOf(event).accountId,
    { ...filters, limit: limit ?? DEFAULT_LIST_LIMIT, preview: preview ?? false },
  );
  return json(200, page);
}

export const handler = middy<ApiEvent, ApiResult>(listJobsHandler).use(apiMiddleware());
