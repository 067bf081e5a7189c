/**
 * The job-terminal event and the EventBridge pattern that routes it to the
 * webhook caller. The CDK events construct puts this pattern on its rule and the
 * local runtime's event bus evaluates the same object, so both route alike.
 */
export const JOB_EVENT_SOURCE = 'proofline.jobs';
export const JOB_TERMINAL_DETAIL_TYPE = 'Job Terminal';

export const JOB_TERMINAL_PATTERN = {
  source: [JOB_EVENT_SOURCE],
  'detail-type': [JOB_TERMINAL_DETAIL_TYPE],
  detail: {
    status: ['done', 'error'],
    hasWebhook: [true],
  },
} as const;

/** Default webhook retry delays in seconds after the first attempt (docs/api.md §9). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
