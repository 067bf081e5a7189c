/**
 * Questions workers ask of a job graph: which steps a task has, which came before
 * a step, and which file a step works on. The file a step sees is derived from
 * the steps that finished before it (the latest `fixed` or `optimized` output,
 * else the source)
 * rather than read from task.currentFile alone, so a worker that died between
 * finishing autofix and updating the task cannot make a later step check the
 * unfixed file; task.currentFile is kept in step with the same rule.
 */
import { replacesTaskFile, type JobGraph, type StepRecord, type StepType, type StoredArtifact, type TaskRecord } from '../domain/model';

export function findTask(graph: JobGraph, taskId: string): TaskRecord | undefined {
  return graph.tasks.find((t) => t.id === taskId);
}

/** The task's steps in index order. */
export function stepsOfTask(graph: JobGraph, taskId: string): StepRecord[] {
  return graph.steps.filter((s) => s.taskId === taskId).sort((a, b) => a.index - b.index);
}

/** The step by id; by position when the id is missing (lenient on a hand-made execution input). */
export function findStep(graph: JobGraph, taskId: string, ref: { stepId?: unknown; index?: unknown }): StepRecord | undefined {
  const steps = stepsOfTask(graph, taskId);
  return steps.find((s) => s.id === ref.stepId) ?? (typeof ref.stepId !== 'string' ? steps.find((s) => s.index === ref.index) : undefined);
}

export function precedingSteps(graph: JobGraph, step: StepRecord): StepRecord[] {
  return stepsOfTask(graph, step.taskId).filter((s) => s.index < step.index);
}

/** The latest step before this one, of one of these types, that finished. */
export function latestPrecedingDone(graph: JobGraph, step: StepRecord, types: readonly StepType[]): StepRecord | undefined {
  return precedingSteps(graph, step)
    .filter((s) => s.status === 'done' && types.includes(s.type))
    .at(-1);
}

const taskFileOutput = (s: StepRecord): StoredArtifact | undefined =>
  s.status === 'done' ? s.outputs.find(replacesTaskFile) : undefined;

/** The file as the given steps left it: the last fixed or optimized file among them (TASK_FILE_ROLES), else the source. */
export function fileAfterSteps(task: TaskRecord, steps: readonly StepRecord[]): StoredArtifact | null {
  for (let i = steps.length - 1; i >= 0; i--) {
    const file = taskFileOutput(steps[i]!);
    if (file) return file;
  }
  return task.originalArtifact ?? task.currentFile;
}

/** The file this step works on: as the steps before it left it. */
export function inputFileOf(graph: JobGraph, task: TaskRecord, step: StepRecord): StoredArtifact | null {
  return fileAfterSteps(task, precedingSteps(graph, step));
}

/** The task's file name as its customer knows it (the source's name). */
export function sourceFileName(task: TaskRecord): string {
  return task.originalArtifact?.fileName ?? task.name ?? 'file';
}
