/** POST /jobs/validate (docs/api.md §3): steps `[validate]` per source; sync by default, `async: true` → 201 `{ job, pending: true }`. */
import '../platform/polyfills';
import { jobHandler, syncUnlessAsync } from './job-handler';
import { validateJobBody, validateJobRequest } from './schemas/validate-job-body';

export const handler = jobHandler(validateJobBody, validateJobRequest, syncUnlessAsync);
