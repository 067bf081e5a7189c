/**
 * POST /jobs/fix (docs/api.md §3): each source gets `[preflight, autofix,
 * repreflight?]`. autofix applies `items`, or by default every fix the
 * preflight recommends; `repreflight: true` checks the fixed file again.
 */
import { z } from 'zod';
import type { JobRequest, StepRequest } from '../../domain/use-cases/job-request';
import { commonJobFields, sourcesOf, sync } from './common';
import { convenienceJobRequest, definedParams } from './convenience-job';
import { profileId } from './preflight-job-body';
import { orderContext } from './order-context';
import { checkLocator, locatorFields } from './source-locator';
import { checkFixIds, checkFixParams } from './steps';
import { fixParamsSchema } from '../../../step-definitions/catalogue';

export const fixSource = z
  .strictObject({
    ...locatorFields,
    profileId: profileId.nullish(),
    items: z
      .array(z.string().min(1).max(64))
      .max(64)
      .nullish()
      .meta({ description: 'Fix ids to apply (GET /profiles). Default: every fix the profile recommends.' }),
    fixParams: fixParamsSchema.nullish().meta({ description: 'Parameters per fix id, e.g. { "actions.remove": { "uri": true } } (GET /profiles lists each fix\'s).' }),
  })
  .superRefine((source, ctx) => {
    checkLocator(source, ctx);
    checkFixIds(source.items, ctx, ['items']);
    checkFixParams(source.fixParams, ctx, ['fixParams']);
  });

export const fixJobBody = z
  .strictObject({
    sources: sourcesOf(fixSource),
    ...commonJobFields,
    repreflight: z.boolean().optional().meta({ description: 'Preflight the fixed file again. Default false.' }),
    context: orderContext.nullish(),
    sync: sync.optional(),
  });

export type FixJobBody = z.infer<typeof fixJobBody>;

export function fixJobRequest(body: FixJobBody): JobRequest {
  return convenienceJobRequest('fix', body, (source) => {
    const steps: StepRequest[] = [
      { type: 'preflight', params: definedParams({ profileId: source.profileId }), profileParam: 'profileId' },
      { type: 'autofix', params: definedParams({ items: source.items, fixParams: source.fixParams }) },
    ];
    // repreflight reuses the profile of the preflight before it.
    if (body.repreflight === true) steps.push({ type: 'repreflight', params: {} });
    return steps;
  });
}
