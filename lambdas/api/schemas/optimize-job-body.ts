/**
 * POST /jobs/optimize (docs/api.md §11 rule 11): each source gets `[optimize]`
 * with its optional `params` (`{ pdf?: {…}, raster?: {…} }`, the step's schema
 * in the catalogue, so a bad value is a 400 naming the field). Sync by
 * default; `async: true` answers 201 at once, as /jobs/validate does.
 */
import { z } from 'zod';
import type { JobRequest } from '../../domain/use-cases/job-request';
import { STEP_CATALOGUE } from '../../../step-definitions/catalogue';
import { asyncFlag, commonJobFields, sourcesOf } from './common';
import { convenienceJobRequest } from './convenience-job';
import { checkLocator, locatorFields } from './source-locator';

export const optimizeSource = z
  .strictObject({
    ...locatorFields,
    params: STEP_CATALOGUE.optimize.params
      .nullish()
      .meta({ description: '`pdf` and `raster` options; GET /profiles lists each with its default under `optimize`. Defaults apply to what is left out.' }),
  })
  .superRefine(checkLocator);

export const optimizeJobBody = z.strictObject({ sources: sourcesOf(optimizeSource), ...commonJobFields, async: asyncFlag.optional() });

export type OptimizeJobBody = z.infer<typeof optimizeJobBody>;

export function optimizeJobRequest(body: OptimizeJobBody): JobRequest {
  return convenienceJobRequest('optimize', body, (source) => [{ type: 'optimize', params: { ...(source.params ?? {}) } }]);
}
