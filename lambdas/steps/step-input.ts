/**
 * The file a step works on, as the steps before it left it. A worker decides
 * how to read it: most download it into the scratch dir (`local()`), since
 * their engines read every page; the previews worker reads it in ranges
 * (`read`), since pages 1–3 of a 500 MB file need a few MB of it, and
 * downloading the rest would take most of the step's time.
 */
import { join } from 'node:path';
import type { JobGraph, StoredArtifact, TaskRecord, StepRecord } from '../domain/model';
import type { Services } from '../domain/ports';
import { keyExtension } from '../domain/blob-keys';
import { inputFileOf } from './task-graph';
import { withinWorkBudget } from './work-budget';
import { replacedUpload } from './source-retrieval';
import type { StepBudget } from './step-budget';

export interface StepInputFile {
  /** Its size in bytes. */
  readonly size: number;
  /** The file in the scratch dir: downloaded on the first call (within the step's work budget), the same path after. */
  local(): Promise<string>;
  /** Up to `length` bytes from `offset`, read from storage without downloading the file. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** The step's input file, as stored, and the means to read it. Nothing is downloaded yet. */
export function stepInput(
  s: Services,
  graph: JobGraph,
  task: TaskRecord,
  step: StepRecord,
  workDir: string,
  budget?: StepBudget,
): { inputFile: StoredArtifact; input: StepInputFile } {
  const inputFile = inputFileOf(graph, task, step);
  if (!inputFile) throw new Error(`task ${task.id} has no ingested source`);
  // The working file's name is ours too: only a short alphanumeric extension comes from the customer's name.
  const path = join(workDir, `input${keyExtension(inputFile.fileName)}`);
  // A shared upload posted again since the task took it is another file: refuse it, once per step.
  let checked: Promise<void> | undefined;
  const unchanged = (): Promise<void> =>
    (checked ??= (async () => {
      if (!inputFile.etag) return;
      const head = await s.blobs.head(inputFile.key);
      if (head?.etag && head.etag !== inputFile.etag) throw replacedUpload(task.fileRef ?? 'of this task');
    })());
  let downloaded: Promise<string> | undefined;
  const download = async (): Promise<string> => {
    await unchanged();
    const done = s.blobs.downloadToFile(inputFile.key, path);
    if (budget) await withinWorkBudget(budget, done, 'Reading the file from storage');
    else await done;
    return path;
  };
  return {
    inputFile,
    input: {
      size: inputFile.sizeBytes,
      local: () => (downloaded ??= download()),
      read: async (offset, length) => {
        if (length <= 0) return new Uint8Array(0);
        await unchanged();
        return s.blobs.readRange(inputFile.key, offset, offset + length - 1);
      },
    },
  };
}
