/** POST /jobs (docs/api.md §3): a job of sources with their own steps; async (201) unless `sync: true`. */
import '../platform/polyfills';
import { jobHandler, asyncUnlessSync } from './job-handler';
import { createJobBody, jobRequestOf } from './schemas/create-job-body';

export const handler = jobHandler(createJobBody, jobRequestOf, asyncUnlessSync);
