/**
 * WebhookScheduler over the webhook-retries state machine: each retry is one
 * execution that waits `delaySeconds` and then calls the webhook caller. The
 * execution name carries the job and attempt, so scheduling the same retry
 * twice (a redelivered event, a retried Lambda) starts it once.
 */
import { StartExecutionCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { WebhookRetryInput, WebhookScheduler } from '../../domain/ports';

export const webhookRetryExecutionName = (jobId: string, attempt: number): string => `${jobId}-attempt-${attempt}`;

export interface SfnWebhookSchedulerOptions {
  client: SFNClient;
  webhookStateMachineArn: string;
}

export function createSfnWebhookScheduler({ client, webhookStateMachineArn }: SfnWebhookSchedulerOptions): WebhookScheduler {
  return {
    async scheduleRetry(input: WebhookRetryInput) {
      if (!webhookStateMachineArn) throw new Error('WEBHOOK_STATE_MACHINE_ARN is not configured');
      const { jobId, accountId, attempt, delaySeconds } = input;
      try {
        await client.send(
          new StartExecutionCommand({
            stateMachineArn: webhookStateMachineArn,
            name: webhookRetryExecutionName(jobId, attempt),
            input: JSON.stringify({ jobId, accountId, attempt, delaySeconds }),
          }),
        );
      } catch (error) {
        if ((error as { name?: string } | null)?.name !== 'ExecutionAlreadyExists') throw error;
      }
    },
  };
}
