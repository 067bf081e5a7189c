/**
 * The job-terminal and job-decision events and the EventBridge patterns that
 * route them to the webhook caller. The CDK events construct puts this pattern on its rule and the
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

/**
 * The customer's decision on a shared proof page (docs/api.md §3, Share links): routed,
 * for a job with a webhook, to the same webhook caller, which sends
 * `job.approved` or `job.changes_requested`.
 */
export const JOB_DECISION_DETAIL_TYPE = 'Job Decision';

export const JOB_DECISION_PATTERN = {
  source: [JOB_EVENT_SOURCE],
  'detail-type': [JOB_DECISION_DETAIL_TYPE],
  detail: { hasWebhook: [true] },
} as const;

/** Default webhook retry delays in seconds after the first attempt (docs/api.md §9). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
