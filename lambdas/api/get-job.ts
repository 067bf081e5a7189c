/** GET /jobs/{id} (docs/api.md §3): 200 `{ job }`, or with `expand=runs` the runs view (no wrapper). */
import '../platform/polyfills';
import middy from '@middy/core';
import { getJob, getJobRuns } from '../domain/use-cases/get-job';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { getJobQuery, jobIdFromPath } from './schemas/job-queries';

async function getJobHandler(event: ApiEvent): Promise<ApiResult> {
  const jobId = jobIdFromPath(event.pathParameters);
  const query = parseRequest(getJobQuery, event.queryStringParameters ?? {});
  const svc = services();
  const deps = { jobs: svc.jobs, blobs: svc.blobs, downloadUrlExpiresSeconds: svc.config.downloadUrlExpiresSeconds };
  const { accountId } = callerOf(event);
  if (query.expand === 'runs') return json(200, await getJobRuns(deps, accountId, jobId));
  return json(200, { job: await getJob(deps, accountId, jobId) });
}

export const handler = middy<ApiEvent, ApiResult>(getJobHandler).use(apiMiddleware());
