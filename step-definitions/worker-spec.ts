/**
 * What a worker is: one Lambda that a state machine's Task states invoke. CDK
 * builds one function from each spec with these sizes; the local runtime runs
 * the same entry for the Task states named here (aws-local-stepfunctions keys
 * handlers by state name); an ASL document refers to the function as
 * `${<key>FunctionArn}` (ASL_PLACEHOLDER), which deployment and the local
 * runtime fill in.
 */

export interface WorkerSpec<Id extends string = string> {
  /** How code names the worker (WORKERS' key, the local runtime's invoker). */
  id: Id;
  /** ASL placeholder stem: `${IngestFunctionArn}`; also the stem of its CDK construct id. */
  key: string;
  /** The Task states of the ASL documents that invoke this function. */
  stateNames: readonly string[];
  /** Module exporting `handler`, relative to the repository root. */
  entry: string;
  memoryMb: number;
  /** Lambda timeout; the ASL Task's TimeoutSeconds is this plus TASK_TIMEOUT_MARGIN_SECONDS. */
  timeoutSeconds: number;
  /** /tmp size: files are streamed through it, never held twice in memory. */
  ephemeralStorageMb: number;
  /** Native modules whose binaries must ship for the function's architecture. */
  nativeModules: readonly string[];
  /** Run-time data files a library reads from disk (pdfjs fonts, CMaps, wasm; PDFium's wasm and licences). */
  assets: readonly ('pdfjs' | 'pdfium')[];
  /** Writes files to the bucket (sources, fixed PDFs, reports, images); otherwise it may only read them. */
  writesFiles: boolean;
  /**
   * The local runtime runs it in a worker-pool thread, isolated as a separate
   * Lambda would be. The others run in the main thread, where the local event
   * bus and scheduler they publish to live.
   */
  threaded: boolean;
}

type Defaulted = 'nativeModules' | 'assets' | 'writesFiles' | 'threaded';

/** A spec with the defaults filled in: no native modules or assets, reads files only, main thread. */
export const worker = <const Id extends string>(w: Omit<WorkerSpec<Id>, Defaulted> & Partial<Pick<WorkerSpec<Id>, Defaulted>>): WorkerSpec<Id> => ({
  nativeModules: [],
  assets: [],
  writesFiles: false,
  threaded: false,
  ...w,
});

export const ASL_PLACEHOLDER = (w: Pick<WorkerSpec, 'key'>): string => `${w.key}FunctionArn`;

/** Seconds a Task state waits for its function beyond the function's own timeout. */
export const TASK_TIMEOUT_MARGIN_SECONDS = 30;

/** The TimeoutSeconds of a Task state that invokes this worker. */
export const taskTimeoutSeconds = (w: Pick<WorkerSpec, 'timeoutSeconds'>): number => w.timeoutSeconds + TASK_TIMEOUT_MARGIN_SECONDS;
