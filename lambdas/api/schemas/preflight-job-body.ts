/** POST /jobs/preflight (docs/api.md §3): each source gets the steps `[preflight]`; without profileId the `default` profile applies. */
import { z } from 'zod';
import type { JobRequest } from '../../domain/use-cases/job-request';
import { commonJobFields, sourcesOf, sync } from './common';
import { convenienceJobRequest, definedParams } from './convenience-job';
import { orderContext } from './order-context';
import { checkLocator, locatorFields } from './source-locator';

export const profileId = z.string().min(1).max(64).meta({ description: 'A preflight profile id (GET /profiles). Default `default`.' });

export const preflightSource = z
  .strictObject({ ...locatorFields, profileId: profileId.nullish() })
  .superRefine((source, ctx) => {
    checkLocator(source, ctx);
  });

export const preflightJobBody = z
  .strictObject({ sources: sourcesOf(preflightSource), ...commonJobFields, context: orderContext.nullish(), sync: sync.optional() });

export type PreflightJobBody = z.infer<typeof preflightJobBody>;

export function preflightJobRequest(body: PreflightJobBody): JobRequest {
  return convenienceJobRequest('preflight', body, (source) => [
    { type: 'preflight', params: definedParams({ profileId: source.profileId }), profileParam: 'profileId' },
  ]);
}
