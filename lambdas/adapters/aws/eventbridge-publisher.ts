/**
 * EventPublisher over EventBridge: the job-terminal and job-decision events the
 * webhook rules (JOB_TERMINAL_PATTERN, JOB_DECISION_PATTERN) route to the
 * webhook caller. PutEvents reports per-entry failures in a 200 response, so
 * they are checked and thrown.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { EventPublisher, JobDecisionEvent, JobTerminalEvent } from '../../domain/ports';
import type { RuntimeConfig } from '../../platform/config';
import { traced } from '../../observability/tracer';
import { JOB_DECISION_DETAIL_TYPE, JOB_EVENT_SOURCE, JOB_TERMINAL_DETAIL_TYPE } from '../../../step-definitions/events';

export function createEventBridgeClient(config: Pick<RuntimeConfig, 'region' | 'endpoints'>): EventBridgeClient {
  return traced(new EventBridgeClient({ region: config.region, ...(config.endpoints.events ? { endpoint: config.endpoints.events } : {}) }));
}

export interface EventBridgePublisherOptions {
  client: EventBridgeClient;
  eventBusName: string;
}

export function createEventBridgePublisher({ client, eventBusName }: EventBridgePublisherOptions): EventPublisher {
  async function put(detailType: string, event: JobTerminalEvent | JobDecisionEvent, what: string): Promise<void> {
    const out = await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: eventBusName,
            Source: JOB_EVENT_SOURCE,
            DetailType: detailType,
            Detail: JSON.stringify(event),
          },
        ],
      }),
    );
    if ((out.FailedEntryCount ?? 0) > 0) {
      const entry = out.Entries?.find((e) => e.ErrorCode) ?? out.Entries?.[0];
      throw new Error(`EventBridge refused the ${what} event of ${event.jobId}: ${entry?.ErrorCode ?? 'unknown'} ${entry?.ErrorMessage ?? ''}`.trim());
    }
  }
  return {
    publishJobTerminal: (event) => put(JOB_TERMINAL_DETAIL_TYPE, event, 'job-terminal'),
    publishJobDecision: (event) => put(JOB_DECISION_DETAIL_TYPE, event, 'job-decision'),
  };
}
