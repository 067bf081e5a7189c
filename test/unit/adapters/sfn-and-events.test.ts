/**
 * Step Functions orchestration, webhook retry scheduling and EventBridge
 * publishing: the requests they send and which failures they absorb.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import {
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  InvalidArn,
  SFNClient,
  StartExecutionCommand,
  StateMachineDoesNotExist,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { createSfnOrchestrator, executionArn, isExpressExecution } from '../../../lambdas/adapters/aws/sfn-orchestrator';
import { createSfnWebhookScheduler } from '../../../lambdas/adapters/aws/sfn-webhook-scheduler';
import { createEventBridgePublisher } from '../../../lambdas/adapters/aws/eventbridge-publisher';
import { JOB_EVENT_SOURCE, JOB_TERMINAL_DETAIL_TYPE } from '../../../step-definitions/events';
import type { PipelineInput } from '../../../lambdas/domain/ports';

const credentials = { accessKeyId: 'x', secretAccessKey: 'y' };
const sfnClient = new SFNClient({ region: 'eu-west-1', credentials });
const sfn = mockClient(sfnClient);
const ebClient = new EventBridgeClient({ region: 'eu-west-1', credentials });
const eb = mockClient(ebClient);

const MACHINE = 'arn:aws:states:eu-west-1:123456789012:stateMachine:proofline-jobs';
const STANDARD = 'arn:aws:states:eu-west-1:123456789012:stateMachine:proofline-jobs-standard';
const EXPRESS_RUN = 'arn:aws:states:eu-west-1:123456789012:express:proofline-jobs:job_01j0000000000000000000000a:6f1c1a52-0d55-4f6e-9d7e-0b8c4e1f2a3b';
const WEBHOOKS = 'arn:aws:states:eu-west-1:123456789012:stateMachine:proofline-webhooks';
const input: PipelineInput = {
  jobId: 'job_01j0000000000000000000000a',
  accountId: 'acct',
  tasks: [{ taskId: 'task_1', steps: [{ stepId: 'step_1', type: 'preflight', index: 0 }] }],
};
const meta = { $metadata: {} };

beforeEach(() => {
  sfn.reset();
  eb.reset();
});

describe('the Step Functions orchestrator', () => {
  const orchestrator = createSfnOrchestrator({ client: sfnClient, stateMachineArn: MACHINE, standardStateMachineArn: STANDARD });

  it('starts a job in the Express machine, named after the job, with the pipeline input', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: EXPRESS_RUN, startDate: new Date() });
    expect(await orchestrator.startJob(input)).toBe(EXPRESS_RUN);
    const sent = sfn.commandCalls(StartExecutionCommand)[0]!.args[0].input;
    expect(sent).toEqual({ stateMachineArn: MACHINE, name: input.jobId, input: JSON.stringify(input) });
  });

  it('continues a job in the Standard machine, and answers a second continuation with the existing execution\'s ARN', async () => {
    sfn.on(StartExecutionCommand)
      .resolvesOnce({ executionArn: `arn:aws:states:eu-west-1:123456789012:execution:proofline-jobs-standard:${input.jobId}`, startDate: new Date() })
      .rejectsOnce(new ExecutionAlreadyExists({ message: 'exists', ...meta }));
    const first = await orchestrator.continueJob(input);
    expect(await orchestrator.continueJob(input)).toBe(first);
    expect(first).toBe(`arn:aws:states:eu-west-1:123456789012:execution:proofline-jobs-standard:${input.jobId}`);
    expect(sfn.commandCalls(StartExecutionCommand)[0]!.args[0].input).toEqual({ stateMachineArn: STANDARD, name: input.jobId, input: JSON.stringify(input) });
    expect(executionArn(MACHINE, 'x')).toBe('arn:aws:states:eu-west-1:123456789012:execution:proofline-jobs:x');
  });

  it('rethrows any other start failure', async () => {
    sfn.on(StartExecutionCommand).rejects(new StateMachineDoesNotExist({ message: 'gone', ...meta }));
    await expect(orchestrator.startJob(input)).rejects.toThrow('gone');
    await expect(orchestrator.continueJob(input)).rejects.toThrow('gone');
  });

  it('refuses to start without a configured state machine', async () => {
    const unconfigured = createSfnOrchestrator({ client: sfnClient, stateMachineArn: '', standardStateMachineArn: '' });
    await expect(unconfigured.startJob(input)).rejects.toThrow(/STATE_MACHINE_ARN/);
    await expect(unconfigured.continueJob(input)).rejects.toThrow(/STANDARD_STATE_MACHINE_ARN/);
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(0);
  });

  it('stops an execution and treats an unknown or finished one as stopped', async () => {
    sfn.on(StopExecutionCommand)
      .resolvesOnce({ stopDate: new Date() })
      .rejectsOnce(new ExecutionDoesNotExist({ message: 'none', ...meta }))
      .rejectsOnce(new InvalidArn({ message: 'bad arn', ...meta }))
      .rejectsOnce(Object.assign(new Error('Execution is not running'), { name: 'ValidationException' }))
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    await orchestrator.stop('arn:exec:1');
    await orchestrator.stop('arn:exec:2');
    await orchestrator.stop('local:job_x');
    await orchestrator.stop('arn:exec:3');
    await expect(orchestrator.stop('arn:exec:4')).rejects.toThrow('Rate exceeded');
    expect(sfn.commandCalls(StopExecutionCommand)[0]!.args[0].input.executionArn).toBe('arn:exec:1');
  });

  it('does not ask Step Functions to stop an Express execution, which it refuses', async () => {
    expect(isExpressExecution(EXPRESS_RUN)).toBe(true);
    expect(isExpressExecution(executionArn(STANDARD, input.jobId))).toBe(false);
    await orchestrator.stop(EXPRESS_RUN);
    expect(sfn.commandCalls(StopExecutionCommand)).toHaveLength(0);
  });
});

describe('the webhook retry scheduler', () => {
  const scheduler = createSfnWebhookScheduler({ client: sfnClient, webhookStateMachineArn: WEBHOOKS });
  const retry = { jobId: input.jobId, accountId: 'acct', attempt: 3, delaySeconds: 300 };

  it('starts one execution per job and attempt, carrying the delay', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn:exec:w', startDate: new Date() });
    await scheduler.scheduleRetry(retry);
    expect(sfn.commandCalls(StartExecutionCommand)[0]!.args[0].input).toEqual({
      stateMachineArn: WEBHOOKS,
      name: `${input.jobId}-attempt-3`,
      input: JSON.stringify(retry),
    });
  });

  it('counts an already scheduled retry as scheduled and rethrows other failures', async () => {
    sfn.on(StartExecutionCommand)
      .rejectsOnce(new ExecutionAlreadyExists({ message: 'exists', ...meta }))
      .rejectsOnce(new StateMachineDoesNotExist({ message: 'gone', ...meta }));
    await scheduler.scheduleRetry(retry);
    await expect(scheduler.scheduleRetry(retry)).rejects.toThrow('gone');
  });
});

describe('the EventBridge publisher', () => {
  const publisher = createEventBridgePublisher({ client: ebClient, eventBusName: 'proofline-bus' });
  const event = { jobId: input.jobId, accountId: 'acct', status: 'done' as const, outcome: 'pass' as const, hasWebhook: true };

  it('puts the job-terminal event on the configured bus', async () => {
    eb.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e1' }] });
    await publisher.publishJobTerminal(event);
    expect(eb.commandCalls(PutEventsCommand)[0]!.args[0].input.Entries).toEqual([
      { EventBusName: 'proofline-bus', Source: JOB_EVENT_SOURCE, DetailType: JOB_TERMINAL_DETAIL_TYPE, Detail: JSON.stringify(event) },
    ]);
  });

  it('throws when EventBridge reports the entry as failed', async () => {
    eb.on(PutEventsCommand).resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure', ErrorMessage: 'try again' }] });
    await expect(publisher.publishJobTerminal(event)).rejects.toThrow(/InternalFailure try again/);
  });
});
