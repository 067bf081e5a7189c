/** POST /jobs/optimize (docs/api.md §11 rule 11): steps `[optimize]` per source; sync by default, `async: true` → 201 `{ job, pending: true }`. */
import '../platform/polyfills';
import { jobHandler, syncUnlessAsync } from './job-handler';
import { optimizeJobBody, optimizeJobRequest } from './schemas/optimize-job-body';

export const handler = jobHandler(optimizeJobBody, optimizeJobRequest, syncUnlessAsync);
