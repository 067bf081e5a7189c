/**
 * GET /profiles (docs/api.md §5, §11 rule 10): preflight profiles (the built-ins and the
 * caller's account's own), validate codes, fixes and step types, with descriptions.
 */
import '../platform/polyfills';
import middy from '@middy/core';
import { listedAccountProfile, listProfiles } from '../domain/use-cases/list-profiles';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';

// The engine's part is static data: built once per container; the account's profiles are read per request.
let listing: ReturnType<typeof listProfiles> | undefined;

async function listProfilesHandler(event: ApiEvent): Promise<ApiResult> {
  listing ??= listProfiles();
  const own = await services().profiles.listProfiles(callerOf(event).accountId);
  return json(200, { ...listing, profiles: [...listing.profiles, ...own.map(listedAccountProfile)] });
}

export const handler = middy<ApiEvent, ApiResult>(listProfilesHandler).use(apiMiddleware());
