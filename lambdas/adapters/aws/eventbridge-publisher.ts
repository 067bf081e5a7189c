/**
 * EventPublisher over EventBridge: the job-terminal event the webhook rule
 * (JOB_TERMINAL_PATTERN) routes to the webhook caller. PutEvents reports
 * per-entry failures in a 200 response, so they are checked and thrown.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { EventPublisher, JobTerminalEvent } from '../../domain/ports';
import type { RuntimeConfig } from '../../platform/config';
import { JOB_EVENT_SOURCE, JOB_TERMINAL_DETAIL_TYPE } from '../../../step-definitions/events';

export function createEventBridgeClient(config: Pick<RuntimeConfig, 'region' | 'endpoints'>): EventBridgeClient {
  return new EventBridgeClient({ region: config.region, ...(config.endpoints.events ? { endpoint: config.endpoints.events } : {}) });
}

export interface EventBridgePublisherOptions {
  client: EventBridgeClient;
  eventBusName: string;
}

export function createEventBridgePublisher({ client, eventBusName }: EventBridgePublisherOptions): EventPublisher {
  return {
    async publishJobTerminal(event: JobTerminalEvent) {
      const out = await client.send(
        new PutEventsCommand({
          Entries: [
            {
              EventBusName: eventBusName,
              Source: JOB_EVENT_SOURCE,
              DetailType: JOB_TERMINAL_DETAIL_TYPE,
              Detail: JSON.stringify(event),
            },
          ],
        }),
      );
      if ((out.FailedEntryCount ?? 0) > 0) {
        const entry = out.Entries?.find((e) => e.ErrorCode) ?? out.Entries?.[0];
        throw new Error(`EventBridge refused the job-terminal event of ${event.jobId}: ${entry?.ErrorCode ?? 'unknown'} ${entry?.ErrorMessage ?? ''}`.trim());
      }
    },
  };
}
