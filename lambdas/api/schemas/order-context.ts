/**
 * The order context (docs/api.md §6), taken by POST /jobs, POST /jobs/preflight
 * and POST /jobs/fix alike (§11 rule 7): what the customer ordered, which
 * narrows a preflight profile's thresholds.
 */
import { z } from 'zod';

const minMax = z
  .strictObject({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() })
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, 'min must not exceed max');

/** §6: narrows the preflight profile's thresholds to what the customer ordered. */
export const orderContext = z
  .strictObject({
    artworkSize: z.strictObject({ width_mm: z.number().positive(), height_mm: z.number().positive() }).optional(),
    pageCount: minMax.optional(),
    fileCount: minMax.optional(),
    bleed: z.strictObject({ required_mm: z.number().min(0) }).optional(),
    safety: z.strictObject({ min_mm: z.number().min(0) }).optional(),
  })
  .meta({
    description: "Narrows a preflight profile's thresholds to the order; never adds checks the profile does not have.",
  });
