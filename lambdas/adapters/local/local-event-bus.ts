/**
 * The local runtime's EventBridge: an EventPublisher that wraps each event in
 * the envelope EventBridge delivers, matches it against the registered rules'
 * patterns and hands every match to the rule's target asynchronously, the way
 * an EventBridge rule invokes its Lambda target (asynchronous invocation, retried
 * twice on failure). Publishing therefore never waits for, nor fails because of,
 * a target.
 */
import { randomUUID } from 'node:crypto';
import { JOB_DECISION_DETAIL_TYPE, JOB_EVENT_SOURCE, JOB_TERMINAL_DETAIL_TYPE } from '../../../step-definitions/events';
import type { EventPublisher, JobDecisionEvent, JobTerminalEvent } from '../../domain/ports';
import { matchEventPattern, validateEventPattern, type EventPattern } from './event-pattern';
import { componentLog, type ComponentLog } from '../../observability/logger';

/** What an EventBridge rule target receives. */
export interface EventEnvelope<D = unknown> {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: D;
}

export type EventTarget = (event: EventEnvelope) => Promise<unknown>;

/** The job a job event is about (its detail names it), for the bus's log lines. */
function jobKeysOf(event: EventEnvelope): Record<string, unknown> {
  const detail = event.detail as { jobId?: unknown; accountId?: unknown } | null;
  return typeof detail?.jobId === 'string' ? { jobId: detail.jobId, accountId: detail.accountId } : {};
}

export interface LocalEventBusOptions {
  region?: string;
  account?: string;
  /**
   * Delays before the retries of a failed target invocation. Lambda's
   * asynchronous invocation retries twice, after about one and two minutes.
   */
  retryDelaysMs?: readonly number[];
  log?: ComponentLog;
  /** Told of every event put on the bus (EventBridge bills each custom event), for the cost model. */
  onPublished?: () => void;
}

export interface LocalEventBus extends EventPublisher {
  /** Routes events matching the pattern to the target; throws on a pattern we cannot evaluate. */
  addRule(name: string, pattern: unknown, target: EventTarget): void;
  /** Publishes any event (the job-terminal and job-decision ones go through publishJobTerminal and publishJobDecision). */
  publish(source: string, detailType: string, detail: unknown): Promise<void>;
  /** Resolves when every delivery started so far has finished (tests, shutdown). */
  whenIdle(): Promise<void>;
  /** Cancels pending retries; deliveries in flight finish on their own. */
  close(): void;
}

interface Rule {
  name: string;
  pattern: EventPattern;
  target: EventTarget;
}

export function createLocalEventBus(opts: LocalEventBusOptions = {}): LocalEventBus {
  const region = opts.region ?? 'us-east-1';
  const account = opts.account ?? '000000000000';
  const retryDelaysMs = opts.retryDelaysMs ?? [60_000, 120_000];
  const log = opts.log ?? componentLog('event-bus');
  const rules: Rule[] = [];
  const inFlight = new Set<Promise<void>>();
  const pendingRetries = new Map<NodeJS.Timeout, (goOn: boolean) => void>();
  let closed = false;

  /** Resolves true after `ms`, or false at once when the bus closes meanwhile. */
  const sleep = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (closed) return resolve(false);
      const t = setTimeout(() => { pendingRetries.delete(t); resolve(true); }, ms);
      pendingRetries.set(t, resolve);
    });

  async function deliver(rule: Rule, event: EventEnvelope): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await rule.target(event);
        return;
      } catch (err) {
        const delay = retryDelaysMs[attempt];
        if (delay === undefined) {
          log(`rule ${rule.name}: target failed for event ${event.id} after ${attempt + 1} attempts; dropped`, err, jobKeysOf(event));
          return;
        }
        log(`rule ${rule.name}: target failed for event ${event.id}; retrying in ${delay} ms`, err, jobKeysOf(event));
        if (!(await sleep(delay))) return;
      }
    }
  }

  async function publish(source: string, detailType: string, detail: unknown): Promise<void> {
    opts.onPublished?.();
    const event: EventEnvelope = {
      version: '0',
      id: randomUUID(),
      'detail-type': detailType,
      source,
      account,
      // EventBridge writes event time without milliseconds.
      time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region,
      resources: [],
      // Targets get their own copy, as they would get parsed JSON in the cloud.
      detail: JSON.parse(JSON.stringify(detail ?? null)),
    };
    for (const rule of rules) {
      if (!matchEventPattern(rule.pattern, event)) continue;
      const copy = JSON.parse(JSON.stringify(event)) as EventEnvelope;
      // setImmediate: the publisher's caller continues before any target runs.
      const p = new Promise<void>((resolve) => setImmediate(resolve)).then(() => deliver(rule, copy));
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
  }

  return {
    addRule(name, pattern, target) {
      validateEventPattern(pattern);
      rules.push({ name, pattern, target });
    },
    publish,
    publishJobTerminal: (event: JobTerminalEvent) => publish(JOB_EVENT_SOURCE, JOB_TERMINAL_DETAIL_TYPE, event),
    publishJobDecision: (event: JobDecisionEvent) => publish(JOB_EVENT_SOURCE, JOB_DECISION_DETAIL_TYPE, event),
    async whenIdle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    close() {
      closed = true;
      for (const [t, resolve] of pendingRetries) { clearTimeout(t); resolve(false); }
      pendingRetries.clear();
    },
  };
}
