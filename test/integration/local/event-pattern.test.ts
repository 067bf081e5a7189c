import { describe, expect, it } from 'vitest';
import { JOB_EVENT_SOURCE, JOB_TERMINAL_DETAIL_TYPE, JOB_TERMINAL_PATTERN } from '../../../step-definitions/events';
import { matchEventPattern, validateEventPattern, InvalidEventPatternError, type EventPattern } from '../../../lambdas/adapters/local/event-pattern';
import { createLocalEventBus, type EventEnvelope } from '../../../lambdas/adapters/local/local-event-bus';

const matches = (pattern: unknown, event: unknown) => {
  validateEventPattern(pattern);
  return matchEventPattern(pattern as EventPattern, event);
};

const ec2 = {
  version: '0',
  id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
  'detail-type': 'EC2 Instance State-change Notification',
  source: 'aws.ec2',
  account: '111122223333',
  time: '2017-12-22T18:43:48Z',
  region: 'us-west-1',
  resources: ['arn:aws:ec2:us-west-1:123456789012:instance/i-1234567890abcdef0'],
  detail: { 'instance-id': 'i-1234567890abcdef0', state: 'terminated', 'c-count': 3, tags: ['a', 'b'], nothing: null, empty: '' },
};

describe('EventBridge pattern matching', () => {
  describe('exact values', () => {
    it('matches when every named field has one of the listed values', () => {
      expect(matches({ source: ['aws.ec2'], detail: { state: ['running', 'terminated'] } }, ec2)).toBe(true);
    });
    it('fails when any named field has none of them', () => {
      expect(matches({ source: ['aws.ec2'], detail: { state: ['running'] } }, ec2)).toBe(false);
    });
    it('compares strings case-sensitively', () => {
      expect(matches({ source: ['AWS.EC2'] }, ec2)).toBe(false);
    });
    it('compares numbers by value and does not confuse them with strings', () => {
      expect(matches({ detail: { 'c-count': [3.0] } }, ec2)).toBe(true);
      expect(matches({ detail: { 'c-count': ['3'] } }, ec2)).toBe(false);
    });
    it('tells null from the empty string', () => {
      expect(matches({ detail: { nothing: [null] } }, ec2)).toBe(true);
      expect(matches({ detail: { nothing: [''] } }, ec2)).toBe(false);
      expect(matches({ detail: { empty: [''] } }, ec2)).toBe(true);
      expect(matches({ detail: { empty: [null] } }, ec2)).toBe(false);
    });
    it('never matches a field the event does not have', () => {
      expect(matches({ detail: { missing: ['x'] } }, ec2)).toBe(false);
      expect(matches({ detail: { missing: [null] } }, ec2)).toBe(false);
    });
    it('matches an array in the event when any element matches', () => {
      expect(matches({ detail: { tags: ['b'] } }, ec2)).toBe(true);
      expect(matches({ resources: ['arn:aws:ec2:us-west-1:123456789012:instance/i-1234567890abcdef0'] }, ec2)).toBe(true);
      expect(matches({ detail: { tags: ['c'] } }, ec2)).toBe(false);
    });
    it('matches booleans exactly', () => {
      expect(matches({ detail: { hasWebhook: [true] } }, { detail: { hasWebhook: true } })).toBe(true);
      expect(matches({ detail: { hasWebhook: [true] } }, { detail: { hasWebhook: false } })).toBe(false);
      expect(matches({ detail: { hasWebhook: [true] } }, { detail: { hasWebhook: 'true' } })).toBe(false);
    });
  });

  describe('nested objects', () => {
    it('requires the event to have the nested field as an object', () => {
      expect(matches({ detail: { state: ['terminated'] } }, { detail: 'terminated' })).toBe(false);
    });
    it('does not treat an object in the event as a value', () => {
      expect(matches({ detail: ['x'] }, ec2)).toBe(false);
    });
    it('matches a nested pattern within one element of an array of objects', () => {
      const event = { detail: { items: [{ a: 1, b: 'x' }, { a: 2, b: 'y' }] } };
      expect(matches({ detail: { items: { a: [2], b: ['y'] } } }, event)).toBe(true);
      expect(matches({ detail: { items: { a: [1], b: ['y'] } } }, event)).toBe(false);
    });
  });

  describe('prefix and suffix', () => {
    it('matches strings by their beginning or end', () => {
      expect(matches({ time: [{ prefix: '2017-12-22' }] }, ec2)).toBe(true);
      expect(matches({ time: [{ prefix: '2018' }] }, ec2)).toBe(false);
      expect(matches({ detail: { 'instance-id': [{ suffix: 'cdef0' }] } }, ec2)).toBe(true);
    });
    it('ignores non-string values', () => {
      expect(matches({ detail: { 'c-count': [{ prefix: '3' }] } }, ec2)).toBe(false);
    });
  });

  describe('anything-but', () => {
    it('matches any other value', () => {
      expect(matches({ detail: { state: [{ 'anything-but': 'initializing' }] } }, ec2)).toBe(true);
      expect(matches({ detail: { state: [{ 'anything-but': 'terminated' }] } }, ec2)).toBe(false);
    });
    it('takes a list of strings or of numbers', () => {
      expect(matches({ detail: { state: [{ 'anything-but': ['stopped', 'terminated'] }] } }, ec2)).toBe(false);
      expect(matches({ detail: { 'c-count': [{ 'anything-but': [100, 200] }] } }, ec2)).toBe(true);
      expect(matches({ detail: { 'c-count': [{ 'anything-but': [3, 200] }] } }, ec2)).toBe(false);
    });
    it('takes a prefix or suffix', () => {
      expect(matches({ detail: { state: [{ 'anything-but': { prefix: 'term' } }] } }, ec2)).toBe(false);
      expect(matches({ detail: { state: [{ 'anything-but': { prefix: 'init' } }] } }, ec2)).toBe(true);
      expect(matches({ detail: { state: [{ 'anything-but': { suffix: 'ated' } }] } }, ec2)).toBe(false);
    });
    it('does not match a field the event lacks', () => {
      expect(matches({ detail: { missing: [{ 'anything-but': 'x' }] } }, ec2)).toBe(false);
    });
  });

  describe('exists', () => {
    it('exists: true matches a present leaf, null included', () => {
      expect(matches({ detail: { state: [{ exists: true }] } }, ec2)).toBe(true);
      expect(matches({ detail: { nothing: [{ exists: true }] } }, ec2)).toBe(true);
      expect(matches({ detail: { missing: [{ exists: true }] } }, ec2)).toBe(false);
    });
    it('exists: false matches an absent field, also under an absent parent', () => {
      expect(matches({ detail: { missing: [{ exists: false }] } }, ec2)).toBe(true);
      expect(matches({ detail: { state: [{ exists: false }] } }, ec2)).toBe(false);
      expect(matches({ other: { x: [{ exists: false }] } }, ec2)).toBe(true);
    });
    it('works on leaves only: an object field counts as absent', () => {
      const event = { detail: { 'c-count': { c1: 100 } } };
      expect(matches({ detail: { 'c-count': [{ exists: false }] } }, event)).toBe(true);
      expect(matches({ detail: { 'c-count': [{ exists: true }] } }, event)).toBe(false);
    });
  });

  describe('numeric', () => {
    it('matches numbers within every bound', () => {
      expect(matches({ detail: { 'c-count': [{ numeric: ['>', 0, '<=', 5] }] } }, ec2)).toBe(true);
      expect(matches({ detail: { 'c-count': [{ numeric: ['<', 3] }] } }, ec2)).toBe(false);
      expect(matches({ detail: { 'c-count': [{ numeric: ['=', 3e0] }] } }, ec2)).toBe(true);
    });
  });

  describe('validation', () => {
    it.each([
      [{}, 'an empty pattern'],
      [{ source: [] }, 'an empty list of values'],
      [{ source: 'aws.ec2' }, 'a bare value instead of a list'],
      [{ source: [{ wildcard: 'aws.*' }] }, 'an operator not implemented locally'],
      [{ $or: [{ source: ['a'] }] }, '$or'],
      [{ source: [{ prefix: 'a', suffix: 'b' }] }, 'a matcher with two operators'],
      [{ n: [{ numeric: ['>'] }] }, 'a numeric matcher without a bound'],
    ] as [unknown, string][])('refuses %j (%s)', (pattern) => {
      expect(() => validateEventPattern(pattern)).toThrow(InvalidEventPatternError);
    });
  });

  describe('the job-terminal rule (JOB_TERMINAL_PATTERN)', () => {
    const envelope = (detail: Record<string, unknown>) => ({ source: JOB_EVENT_SOURCE, 'detail-type': JOB_TERMINAL_DETAIL_TYPE, detail });
    it('routes terminal jobs that have a webhook', () => {
      expect(matches(JOB_TERMINAL_PATTERN, envelope({ jobId: 'job_1', status: 'done', hasWebhook: true }))).toBe(true);
      expect(matches(JOB_TERMINAL_PATTERN, envelope({ jobId: 'job_1', status: 'error', hasWebhook: true }))).toBe(true);
    });
    it('ignores jobs without a webhook, other statuses, and other sources', () => {
      expect(matches(JOB_TERMINAL_PATTERN, envelope({ status: 'done', hasWebhook: false }))).toBe(false);
      expect(matches(JOB_TERMINAL_PATTERN, envelope({ status: 'running', hasWebhook: true }))).toBe(false);
      expect(matches(JOB_TERMINAL_PATTERN, { ...envelope({ status: 'done', hasWebhook: true }), source: 'someone.else' })).toBe(false);
    });
  });
});

describe('the local event bus', () => {
  it('delivers a published job-terminal event to a matching rule’s target as an EventBridge envelope, after publish returns', async () => {
    const bus = createLocalEventBus({ log: () => {} });
    const received: EventEnvelope[] = [];
    bus.addRule('webhooks', JOB_TERMINAL_PATTERN, async (e) => { received.push(e); });
    bus.addRule('never', { source: ['other'] }, async (e) => { received.push(e); });
    await bus.publishJobTerminal({ jobId: 'job_1', accountId: 'acct', status: 'done', outcome: 'pass', hasWebhook: true });
    expect(received).toEqual([]);
    await bus.whenIdle();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      version: '0',
      source: JOB_EVENT_SOURCE,
      'detail-type': JOB_TERMINAL_DETAIL_TYPE,
      account: '000000000000',
      region: 'us-east-1',
      resources: [],
      detail: { jobId: 'job_1', accountId: 'acct', status: 'done', outcome: 'pass', hasWebhook: true },
    });
    expect(received[0]!.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('does not deliver events the pattern rules out', async () => {
    const bus = createLocalEventBus({ log: () => {} });
    const received: unknown[] = [];
    bus.addRule('webhooks', JOB_TERMINAL_PATTERN, async (e) => { received.push(e); });
    await bus.publishJobTerminal({ jobId: 'job_1', accountId: 'acct', status: 'done', outcome: 'pass', hasWebhook: false });
    await bus.whenIdle();
    expect(received).toEqual([]);
  });

  it('retries a failing target twice, like an asynchronous Lambda invocation, then drops the event', async () => {
    const bus = createLocalEventBus({ log: () => {}, retryDelaysMs: [5, 5] });
    let calls = 0;
    bus.addRule('flaky', { source: [JOB_EVENT_SOURCE] }, async () => { calls++; throw new Error('down'); });
    await bus.publishJobTerminal({ jobId: 'job_1', accountId: 'acct', status: 'error', outcome: null, hasWebhook: true });
    await bus.whenIdle();
    expect(calls).toBe(3);
  });

  it('refuses a rule whose pattern it cannot evaluate', () => {
    const bus = createLocalEventBus();
    expect(() => bus.addRule('bad', { source: [{ cidr: '10.0.0.0/8' }] }, async () => {})).toThrow(InvalidEventPatternError);
  });
});
