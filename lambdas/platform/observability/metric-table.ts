/**
 * Every metric Proofline publishes, named once: its CloudWatch name, unit and
 * dimensions. The emit points (metrics.ts's `recordMetric`), the alarms
 * (lib/constructs/alarms.ts) and the dashboard (lib/constructs/dashboard.ts)
 * all read this table, so a metric's name is written here and nowhere else.
 *
 * Every metric also carries the `service` dimension (METRIC_SERVICE_DIMENSION):
 * the stack's name, so stacks deployed side by side in one account keep their
 * numbers apart. Dimension values are bounded sets (a route path, a step type, a
 * reason class), never an id: each distinct value is a metric CloudWatch bills.
 *
 * This module imports nothing, so the CDK app can read it without loading a handler.
 */

/** The CloudWatch namespace of every Proofline metric. */
export const METRIC_NAMESPACE = 'Proofline';

/** The dimension every metric carries; its value is the stack's name (env METRICS_SERVICE). */
export const METRIC_SERVICE_DIMENSION = 'service';

/** The environment variable CDK sets on every function to the stack's name; `proofline` elsewhere. */
export const METRICS_SERVICE_ENV = 'METRICS_SERVICE';

/** The units used here; they are spelled as both Powertools' MetricUnit and CloudWatch's Unit spell them. */
export type MetricUnitName = 'Count' | 'Milliseconds' | 'Seconds';

export interface MetricSpec {
  name: string;
  unit: MetricUnitName;
  /** Dimensions besides `service`, in the order they are published. */
  dimensions: readonly string[];
  /** What one data point means (the dashboard's and runbook's wording). */
  description: string;
}

export const METRICS = {
  jobsCreated: {
    name: 'JobsCreated',
    unit: 'Count',
    dimensions: ['endpoint'],
    description: 'A job created, by the route that created it (`/jobs/preflight`, …).',
  },
  jobsFinished: {
    name: 'JobsFinished',
    unit: 'Count',
    dimensions: ['status', 'outcome'],
    description: 'A job made terminal by the finaliser, by its status and outcome (`none` when it has none).',
  },
  stepDuration: {
    name: 'StepDuration',
    unit: 'Milliseconds',
    dimensions: ['stepType'],
    description: 'How long a step took from start to done, by step type.',
  },
  stepErrors: {
    name: 'StepErrors',
    unit: 'Count',
    dimensions: ['reasonClass'],
    description: 'A step that ended in error, by the class of its reason (lambdas/steps/failure-reasons.ts).',
  },
  webhookAttempts: {
    name: 'WebhookAttempts',
    unit: 'Count',
    dimensions: ['result'],
    description: 'A webhook POST made, `delivered` (2xx) or `failed`.',
  },
  webhookGiveUps: {
    name: 'WebhookGiveUps',
    unit: 'Count',
    dimensions: [],
    description: "A job's completion webhook given up after its last attempt failed.",
  },
  syncRequestsPending: {
    name: 'SyncRequestsPending',
    unit: 'Count',
    dimensions: ['endpoint'],
    description: 'A sync request answered 202 (the job was not terminal within the wait), by route.',
  },
  unreadableFiles: {
    name: 'UnreadableFiles',
    unit: 'Count',
    dimensions: ['stage'],
    description: 'A file refused as unreadable (UnprocessableFileError), by where: `ingest` or the step type.',
  },
  oldestRunningJobAge: {
    name: 'OldestRunningJobAge',
    unit: 'Seconds',
    dimensions: [],
    description: 'Age of the oldest job not yet terminal (0 when there is none), published on a schedule.',
  },
} as const satisfies Record<string, MetricSpec>;

export type MetricKey = keyof typeof METRICS;

/** The dimension values an emit point gives for metric `K` (besides `service`). */
export type DimensionsOf<K extends MetricKey> = { [D in (typeof METRICS)[K]['dimensions'][number]]: string };
