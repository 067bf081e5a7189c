/** DELETE /jobs/{id} (docs/api.md §3): stops, then deletes the job with every stored file; 200 `{ id, taskIds }`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { deleteJob } from '../domain/use-cases/delete-job';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { jobIdFromPath } from './schemas/job-queries';

async function deleteJobHandler(event: ApiEvent): Promise<ApiResult> {
  const jobId = jobIdFromPath(event.pathParameters);
  return json(200, await deleteJob(services(), callerOf(event).accountId, jobId));
}

export const handler = middy<ApiEvent, ApiResult>(deleteJobHandler).use(apiMiddleware());
