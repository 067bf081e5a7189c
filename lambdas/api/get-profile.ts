/** GET /profiles/{id} (docs/api.md §11 rule 10): 200 `{ profile }`, one preflight profile as GET /profiles lists it; 404 for an unknown id. */
import '../platform/polyfills';
import middy from '@middy/core';
import { ApiError } from '../domain/errors';
import { getProfile } from '../domain/use-cases/list-profiles';
import { apiMiddleware } from './middleware/api-middleware';
import { json, type ApiEvent, type ApiResult } from './middleware/http';

async function getProfileHandler(event: ApiEvent): Promise<ApiResult> {
  const profile = getProfile(event.pathParameters?.id ?? '');
  if (!profile) throw new ApiError('not_found', 'No such profile. GET /profiles lists them.');
  return json(200, { profile });
}

export const handler = middy<ApiEvent, ApiResult>(getProfileHandler).use(apiMiddleware());
