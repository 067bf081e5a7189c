/**
 * Path and query parameters of the job-reading routes. Query strings are
 * lenient: unknown parameters are ignored (proxies and SDKs add their own),
 * but a known one with a bad value is a 400 naming it.
 */
import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { isId } from '../../domain/ids';
import { CHANNELS, OUTCOMES, STATUSES } from '../../domain/model';

/** A job id from the path; anything not shaped like one cannot exist: 404. */
export function jobIdFromPath(pathParameters: Record<string, string | undefined> | null | undefined): string {
  const id = pathParameters?.id;
  if (!isId('job', id)) throw new ApiError('not_found', 'No such job.');
  return id;
}

const isoTimestamp = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 timestamp')
  .transform((v) => new Date(Date.parse(v)).toISOString());

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const listJobsQuery = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'must be a whole number from 1 to 100')
    .transform(Number)
    .pipe(z.number().min(1, 'must be at least 1').max(100, 'must be at most 100'))
    .optional(),
  nextKey: z.string().min(1).max(1024).optional(),
  preview: flag.optional(),
  status: z.enum(STATUSES).optional(),
  outcome: z.enum(OUTCOMES).optional(),
  channel: z.enum(CHANNELS).optional(),
  orderId: z.string().min(1).max(128).optional(),
  customerId: z.string().min(1).max(128).optional(),
  createdAfter: isoTimestamp.optional(),
  createdBefore: isoTimestamp.optional(),
});

export type ListJobsQuery = z.output<typeof listJobsQuery>;

export const getJobQuery = z.object({
  expand: z.enum(['runs']).optional(),
});
