/** POST /jobs/{id}/review (docs/api.md §2): an admin's decision on a job under manual review. */
import { z } from 'zod';

export const reviewBody = z
  .strictObject({
    decision: z.enum(['approve', 'reject']),
    note: z.string().max(2000).nullish().meta({ description: 'Why; recorded on the job.' }),
  });

export type ReviewBody = z.infer<typeof reviewBody>;
