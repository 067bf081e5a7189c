/**
 * DELETE /profiles/{id} (docs/api.md §11 rule 10): an admin key deletes one of the account's own
 * profiles; 204. Jobs submitted with it keep running and reading with the version they recorded.
 */
import '../platform/polyfills';
import middy from '@middy/core';
import { ApiError } from '../domain/errors';
import { deleteAccountProfile } from '../domain/use-cases/account-profiles';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { callerOf, type ApiEvent, type ApiResult } from './middleware/http';
import { profileIdFromPath } from './schemas/profile-body';

async function deleteProfileHandler(event: ApiEvent): Promise<ApiResult> {
  const id = profileIdFromPath(event.pathParameters);
  if (!id) throw new ApiError('not_found', 'No such profile. GET /profiles lists them.');
  await deleteAccountProfile(services(), callerOf(event), id);
  return { statusCode: 204, headers: { 'cache-control': 'no-store' }, body: '' };
}

export const handler = middy<ApiEvent, ApiResult>(deleteProfileHandler).use(apiMiddleware());
