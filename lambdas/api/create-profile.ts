/**
 * POST /profiles (docs/api.md §11 rule 10): an admin key creates one of the account's own
 * preflight profiles; 201 `{ profile }`, as GET /profiles/{id} shows it.
 */
import '../platform/polyfills';
import middy from '@middy/core';
import { createAccountProfile } from '../domain/use-cases/account-profiles';
import { listedAccountProfile } from '../domain/use-cases/list-profiles';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { formatQuotedParam } from './middleware/validation-issue';
import { parseRequest } from './schemas/parse-request';
import { profileBody, profileInputOf } from './schemas/profile-body';

async function createProfileHandler(event: ApiEvent): Promise<ApiResult> {
  const body = parseRequest(profileBody, event.jsonBody, formatQuotedParam);
  const record = await createAccountProfile(services(), callerOf(event), profileInputOf(body));
  return json(201, { profile: listedAccountProfile(record) });
}

export const handler = middy<ApiEvent, ApiResult>(createProfileHandler).use(apiMiddleware({ post: true }));
