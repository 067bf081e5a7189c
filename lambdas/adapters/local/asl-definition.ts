/**
 * Turns the state machine documents of step-definitions/ into runnable local
 * machines the way deployment does: CDK passes the document's text through
 * CloudFormation Fn::Sub with one `<Key>FunctionArn` substitution per worker, so
 * every `${<Key>FunctionArn}` becomes that function's ARN and a placeholder with
 * no substitution fails the deployment. The local runtime does exactly that with
 * Lambda-style ARNs of made-up functions, then overrides each Task by state name
 * (aws-local-stepfunctions keys its local handlers by state name, not ARN), using
 * the state names WORKERS declares.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jobPipelineAsl } from '../../../step-definitions/job-pipeline';
import { ASL_PLACEHOLDER, WORKERS, type WorkerId } from '../../../step-definitions/workers';

/** `job-pipeline` is the Express kind of the job pipeline, `job-pipeline-standard` the Standard kind. */
export type AslDocument = 'job-pipeline' | 'job-pipeline-standard' | 'webhook-retries';

export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT = '000000000000';

/** The ARN the local runtime gives a worker's function. */
export const localFunctionArn = (key: string): string =>
  `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:proofline-local-${key}`;

export const localStateMachineArn = (name: string): string =>
  `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:proofline-local-${name}`;

export const localExecutionArn = (machine: string, executionName: string): string =>
  `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:proofline-local-${machine}:${executionName}`;

/** The document's text as deployed, before substitution (the job pipeline's is built from the catalogue). */
export function readAslDocument(name: AslDocument): string {
  if (name === 'job-pipeline') return jobPipelineAsl('express');
  if (name === 'job-pipeline-standard') return jobPipelineAsl('standard');
  return readFileSync(fileURLToPath(new URL(`../../../step-definitions/${name}.asl.json`, import.meta.url)), 'utf8');
}

/** Every `${Name}` substitution the deployment defines for the ASL documents. */
export function localSubstitutions(): Record<string, string> {
  return Object.fromEntries(Object.values(WORKERS).map((w) => [ASL_PLACEHOLDER(w), localFunctionArn(w.key)]));
}

/**
 * Fn::Sub over the document's text: `${Name}` is replaced, `${!Name}` is the
 * literal `${Name}`, and an unknown name is an error (CloudFormation refuses it).
 */
export function substitute(text: string, substitutions: Record<string, string>): string {
  return text.replace(/\$\{(!?)([^}]*)\}/g, (whole, bang: string, name: string) => {
    if (bang) return `\${${name}}`;
    const value = substitutions[name];
    if (value === undefined) throw new Error(`The state machine definition refers to \${${name}}, which has no substitution`);
    return value;
  });
}

/** The document with every worker ARN filled in, parsed. */
export function loadLocalDefinition(name: AslDocument): Record<string, unknown> {
  return JSON.parse(substitute(readAslDocument(name), localSubstitutions())) as Record<string, unknown>;
}

/** The worker each Task state name invokes. */
export function workerByStateName(): Map<string, WorkerId> {
  const out = new Map<string, WorkerId>();
  for (const [id, w] of Object.entries(WORKERS) as [WorkerId, (typeof WORKERS)[WorkerId]][]) {
    for (const state of w.stateNames) out.set(state, id);
  }
  return out;
}

/** Calls a worker's handler with the Task's input and resolves with its output. */
export type WorkerInvoker = (worker: WorkerId, input: unknown) => Promise<unknown>;

/**
 * The Task overrides for aws-local-stepfunctions: every Task state of the
 * definition must be one WORKERS names, and must call the worker whose ARN its
 * Resource holds (so a state wired to the wrong function fails here as it would
 * misbehave in the cloud).
 */
export function taskHandlersFor(
  definition: Record<string, unknown>,
  invoke: WorkerInvoker,
): Record<string, (input: unknown) => Promise<unknown>> {
  const byState = workerByStateName();
  const handlers: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [stateName, resource] of taskStates(definition)) {
    const worker = byState.get(stateName);
    if (!worker) throw new Error(`Task state ${stateName} is not listed in any WORKERS[*].stateNames`);
    const expected = localFunctionArn(WORKERS[worker].key);
    if (resource !== expected) throw new Error(`Task state ${stateName} invokes ${resource}, but WORKERS says ${expected}`);
    handlers[stateName] = (input) => invoke(worker, input);
  }
  return handlers;
}

/** [state name, Resource] of every Task state, nested Map/Parallel states included. */
export function taskStates(definition: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  const visit = (machine: unknown): void => {
    const states = (machine as { States?: Record<string, Record<string, unknown>> } | undefined)?.States ?? {};
    for (const [name, state] of Object.entries(states)) {
      if (state.Type === 'Task') out.push([name, String(state.Resource)]);
      if (state.Type === 'Map') visit(state.ItemProcessor ?? state.Iterator);
      if (state.Type === 'Parallel') (state.Branches as unknown[] | undefined)?.forEach(visit);
    }
  };
  visit(definition);
  return out;
}

/**
 * Counts the states an execution enters, from its event log (read only when
 * someone wants it: the cost model). Step Functions bills a Standard execution
 * per state transition, nested Map iterations' included.
 */
export async function countStateTransitions(events: AsyncGenerator<{ type: string }> | undefined): Promise<number> {
  let entered = 0;
  if (!events) return entered;
  for await (const event of events) if (event.type === 'StateEntered') entered += 1;
  return entered;
}
