/** POST /jobs/fix (docs/api.md §3): steps `[preflight, autofix, repreflight?]` per source; async (201) unless `sync: true`. */
import '../platform/polyfills';
import { jobHandler, asyncUnlessSync } from './job-handler';
import { fixJobBody, fixJobRequest } from './schemas/fix-job-body';

export const handler = jobHandler(fixJobBody, fixJobRequest, asyncUnlessSync);
