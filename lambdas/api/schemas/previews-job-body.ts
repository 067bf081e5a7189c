/** POST /jobs/previews (docs/api.md §3, §5): each source gets `[previews]` with its optional `params`. */
import { z } from 'zod';
import type { JobRequest } from '../../domain/use-cases/job-request';
import { STEP_CATALOGUE } from '../../../step-definitions/catalogue';
import { commonJobFields, sourcesOf, sync } from './common';
import { convenienceJobRequest } from './convenience-job';
import { checkLocator, locatorFields } from './source-locator';

export const previewsSource = z
  .strictObject({ ...locatorFields, params: STEP_CATALOGUE.previews.params.nullish() })
  .superRefine(checkLocator);

export const previewsJobBody = z
  .strictObject({ sources: sourcesOf(previewsSource), ...commonJobFields, sync: sync.optional() });

export type PreviewsJobBody = z.infer<typeof previewsJobBody>;

export function previewsJobRequest(body: PreviewsJobBody): JobRequest {
  return convenienceJobRequest('previews', body, (source) => [{ type: 'previews', params: { ...(source.params ?? {}) } }]);
}
