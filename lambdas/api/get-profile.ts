/**
 * GET /profiles/{id} (docs/api.md §11 rule 10): 200 `{ profile }`, one preflight profile as
 * GET /profiles lists it, a built-in or one of the caller's account's own; 404 for an id
 * neither has (another account's profile included).
 */
import '../platform/polyfills';
import middy from '@middy/core';
import { ApiError } from '../domain/errors';
import { findPreflightProfile } from '../engine/profile-catalogue';
import { getProfile } from '../domain/use-cases/list-profiles';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { profileIdFromPath } from './schemas/profile-body';

async function getProfileHandler(event: ApiEvent): Promise<ApiResult> {
  const id = profileIdFromPath(event.pathParameters);
  const own = id && !findPreflightProfile(id) ? await services().profiles.getProfile(callerOf(event).accountId, id) : null;
  const profile = id ? getProfile(id, own) : null;
  if (!profile) throw new ApiError('not_found', 'No such profile. GET /profiles lists them.');
  return json(200, { profile });
}

export const handler = middy<ApiEvent, ApiResult>(getProfileHandler).use(apiMiddleware());
