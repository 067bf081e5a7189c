/** POST /jobs/previews (docs/api.md §3): steps `[previews]` per source; async (201) unless `sync: true`. */
import '../platform/polyfills';
import { jobHandler, asyncUnlessSync } from './job-handler';
import { previewsJobBody, previewsJobRequest } from './schemas/previews-job-body';

export const handler = jobHandler(previewsJobBody, previewsJobRequest, asyncUnlessSync);
