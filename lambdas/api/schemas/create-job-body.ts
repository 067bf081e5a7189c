/**
 * The body of POST /jobs (docs/api.md §3, §6): sources with their own steps, plus
 * the order fields only this endpoint takes (ruleId, channel, customer and
 * order ids, customerEmail, policy, context, sync).
 */
import { z } from 'zod';
import { CHANNELS, ON_FAIL_POLICIES } from '../../domain/model';
import type { JobRequest } from '../../domain/use-cases/job-request';
import { commonJobFields, sourcesOf, sync, webhookTargetOf } from './common';
import { orderContext } from './order-context';
import { checkLocator, locatorFields, sourceInputOf } from './source-locator';
import { stepsRequest } from './steps';

export const jobSource = z
  .strictObject({ ...locatorFields, steps: stepsRequest })
  .superRefine(checkLocator)
  .meta({ description: 'A file and the steps to run on it. Exactly one of url, file, fileRef.' });

const shortId = z.string().max(128);

export const createJobBody = z
  .strictObject({
    sources: sourcesOf(jobSource),
    ...commonJobFields,
    ruleId: z
      .string()
      .regex(/^rule_[A-Za-z0-9_-]{1,64}$/, 'must look like rule_<1 to 64 of A-Z a-z 0-9 _ ->')
      .nullish()
      .meta({ description: 'Stored and echoed; never used by the pipeline.' }),
    channel: z.enum(CHANNELS).optional().meta({ description: 'Default `api`.' }),
    customerId: shortId.nullish(),
    orderId: shortId.nullish(),
    customerEmail: z.email().nullish(),
    policy: z
      .strictObject({ onFail: z.enum(ON_FAIL_POLICIES).optional() })
      .nullish()
      .meta({ description: 'What canProceed makes of failures. Default `{ "onFail": "reject" }`.' }),
    context: orderContext.nullish(),
    sync: sync.optional(),
  });

export type CreateJobBody = z.infer<typeof createJobBody>;

export function jobRequestOf(body: CreateJobBody): JobRequest {
  return {
    endpoint: 'jobs',
    sources: body.sources.map((source) => ({
      input: sourceInputOf(source),
      name: source.name ?? null,
      clientRef: source.clientRef ?? null,
      mimeType: source.mimeType ?? null,
      steps: source.steps.map((step) => ({ type: step.type, params: { ...(step.params ?? {}) } })),
    })),
    webhook: webhookTargetOf(body.webhook),
    metaData: body.metaData ?? null,
    ruleId: body.ruleId ?? null,
    channel: body.channel ?? 'api',
    customerId: body.customerId ?? null,
    orderId: body.orderId ?? null,
    customerEmail: body.customerEmail ?? null,
    policy: { onFail: body.policy?.onFail ?? 'reject' },
    context: body.context ?? null,
  };
}
