/**
 * POST /jobs/validate (docs/api.md §3, §5): each source gets `[validate]` with its
 * required `profile` (a code or an array of codes). Sync by default;
 * `async: true` answers 201 at once.
 */
import { z } from 'zod';
import type { JobRequest } from '../../domain/use-cases/job-request';
import { VALIDATE_PROFILE_CODES } from '../../../step-definitions/catalogue';
import { asyncFlag, commonJobFields, sourcesOf } from './common';
import { convenienceJobRequest } from './convenience-job';
import { checkLocator, locatorFields } from './source-locator';

const code = z.enum(VALIDATE_PROFILE_CODES);

export const validateProfile = z
  .union([code, z.array(code).min(1).max(VALIDATE_PROFILE_CODES.length)], {
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : `must be a profile code or an array of codes (${VALIDATE_PROFILE_CODES.join(', ')})`,
  })
  .meta({ description: '`auto` (what the file claims), PDF/A `1a`…`4f`, PDF/UA `ua1`, `ua2`; or several.' });

export const validateSource = z
  .strictObject({ ...locatorFields, profile: validateProfile })
  .superRefine(checkLocator);

export const validateJobBody = z
  .strictObject({
    sources: sourcesOf(validateSource),
    ...commonJobFields,
    async: asyncFlag.optional(),
  });

export type ValidateJobBody = z.infer<typeof validateJobBody>;

export function validateJobRequest(body: ValidateJobBody): JobRequest {
  return convenienceJobRequest('validate', body, (source) => [{ type: 'validate', params: { profile: source.profile } }]);
}
