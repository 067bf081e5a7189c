/** DELETE /jobs/{id}/share (docs/api.md §3, Share links): every share link of the job stops working; 204. */
import '../platform/polyfills';
import middy from '@middy/core';
import { revokeShareLinks } from '../domain/use-cases/share-job';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { callerOf, type ApiEvent, type ApiResult } from './middleware/http';
import { jobIdFromPath } from './schemas/job-queries';

async function revokeShareHandler(event: ApiEvent): Promise<ApiResult> {
  const jobId = jobIdFromPath(event.pathParameters);
  await revokeShareLinks(services(), callerOf(event), jobId);
  return { statusCode: 204, headers: { 'cache-control': 'no-store' }, body: '' };
}

export const handler = middy<ApiEvent, ApiResult>(revokeShareHandler).use(apiMiddleware());
