/**
 * The closed sets of values that records and the step-type catalogue share:
 * file types, statuses, outcomes and channels. Kept apart from model.ts, which re-exports
 * them, so the catalogue (step-definitions/catalogue.ts) can use them while the
 * model takes its step types from the catalogue.
 */

export const FILE_TYPES = ['pdf', 'raster', 'vector', 'office', 'archive', 'font', 'other'] as const;
export type FileType = (typeof FILE_TYPES)[number];

export const STATUSES = ['pending', 'running', 'done', 'skipped', 'error'] as const;
export type Status = (typeof STATUSES)[number];

export const OUTCOMES = ['pass', 'warn', 'fail', 'fixed', 'unchanged', 'na', 'mixed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Which door a job came in by; the console imports this file (not model.ts) to stay small. */
export const CHANNELS = ['api', 'store', 'admin'] as const;
export type Channel = (typeof CHANNELS)[number];
