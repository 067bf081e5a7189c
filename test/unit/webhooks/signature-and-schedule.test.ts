import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { extraHeaders, signWebhook, webhookHeaders, webhookMessageId } from '../../../lambdas/webhooks/signature';
import { delayAfterFailure, jitteredDelay, maxAttempts } from '../../../lambdas/webhooks/retry-schedule';
import { generateWebhookSecret } from '../../../lambdas/domain/keys/secret-format';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../../../step-definitions/events';

describe('webhook signatures', () => {
  it('are what the Standard Webhooks reference library computes', () => {
    const secret = generateWebhookSecret();
    const at = new Date('2026-07-29T10:15:02.000Z');
    const body = JSON.stringify({ type: 'job.completed', id: 'job_x', note: 'ünïcödé' });
    const ours = signWebhook(secret, 'msg_job_x', Math.floor(at.getTime() / 1000), body);
    expect(ours).toBe(new Webhook(secret).sign('msg_job_x', at, body));
  });

  it('sign id, timestamp and body together', () => {
    const secret = generateWebhookSecret();
    const base = signWebhook(secret, 'msg_a', 100, '{}');
    expect(signWebhook(secret, 'msg_b', 100, '{}')).not.toBe(base);
    expect(signWebhook(secret, 'msg_a', 101, '{}')).not.toBe(base);
    expect(signWebhook(secret, 'msg_a', 100, '{ }')).not.toBe(base);
  });

  it('use one message id per job', () => {
    expect(webhookMessageId('job_01abc')).toBe('msg_job_01abc');
  });

  it('come with headers a job cannot override', () => {
    const headers = webhookHeaders({
      webhookSecret: generateWebhookSecret(),
      msgId: 'msg_1',
      timestampSeconds: 1700000000,
      body: '{}',
      requested: { 'webhook-id': 'x', 'Content-Length': '1', Host: 'evil', 'X-Ok': 'yes' },
    });
    expect(headers).toMatchObject({ 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'content-type': 'application/json', 'X-Ok': 'yes' });
    expect(Object.keys(headers).map((k) => k.toLowerCase()).filter((k) => k === 'webhook-id' || k === 'host' || k === 'content-length')).toEqual(['webhook-id']);
  });

  it('drop extra headers that HTTP cannot carry', () => {
    expect(extraHeaders({ 'x-a': 'ok', 'bad name': 'v', 'x-b': 'line\nbreak', 'x-c': 7 as unknown as string })).toEqual({ 'x-a': 'ok' });
    expect(extraHeaders(undefined)).toEqual({});
  });
});

describe('the retry schedule', () => {
  it('allows the first attempt plus one per delay: 8 with the contract schedule', () => {
    expect(maxAttempts(DEFAULT_WEBHOOK_RETRY_SCHEDULE)).toBe(8);
  });

  it('waits about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then stops', () => {
    const middle = () => 0.5;
    const delays = [1, 2, 3, 4, 5, 6, 7].map((a) => delayAfterFailure(a, DEFAULT_WEBHOOK_RETRY_SCHEDULE, middle));
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(delayAfterFailure(8, DEFAULT_WEBHOOK_RETRY_SCHEDULE, middle)).toBeNull();
  });

  it('jitters each delay within ±10 %, in whole seconds', () => {
    expect(jitteredDelay(300, () => 0)).toBe(270);
    expect(jitteredDelay(300, () => 1)).toBe(330);
    for (let i = 0; i < 200; i++) {
      const d = jitteredDelay(36000);
      expect(Number.isInteger(d)).toBe(true);
      expect(d).toBeGreaterThanOrEqual(32400);
      expect(d).toBeLessThanOrEqual(39600);
    }
    const spread = new Set(Array.from({ length: 50 }, () => jitteredDelay(36000)));
    expect(spread.size).toBeGreaterThan(10);
  });

  it('never waits a negative time', () => {
    expect(jitteredDelay(0)).toBe(0);
    expect(jitteredDelay(1, () => 0)).toBe(1);
  });
});
