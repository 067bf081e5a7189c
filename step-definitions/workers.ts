/**
 * The functions the state machines invoke: one per step type plus ingest, the
 * failure recorder, the finaliser and the webhook caller. CDK builds one Lambda
 * from each entry with these sizes; the local runtime runs the same entries for
 * the state names listed here (aws-local-stepfunctions keys handlers by state
 * name); the ASL refers to each as `${<Key>FunctionArn}` (see ASL_PLACEHOLDER).
 */
export interface WorkerSpec {
  /** ASL placeholder stem: `${IngestFunctionArn}`. */
  key: string;
  /** The Task states of the ASL documents that invoke this function. */
  stateNames: readonly string[];
  /** Module exporting `handler`, relative to the repository root. */
  entry: string;
  memoryMb: number;
  /** Lambda timeout; the ASL Task's TimeoutSeconds is this plus a margin. */
  timeoutSeconds: number;
  /** /tmp size: files are streamed through it, never held twice in memory. */
  ephemeralStorageMb: number;
  /** Native modules whose binaries must ship for the function's architecture. */
  nativeModules: readonly string[];
  /** Run-time data files a library reads from disk (pdfjs fonts, CMaps, wasm). */
  assets: readonly 'pdfjs'[];
}

const worker = (w: Omit<WorkerSpec, 'nativeModules' | 'assets'> & Partial<WorkerSpec>): WorkerSpec => ({
  nativeModules: [],
  assets: [],
  ...w,
});

export const WORKERS = {
  ingest: worker({ key: 'Ingest', stateNames: ['Ingest'], entry: 'lambdas/steps/ingest.ts', memoryMb: 1024, timeoutSeconds: 300, ephemeralStorageMb: 1536 }),
  // Preflight renders proof images of its findings (pdfjs on @napi-rs/canvas), like previews.
  preflight: worker({ key: 'Preflight', stateNames: ['Preflight'], entry: 'lambdas/steps/preflight.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048, nativeModules: ['sharp', '@napi-rs/canvas'], assets: ['pdfjs'] }),
  // images.downsample decodes and re-encodes images with sharp.
  autofix: worker({ key: 'Autofix', stateNames: ['Autofix'], entry: 'lambdas/steps/autofix.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048, nativeModules: ['sharp'] }),
  validate: worker({ key: 'Validate', stateNames: ['Validate'], entry: 'lambdas/steps/validate.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048 }),
  previews: worker({ key: 'Previews', stateNames: ['Previews', 'RenderPreviewBatch', 'FinishPreviews'], entry: 'lambdas/steps/previews.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048, nativeModules: ['sharp', '@napi-rs/canvas'], assets: ['pdfjs'] }),
  recordFailure: worker({ key: 'RecordFailure', stateNames: ['IngestFailed', 'StepFailed'], entry: 'lambdas/steps/record-failure.ts', memoryMb: 512, timeoutSeconds: 30, ephemeralStorageMb: 512 }),
  finalise: worker({ key: 'Finalise', stateNames: ['Finalise'], entry: 'lambdas/steps/finalise.ts', memoryMb: 1024, timeoutSeconds: 60, ephemeralStorageMb: 512 }),
  webhookCaller: worker({ key: 'WebhookCaller', stateNames: ['Deliver'], entry: 'lambdas/webhooks/caller.ts', memoryMb: 512, timeoutSeconds: 60, ephemeralStorageMb: 512 }),
} as const satisfies Record<string, WorkerSpec>;

export type WorkerId = keyof typeof WORKERS;

export const ASL_PLACEHOLDER = (w: WorkerSpec): string => `${w.key}FunctionArn`;

/** Seconds a Task state waits for its function beyond the function's own timeout. */
export const TASK_TIMEOUT_MARGIN_SECONDS = 30;
