/**
 * Orchestrator over Step Functions: a job starts in the pipeline's Express
 * machine and, if that execution ends without finishing it, continues in the
 * Standard one (step-definitions/job-pipeline.ts). Executions are named after
 * the job; Step Functions refuses a second Standard execution of the same
 * name, and we answer with the first one's ARN.
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
  /** The job pipeline's Express machine. */
  stateMachineArn: string;
  /** The same pipeline as a Standard machine (ContinueJob starts it). */
  standardStateMachineArn: string;
}

/** Express executions' ARNs name the `express` resource type; they cannot be stopped. */
export const isExpressExecution = (workflowId: string): boolean => workflowId.split(':')[5] === 'express';

export function createSfnOrchestrator({ client, stateMachineArn, standardStateMachineArn }: SfnOrchestratorOptions): Orchestrator {
  return {
    // Express executions are not deduplicated by name: a job is started once
    // because its record is created once (create-job.ts), before this call.
    async startJob(input: PipelineInput) {
      if (!stateMachineArn) throw new Error('STATE_MACHINE_ARN is not configured');
      const out = await client.send(new StartExecutionCommand({ stateMachineArn, name: input.jobId, input: JSON.stringify(input) }));
      if (!out.executionArn) throw new Error('Step Functions started the job without an execution ARN');
      return out.executionArn;
    },

    // Standard executions are: continuing a job twice starts it once.
    async continueJob(input: PipelineInput) {
      if (!standardStateMachineArn) throw new Error('STANDARD_STATE_MACHINE_ARN is not configured');
      try {
        const out = await client.send(new StartExecutionCommand({ stateMachineArn: standardStateMachineArn, name: input.jobId, input: JSON.stringify(input) }));
        return out.executionArn ?? executionArn(standardStateMachineArn, input.jobId);
      } catch (error) {
        if (errorName(error) === 'ExecutionAlreadyExists') return executionArn(standardStateMachineArn, input.jobId);
        throw error;
      }
    },

    async stop(workflowId) {
      // StopExecution refuses Express executions. Its workers stop by themselves:
      // each finds the deleted job gone (step-runner.ts: `missing`).
      if (isExpressExecution(workflowId)) return;
      try {
        await client.send(new StopExecutionCommand({ executionArn: workflowId, error: 'JobDeleted', cause: 'The job was deleted.' }));
      } catch (error) {
        if (!isNothingToStop(error)) throw error;
      }
    },
  };
}
