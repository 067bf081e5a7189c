/**
 * The job pipeline's definition agrees with the step-type catalogue: RouteStep
 * sends every step type to the Task of its worker and nothing else anywhere,
 * and every Task waits for its function's timeout plus the margin.
 */
import { describe, expect, it } from 'vitest';
import { STEP_CATALOGUE, STEP_TYPES } from '../../../step-definitions/catalogue';
import { jobPipelineAsl, jobPipelineDefinition } from '../../../step-definitions/job-pipeline';
import { ASL_PLACEHOLDER, TASK_TIMEOUT_MARGIN_SECONDS, WORKERS, type WorkerId } from '../../../step-definitions/workers';

type State = { Type: string; Resource?: string; TimeoutSeconds?: number; Choices?: Choice[]; Default?: string; ItemProcessor?: { States: Record<string, State> } };
type Choice = { Variable?: string; StringEquals?: string; Or?: Choice[]; Next?: string };

function allStates(states: Record<string, State>): [string, State][] {
  return Object.entries(states).flatMap(([name, s]) => [[name, s] as [string, State], ...(s.ItemProcessor ? allStates(s.ItemProcessor.States) : [])]);
}

const states = new Map(allStates((jobPipelineDefinition() as { States: Record<string, State> }).States));
const routeStep = states.get('RouteStep')!;

/** The state RouteStep goes to for a step of this type, as Step Functions would choose. */
function routeOf(type: string): string {
  const matches = (c: Choice): boolean => (c.Or ? c.Or.some(matches) : c.Variable === '$.step.type' && c.StringEquals === type);
  return routeStep.Choices!.find(matches)?.Next ?? routeStep.Default!;
}

describe('the job pipeline definition', () => {
  it.each(STEP_TYPES)('routes a %s step to the Task of the worker the catalogue names', (type) => {
    const worker = STEP_CATALOGUE[type].worker;
    const target = states.get(routeOf(type))!;
    expect(routeOf(type)).toBe(worker.key);
    expect(target.Type).toBe('Task');
    expect(target.Resource).toBe(`\${${ASL_PLACEHOLDER(worker)}}`);
  });

  it('routes only the catalogue’s step types; any other type is UnknownStepType', () => {
    const routed = (c: Choice): string[] => (c.Or ? c.Or.flatMap(routed) : [c.StringEquals!]);
    expect(routeStep.Choices!.flatMap(routed).sort()).toEqual([...STEP_TYPES].sort());
    expect(routeOf('no-such-step-type')).toBe('UnknownStepType');
    expect(states.get('UnknownStepType')!.Type).toBe('Pass');
  });

  it('gives every Task its worker’s timeout plus the margin', () => {
    const tasks = [...states].filter(([, s]) => s.Type === 'Task');
    expect(tasks.length).toBeGreaterThan(0);
    for (const [name, task] of tasks) {
      const id = (Object.keys(WORKERS) as WorkerId[]).find((w) => WORKERS[w].stateNames.includes(name));
      expect(id, `no worker lists the Task ${name}`).toBeDefined();
      expect(task.Resource, name).toBe(`\${${ASL_PLACEHOLDER(WORKERS[id!])}}`);
      expect(task.TimeoutSeconds, name).toBe(WORKERS[id!].timeoutSeconds + TASK_TIMEOUT_MARGIN_SECONDS);
    }
  });

  it('is the JSON text of the definition', () => {
    expect(JSON.parse(jobPipelineAsl())).toEqual(jobPipelineDefinition());
  });
});
