/**
 * The one check the workers that take events from outside (finalise.ts from
 * EventBridge, continue-job.ts from CloudWatch Logs) make before reading a field:
 * is this a plain object? Anything else names no job.
 */
export const asObject = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
