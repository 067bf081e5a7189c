/** POST /jobs/preflight (docs/api.md §3): steps `[preflight]` per source; async (201) unless `sync: true`. */
import '../platform/polyfills';
import { jobHandler, asyncUnlessSync } from './job-handler';
import { preflightJobBody, preflightJobRequest } from './schemas/preflight-job-body';

export const handler = jobHandler(preflightJobBody, preflightJobRequest, asyncUnlessSync);
