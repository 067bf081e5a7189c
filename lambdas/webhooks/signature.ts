/**
 * Standard Webhooks signing (docs/api.md §9, https://www.standardwebhooks.com):
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`,
 * keyed with the base64-decoded part of the account's `whsec_…` secret, so any
 * Standard Webhooks library verifies our deliveries with the secret as issued.
 */
import { createHmac } from 'node:crypto';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { webhookSigningKey } from '../domain/keys/secret-format';

/** The same id on every attempt of one job's completion event, so receivers can de-duplicate. */
export const webhookMessageId = (jobId: string): string => `msg_${jobId}`;

export function signWebhook(webhookSecret: string, msgId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', webhookSigningKey(webhookSecret)).update(`${msgId}.${timestampSeconds}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/** Headers the service sets itself; a job's own headers never replace them. */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'host',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

/** The job's extra headers that can be sent: reserved names and malformed ones are dropped. */
export function extraHeaders(requested: Record<string, string> | undefined | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!requested || typeof requested !== 'object') return out;
  for (const [name, value] of Object.entries(requested)) {
    if (RESERVED_HEADERS.has(name.toLowerCase()) || typeof value !== 'string') continue;
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      continue;
    }
    out[name] = value;
  }
  return out;
}

export function webhookHeaders(opts: {
  webhookSecret: string;
  msgId: string;
  timestampSeconds: number;
  body: string;
  requested?: Record<string, string> | null;
}): Record<string, string> {
  return {
    'user-agent': 'Proofline-Webhooks',
    ...extraHeaders(opts.requested),
    'content-type': 'application/json',
    'webhook-id': opts.msgId,
    'webhook-timestamp': String(opts.timestampSeconds),
    'webhook-signature': signWebhook(opts.webhookSecret, opts.msgId, opts.timestampSeconds, opts.body),
  };
}
