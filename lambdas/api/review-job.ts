/** POST /jobs/{id}/review (docs/api.md §2): an admin's decision on a job under manual review; 200 `{ job }`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { presentJob } from '../domain/present/job';
import { reviewJob } from '../domain/use-cases/review-job';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { jobIdFromPath } from './schemas/job-queries';
import { reviewBody } from './schemas/review-body';

async function reviewJobHandler(event: ApiEvent): Promise<ApiResult> {
  const jobId = jobIdFromPath(event.pathParameters);
  const body = parseRequest(reviewBody, event.jsonBody);
  const svc = services();
  const graph = await reviewJob(svc, callerOf(event), jobId, { decision: body.decision, note: body.note ?? null });
  const job = await presentJob(graph, { blobs: svc.blobs, expiresIn: svc.config.downloadUrlExpiresSeconds });
  return json(200, { job });
}

export const handler = middy<ApiEvent, ApiResult>(reviewJobHandler).use(apiMiddleware({ post: true }));
