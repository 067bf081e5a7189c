/**
 * State machines and events as synthesized (bundling skipped, one synth for the
 * file): the ASL documents deployed verbatim, what their Tasks invoke, and the
 * EventBridge rules for terminal jobs and dead executions.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { JOB_TERMINAL_PATTERN } from '../../step-definitions/events';
import { ASL_PLACEHOLDER, WORKERS, type WorkerId } from '../../step-definitions/workers';
import { repoPath } from '../../lib/paths';
import { jobPipelineAsl } from '../../step-definitions/job-pipeline';
import { synthProofline } from './support/synth';
import {
  functionIdByEntry,
  getAttId,
  refId,
  resourcesOfType,
  roleIdOfFunction,
  statementsOfRole,
  statementsWith,
  type CfnResource,
} from './support/template-queries';

let template: Template;
let rules: [string, CfnResource][];

beforeAll(() => {
  ({ template } = synthProofline());
  rules = resourcesOfType(template, 'AWS::Events::Rule');
});

const MACHINES = [
  { name: 'job pipeline', text: jobPipelineAsl(), idPrefix: 'PipelineJobPipeline' },
  { name: 'webhook retries', text: readFileSync(repoPath('step-definitions/webhook-retries.asl.json'), 'utf8'), idPrefix: 'EventsWebhookRetries' },
] as const;

function machine(idPrefix: string): CfnResource {
  const found = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').filter(([id]) => id.startsWith(idPrefix));
  expect(found).toHaveLength(1);
  return found[0]![1];
}

/** A Lambda ARN as CloudFormation would put it in place of a function reference. */
const lambdaArn = (functionLogicalId: string): string => `arn:aws:lambda:eu-west-1:123456789012:function:${functionLogicalId}`;

/** What CloudFormation does with DefinitionString + DefinitionSubstitutions. */
function deployedDefinition(m: CfnResource): string {
  const substitutions = m.Properties.DefinitionSubstitutions as Record<string, unknown>;
  return (m.Properties.DefinitionString as string).replace(/\$\{([A-Za-z0-9_]+)\}/g, (whole, key: string) => {
    const id = getAttId(substitutions[key]);
    if (!id) throw new Error(`no substitution for ${whole}`);
    return lambdaArn(id);
  });
}

/** What the local runtime does: the same document with each worker's placeholder replaced. */
function localDefinition(document: string): string {
  let text = document;
  for (const spec of Object.values(WORKERS)) {
    text = text.replaceAll(`\${${ASL_PLACEHOLDER(spec)}}`, lambdaArn(functionIdByEntry(template, spec.entry)));
  }
  return text;
}

type AslState = { Type: string; Resource?: string; ItemProcessor?: { States: Record<string, AslState> } };

function taskStates(states: Record<string, AslState>): [string, AslState][] {
  return Object.entries(states).flatMap(([name, s]) => [
    ...(s.Type === 'Task' ? [[name, s] as [string, AslState]] : []),
    ...(s.ItemProcessor ? taskStates(s.ItemProcessor.States) : []),
  ]);
}

describe.each(MACHINES)('the $name state machine', ({ text: document, idPrefix }) => {
  it('is deployed from its ASL document verbatim', () => {
    expect(machine(idPrefix).Properties.DefinitionString).toBe(document);
  });

  it('substitutes exactly the placeholders the document uses, each with a function ARN', () => {
    const text = document;
    const placeholders = [...new Set([...text.matchAll(/\$\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]))].sort();
    const substitutions = machine(idPrefix).Properties.DefinitionSubstitutions as Record<string, unknown>;
    expect(Object.keys(substitutions).sort()).toEqual(placeholders);
    for (const value of Object.values(substitutions)) expect(getAttId(value)).toBeDefined();
  });

  it('once CloudFormation substitutes, is the same document the local runtime runs', () => {
    expect(JSON.parse(deployedDefinition(machine(idPrefix)))).toEqual(JSON.parse(localDefinition(document)));
  });

  it('invokes, from each Task state, the function of the worker that state belongs to', () => {
    const definition = JSON.parse(deployedDefinition(machine(idPrefix))) as { States: Record<string, AslState> };
    const tasks = taskStates(definition.States);
    expect(tasks.length).toBeGreaterThan(0);
    for (const [stateName, state] of tasks) {
      const owner = (Object.keys(WORKERS) as WorkerId[]).find((id) => WORKERS[id].stateNames.includes(stateName));
      expect(owner, `no WorkerSpec lists state ${stateName}`).toBeDefined();
      expect(state.Resource, stateName).toBe(lambdaArn(functionIdByEntry(template, WORKERS[owner!].entry)));
    }
  });

  it('may invoke each of those functions, and only through its own role', () => {
    const m = machine(idPrefix);
    const roleId = getAttId(m.Properties.RoleArn)!;
    const invokes = statementsWith(statementsOfRole(template, roleId), 'lambda:InvokeFunction');
    const substitutions = m.Properties.DefinitionSubstitutions as Record<string, unknown>;
    for (const value of Object.values(substitutions)) {
      const fnId = getAttId(value)!;
      expect(JSON.stringify(invokes.map((s) => s.Resource)), fnId).toContain(`"${fnId}"`);
    }
  });

  it('logs every transition without the states\' input and output, and traces executions', () => {
    const props = machine(idPrefix).Properties;
    expect(props.TracingConfiguration).toEqual({ Enabled: true });
    expect(props.LoggingConfiguration.Level).toBe('ALL');
    expect(props.LoggingConfiguration.IncludeExecutionData).toBe(false);
    expect(props.LoggingConfiguration.Destinations).toHaveLength(1);
    expect(props.StateMachineType ?? 'STANDARD').toBe('STANDARD');
  });
});

describe('the job pipeline', () => {
  it('runs the pipeline workers and not the webhook caller', () => {
    const substitutions = machine('PipelineJobPipeline').Properties.DefinitionSubstitutions as Record<string, unknown>;
    const ids = Object.values(substitutions).map(getAttId);
    for (const w of ['ingest', 'preflight', 'autofix', 'validate', 'previews', 'optimize', 'recordFailure', 'finalise'] as const) {
      expect(ids).toContain(functionIdByEntry(template, WORKERS[w].entry));
    }
    expect(ids).not.toContain(functionIdByEntry(template, WORKERS.webhookCaller.entry));
  });

  it('routes optimize steps to the optimize function, and to nothing else', () => {
    type Flow = AslState & { Choices?: Record<string, unknown>[]; TimeoutSeconds?: number };
    const definition = JSON.parse(deployedDefinition(machine('PipelineJobPipeline'))) as { States: Record<string, Flow> };
    const stepStates = definition.States.ProcessTasks!.ItemProcessor!.States.RunSteps!.ItemProcessor!.States as Record<string, Flow>;
    const routes = stepStates.RouteStep!.Choices!.filter((c) => JSON.stringify(c).includes('"optimize"'));
    expect(routes).toEqual([{ Variable: '$.step.type', StringEquals: 'optimize', Next: 'Optimize' }]);
    expect(stepStates.Optimize).toMatchObject({ Type: 'Task', Resource: lambdaArn(functionIdByEntry(template, 'lambdas/steps/optimize.ts')) });
    expect(stepStates.Optimize!.TimeoutSeconds).toBe(WORKERS.optimize.timeoutSeconds + 30);
  });

  it('renders a large previews step in page batches in parallel (a Map), then finishes it, all through the previews function', () => {
    type Flow = AslState & { Next?: string; End?: boolean; ItemsPath?: string; MaxConcurrency?: number; ItemSelector?: Record<string, string>; Catch?: { Next: string }[]; Choices?: { Next: string }[] };
    const definition = JSON.parse(deployedDefinition(machine('PipelineJobPipeline'))) as { States: Record<string, Flow> };
    const stepStates = definition.States.ProcessTasks!.ItemProcessor!.States.RunSteps!.ItemProcessor!.States as Record<string, Flow>;
    const previewsArn = lambdaArn(functionIdByEntry(template, WORKERS.previews.entry));
    expect(stepStates.Previews).toMatchObject({ Resource: previewsArn, Next: 'PreviewsPlanned' });
    expect(stepStates.PreviewsPlanned!.Choices!.map((c) => c.Next)).toEqual(['RenderPreviewBatches']);
    const map = stepStates.RenderPreviewBatches!;
    expect(map).toMatchObject({ Type: 'Map', ItemsPath: '$.plan.batches', Next: 'FinishPreviews', Catch: [{ Next: 'StepFailed' }] });
    // 500 pages in batches of the default 20 are 25 batches: all at once.
    expect(map.MaxConcurrency).toBeGreaterThanOrEqual(25);
    expect(map.ItemSelector).toMatchObject({ phase: 'batch', 'batch.$': '$$.Map.Item.Value' });
    expect(taskStates(map.ItemProcessor!.States).map(([name, t]) => [name, t.Resource])).toEqual([['RenderPreviewBatch', previewsArn]]);
    expect(stepStates.FinishPreviews).toMatchObject({ Resource: previewsArn, End: true, Catch: [{ Next: 'StepFailed' }] });
  });

  it('is started and stopped only by route functions, never by a worker', () => {
    const [pipelineId] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').find(([id]) => id.startsWith('PipelineJobPipeline'))!;
    for (const spec of Object.values(WORKERS)) {
      const statements = statementsOfRole(template, roleIdOfFunction(template, functionIdByEntry(template, spec.entry)));
      const starts = statementsWith(statements, 'states:StartExecution').filter((s) => JSON.stringify(s.Resource).includes(pipelineId));
      expect(starts, spec.entry).toEqual([]);
    }
  });
});

const ruleNamed = (prefix: string): CfnResource => {
  const found = rules.filter(([id]) => id.startsWith(prefix));
  expect(found).toHaveLength(1);
  return found[0]![1];
};

/** EventBridge's input transformer, as it renders a template from an event (placeholders outside quotes). */
function transform(transformer: { InputPathsMap: Record<string, string>; InputTemplate: string }, event: Record<string, unknown>): unknown {
  let text = transformer.InputTemplate;
  for (const [name, path] of Object.entries(transformer.InputPathsMap)) {
    const value = path
      .replace(/^\$\./, '')
      .split('.')
      .reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], event);
    text = text.replaceAll(`<${name}>`, JSON.stringify(value));
  }
  return JSON.parse(text);
}

describe('job-terminal events', () => {
  it('travel on a custom bus of our own', () => {
    template.resourceCountIs('AWS::Events::EventBus', 1);
  });

  it('reach the webhook caller through a rule with exactly JOB_TERMINAL_PATTERN', () => {
    const rule = ruleNamed('EventsJobTerminalToWebhook');
    expect(rule.Properties.EventPattern).toEqual(JOB_TERMINAL_PATTERN);
    const [busId] = resourcesOfType(template, 'AWS::Events::EventBus')[0]!;
    expect(refId(rule.Properties.EventBusName)).toBe(busId);
    expect(rule.Properties.Targets).toHaveLength(1);
    expect(getAttId(rule.Properties.Targets[0].Arn)).toBe(functionIdByEntry(template, WORKERS.webhookCaller.entry));
    expect(rule.Properties.Targets[0].Input ?? rule.Properties.Targets[0].InputTransformer).toBeUndefined();
  });

  it('may invoke the webhook caller, as may the job-decision rule, and no other', () => {
    const callerId = functionIdByEntry(template, WORKERS.webhookCaller.entry);
    const permissions = resourcesOfType(template, 'AWS::Lambda::Permission').filter(
      ([, p]) => getAttId(p.Properties.FunctionName) === callerId && p.Properties.Principal === 'events.amazonaws.com',
    );
    const rules = permissions.map(([, p]) => getAttId(p.Properties.SourceArn) ?? '').sort();
    expect(rules).toHaveLength(2);
    expect(rules[0]).toMatch(/^EventsJobDecisionToWebhook/);
    expect(rules[1]).toMatch(/^EventsJobTerminalToWebhook/);
  });
});

describe('executions that die', () => {
  it('of the job pipeline, when failed or timed out, invoke the finaliser', () => {
    const rule = ruleNamed('PipelineAbandonedExecutions');
    const [pipelineId] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').find(([id]) => id.startsWith('PipelineJobPipeline'))!;
    expect(rule.Properties.EventBusName).toBeUndefined(); // AWS service events arrive on the default bus
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: { status: ['FAILED', 'TIMED_OUT'], stateMachineArn: [{ Ref: pipelineId }] },
    });
    expect(getAttId(rule.Properties.Targets[0].Arn)).toBe(functionIdByEntry(template, WORKERS.finalise.entry));
  });

  it('reach the finaliser as { abandoned: true, detail } that still names the job', async () => {
    const { parseFinaliseEvent } = await import('../../lambdas/steps/finalise');
    const rule = ruleNamed('PipelineAbandonedExecutions');
    const input = { jobId: 'job_01jb', accountId: 'acct_1', tasks: [] };
    const event = {
      source: 'aws.states',
      'detail-type': 'Step Functions Execution Status Change',
      detail: {
        executionArn: 'arn:aws:states:eu-west-1:123456789012:execution:Pipeline:job_01jb',
        name: 'job_01jb',
        status: 'TIMED_OUT',
        input: JSON.stringify(input),
      },
    };
    const delivered = transform(rule.Properties.Targets[0].InputTransformer, event);
    expect(delivered).toEqual({ abandoned: true, detail: event.detail });
    expect(parseFinaliseEvent(delivered)).toEqual({ jobId: 'job_01jb', accountId: 'acct_1', abandoned: true });
  });
});
