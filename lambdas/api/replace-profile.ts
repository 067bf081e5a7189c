/**
 * PUT /profiles/{id} (docs/api.md §11 rule 10): an admin key replaces the definition of one of
 * the account's own profiles with the body (as POST /profiles takes it), as its next version;
 * 200 `{ profile }`. Jobs submitted before keep the version they were submitted with.
 */
import '../platform/polyfills';
import middy from '@middy/core';
import { ApiError } from '../domain/errors';
import { replaceAccountProfile } from '../domain/use-cases/account-profiles';
import { listedAccountProfile } from '../domain/use-cases/list-profiles';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { formatQuotedParam } from './middleware/validation-issue';
import { parseRequest } from './schemas/parse-request';
import { profileBody, profileIdFromPath, profileInputOf } from './schemas/profile-body';

async function replaceProfileHandler(event: ApiEvent): Promise<ApiResult> {
  const id = profileIdFromPath(event.pathParameters);
  if (!id) throw new ApiError('not_found', 'No such profile. GET /profiles lists them.');
  const body = parseRequest(profileBody, event.jsonBody, formatQuotedParam);
  const record = await replaceAccountProfile(services(), callerOf(event), id, profileInputOf(body));
  return json(200, { profile: listedAccountProfile(record) });
}

export const handler = middy<ApiEvent, ApiResult>(replaceProfileHandler).use(apiMiddleware({ put: true }));
