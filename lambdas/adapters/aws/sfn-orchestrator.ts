/**
 * Orchestrator over Step Functions (standard workflows). The execution is
 * named after the job, so starting a job twice (a retried API request) can
 * never run its pipeline twice: Step Functions refuses a second execution of
 * the same name and we answer with the first one's ARN.
 */
import { SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import type { Orchestrator, PipelineInput } from '../../domain/ports';
import type { RuntimeConfig } from '../../platform/config';
import { traced } from '../../observability/tracer';

export function createSfnClient(config: Pick<RuntimeConfig, 'region' | 'endpoints'>): SFNClient {
  return traced(new SFNClient({ region: config.region, ...(config.endpoints.sfn ? { endpoint: config.endpoints.sfn } : {}) }));
}

/** arn:aws:states:r:a:stateMachine:Name → arn:aws:states:r:a:execution:Name:<executionName> */
export function executionArn(stateMachineArn: string, executionName: string): string {
  return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${executionName}`;
}

const errorName = (error: unknown): string | undefined => (error as { name?: string } | null)?.name;

/** What StopExecution reports about an execution that is unknown or no longer running. */
function isNothingToStop(error: unknown): boolean {
  const name = errorName(error);
  if (name === 'ExecutionDoesNotExist' || name === 'InvalidArn') return true;
  const message = String((error as { message?: unknown } | null)?.message ?? '');
  return name === 'ValidationException' && /not running|already (stopped|finished|completed|terminated|ended)/i.test(message);
}

export interface SfnOrchestratorOptions {
  client: SFNClient;
  stateMachineArn: string;
}

export function createSfnOrchestrator({ client, stateMachineArn }: SfnOrchestratorOptions): Orchestrator {
  return {
    async startJob(input: PipelineInput) {
      if (!stateMachineArn) throw new Error('STATE_MACHINE_ARN is not configured');
      try {
        const out = await client.send(new StartExecutionCommand({ stateMachineArn, name: input.jobId, input: JSON.stringify(input) }));
        return out.executionArn ?? executionArn(stateMachineArn, input.jobId);
      } catch (error) {
        if (errorName(error) === 'ExecutionAlreadyExists') return executionArn(stateMachineArn, input.jobId);
        throw error;
      }
    },

    async stop(workflowId) {
      try {
        await client.send(new StopExecutionCommand({ executionArn: workflowId, error: 'JobDeleted', cause: 'The job was deleted.' }));
      } catch (error) {
        if (!isNothingToStop(error)) throw error;
      }
    },
  };
}
