/**
 * What the convenience endpoints (/jobs/preflight, /jobs/fix, /jobs/validate,
 * /jobs/previews) have in common: a body of sources, webhook and metaData that
 * becomes the same job POST /jobs would create, with steps derived from each
 * source, and the defaults of the fields only POST /jobs takes.
 */
import type { JobEndpoint, OrderContext } from '../../domain/model';
import { JOB_REQUEST_DEFAULTS, type JobRequest, type StepRequest } from '../../domain/use-cases/job-request';
import { webhookTargetOf, type webhook } from './common';
import { sourceInputOf, type LocatedSource } from './source-locator';
import type { z } from 'zod';

interface ConvenienceBody<S> {
  sources: S[];
  webhook?: z.infer<typeof webhook> | null | undefined;
  metaData?: Record<string, unknown> | null | undefined;
  /** Taken by /jobs/preflight and /jobs/fix (docs/api.md §11 rule 7). */
  context?: OrderContext | null | undefined;
}

export function convenienceJobRequest<S extends LocatedSource>(
  endpoint: Exclude<JobEndpoint, 'jobs'>,
  body: ConvenienceBody<S>,
  stepsOf: (source: S) => StepRequest[],
): JobRequest {
  return {
    ...JOB_REQUEST_DEFAULTS,
    endpoint,
    sources: body.sources.map((source) => ({
      input: sourceInputOf(source),
      name: source.name ?? null,
      clientRef: source.clientRef ?? null,
      mimeType: source.mimeType ?? null,
      steps: stepsOf(source),
    })),
    webhook: webhookTargetOf(body.webhook),
    metaData: body.metaData ?? null,
    policy: { ...JOB_REQUEST_DEFAULTS.policy },
    context: body.context ?? null,
  };
}

/** Only the params the client gave: a step applies its own defaults when it runs. */
export function definedParams(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null));
}
