/** GET /profiles (docs/api.md §5): preflight profiles, validate codes, fixes and step types, with descriptions. */
import '../platform/polyfills';
import middy from '@middy/core';
import { listProfiles } from '../domain/use-cases/list-profiles';
import { apiMiddleware } from './middleware/api-middleware';
import { json, type ApiEvent, type ApiResult } from './middleware/http';

// Static data: built once per container.
let listing: ReturnType<typeof listProfiles> | undefined;

async function listProfilesHandler(): Promise<ApiResult> {
  listing ??= listProfiles();
  return json(200, listing);
}

export const handler = middy<ApiEvent, ApiResult>(listProfilesHandler).use(apiMiddleware());
