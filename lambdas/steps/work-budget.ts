/**
 * A step's work inside its budget (step-budget.ts): an engine is given what is
 * left of the work time as its own limit, and work not done by the work
 * deadline ends the step with a sentence.
 */
import { UnprocessableFileError } from '../domain/errors';
import { seconds, within, type StepBudget } from './step-budget';

/** Below this much time an engine is not started: the step ends with a sentence instead. */
const MIN_ENGINE_MS = 1_000;

/**
 * An engine's time limit within the step: its own limit or what is left of the
 * step's work time, whichever is less; a sentence when nothing useful is left.
 */
export function engineTimeoutMs(budget: StepBudget, ownLimitMs: number, what: string): number {
  const left = budget.workLeftMs();
  if (left < MIN_ENGINE_MS) throw new UnprocessableFileError(`${what} could not start: the step had no time left for it of its ${seconds(budget.workMs)} s. Send the file again; if this happens again, split it into smaller files.`);
  return Math.min(ownLimitMs, left);
}

/**
 * Ends the step with a sentence when its work is not done by the work deadline.
 * The work itself is only abandoned here: what can be stopped (an engine
 * thread) must be given the time left (`budget.workLeftMs()`) as its own limit.
 */
export async function withinWorkBudget<T>(budget: StepBudget, work: Promise<T>, what: string): Promise<T> {
  const ended = await within(work, budget.workDeadline, budget.now);
  if (!ended.done) throw new UnprocessableFileError(`${what} did not finish within the ${seconds(budget.workMs)} s the step has for it. Simplify the file or split it into smaller files, and send it again.`);
  return ended.value;
}

