/** POST /jobs/{id}/share (docs/api.md §3, Share links): a link to the job's proof page for the shop's customer; 201 `{ url, expiresAt }`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { createShareLink } from '../domain/use-cases/share-job';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { parseRequest } from './schemas/parse-request';
import { jobIdFromPath } from './schemas/job-queries';
import { shareBody } from './schemas/share-body';
import { requestOrigin } from './request-origin';

async function shareJobHandler(event: ApiEvent): Promise<ApiResult> {
  const jobId = jobIdFromPath(event.pathParameters);
  const body = parseRequest(shareBody, event.jsonBody ?? {});
  const svc = services();
  const origin = svc.config.publicOrigin ?? requestOrigin(event);
  const link = await createShareLink(svc, callerOf(event), jobId, body, origin);
  return json(201, link);
}

export const handler = middy<ApiEvent, ApiResult>(shareJobHandler).use(apiMiddleware({ post: true }));
