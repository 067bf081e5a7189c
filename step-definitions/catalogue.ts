/**
 * The step-type catalogue (docs/api.md §5): the one registry of what a step type is.
 * Each entry says which file types the step accepts, whether it is a check
 * (reaches a pass/warn/fail verdict), the worker that runs it (its Lambda's
 * entry, sizes and timeout, whether it writes files, whether it runs in its own
 * thread locally), its parameter schema and defaults, and how its result is
 * presented in a job's `results`. Everything else is derived from it:
 * STEP_TYPES (domain/model), isCheckStep (domain/outcomes), the worker table
 * (workers.ts), the job pipeline's routing and Task states (job-pipeline.ts),
 * the bucket grants (lib/constructs/pipeline.ts), the local runtime's threads
 * (local/worker-invoker.ts), GET /profiles and the OpenAPI document.
 */
import { z } from 'zod';
import type { FileType, Outcome, Status } from '../lambdas/domain/vocabulary';
import type {
  AutofixResultEntry,
  AutofixStepResult,
  DownloadLink,
  OptimizeResultEntry,
  OptimizeStepResult,
  PreflightResultEntry,
  PreflightStepResult,
  PreviewsResultEntry,
  PreviewsStepResult,
  ResultFile,
  ValidateResultEntry,
  ValidateStepResult,
} from '../lambdas/domain/step-results';
import { OPTIMIZE_DEFAULTS, optimizeParams } from '../lambdas/engine/optimize/params';
import { worker, type WorkerSpec } from './worker-spec';

export const VALIDATE_PROFILE_CODES = ['auto', '1a', '1b', '2a', '2b', '2u', '3a', '3b', '3u', '4', '4e', '4f', 'ua1', 'ua2'] as const;
export type ValidateProfileCode = (typeof VALIDATE_PROFILE_CODES)[number];

/** `pages` selections like "1-3,7". */
export const PAGE_RANGES_RE = /^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/;

// params are open objects (the contract lets clients send fields we do not use),
// but the fields we do use are checked so a typo in a value is a 400, not a surprise.
const preflightParams = z.looseObject({
  profileId: z.string().min(1).max(64).optional(),
});
/** Parameters per fix id, e.g. { "images.downsample": { "ppi": 300 } } (GET /profiles lists each fix's). */
export const fixParamsSchema = z.record(z.string().min(1).max(64), z.record(z.string().min(1).max(64), z.union([z.number(), z.boolean(), z.string().max(256)])));
const autofixParams = z.looseObject({
  items: z.array(z.string().min(1).max(64)).max(64).optional(),
  profileId: z.string().min(1).max(64).optional(),
  fixParams: fixParamsSchema.optional(),
});
const validateParams = z.looseObject({
  profile: z.union([z.enum(VALIDATE_PROFILE_CODES), z.array(z.enum(VALIDATE_PROFILE_CODES)).min(1).max(14)]).optional(),
});
const previewsParams = z.looseObject({
  format: z.enum(['png', 'jpeg', 'webp']).optional(),
  dpi: z.number().positive().max(600).optional(),
  width: z.number().int().positive().max(10000).optional(),
  height: z.number().int().positive().max(10000).optional(),
  pages: z.string().regex(PAGE_RANGES_RE, 'pages must look like "1-3,7"').optional(),
  quality: z.number().int().min(1).max(100).optional(),
  background: z.string().max(32).optional(),
  thumbnail: z.boolean().optional(),
});

/** The fields of a step record a result presenter reads. */
export interface PresentedStep {
  id: string;
  taskId: string;
  type: string;
  status: Status;
  outcome: Outcome | null;
  /** The files the step stored. */
  outputs: readonly ResultFile[];
}

/** What a presenter may ask of the response it is part of: a presigned download of a stored file (read responses only). */
export interface ResultLinks {
  link(file: ResultFile): Promise<DownloadLink>;
}

/**
 * How a step's result appears in a job's `results` (docs/api.md §4): under `key`, one
 * `entry` per step that ran. `result` is the step's stored result, null when it
 * failed or its result could not be read.
 */
export interface ResultPresenter<Key extends string = string, Entry = unknown> {
  key: Key;
  entry(step: PresentedStep, result: unknown, links: ResultLinks): Entry | Promise<Entry>;
}

export interface StepTypeSpec {
  accepts: readonly FileType[];
  /** Runs the step; several step types may share one (preflight and repreflight). */
  worker: WorkerSpec;
  /** The step reaches a verdict (pass/warn/fail) that counts towards the task's outcome. */
  check: boolean;
  params: z.ZodType<Record<string, unknown>>;
  defaults: Record<string, unknown>;
  description: string;
  results: ResultPresenter;
}

/** Checks each entry against StepTypeSpec while keeping its literal types (worker ids, result keys), from which StepType, StepWorkerId and JobResults are derived. */
const catalogue = <const T extends Record<string, StepTypeSpec>>(entries: T): T => entries;

// Step workers: the heavy ones, each in its own thread locally, all writing files.
// Preflight renders proof images of its findings (PDFium; pdfjs on @napi-rs/canvas as the fallback), like previews.
const preflightWorker = worker({ id: 'preflight', key: 'Preflight', stateNames: ['Preflight'], entry: 'lambdas/steps/preflight.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048, nativeModules: ['sharp', '@napi-rs/canvas'], assets: ['pdfjs', 'pdfium'], writesFiles: true, threaded: true });
// images.downsample decodes and re-encodes images with sharp.
const autofixWorker = worker({ id: 'autofix', key: 'Autofix', stateNames: ['Autofix'], entry: 'lambdas/steps/autofix.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048, nativeModules: ['sharp'], writesFiles: true, threaded: true });
const validateWorker = worker({ id: 'validate', key: 'Validate', stateNames: ['Validate'], entry: 'lambdas/steps/validate.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048, writesFiles: true, threaded: true });
// Three states invoke it: the step itself, which plans batches for many pages, each batch, and the finish.
// Downsamples images (sharp) and rewrites PDFs or raster files; sized like autofix.
const optimizeWorker = worker({ id: 'optimize', key: 'Optimize', stateNames: ['Optimize'], entry: 'lambdas/steps/optimize.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048, nativeModules: ['sharp'], writesFiles: true, threaded: true });
const previewsWorker = worker({ id: 'previews', key: 'Previews', stateNames: ['Previews', 'RenderPreviewBatch', 'FinishPreviews'], entry: 'lambdas/steps/previews.ts', memoryMb: 3008, timeoutSeconds: 900, ephemeralStorageMb: 2048, nativeModules: ['sharp', '@napi-rs/canvas'], assets: ['pdfjs', 'pdfium'], writesFiles: true, threaded: true });

const preflightResults: ResultPresenter<'preflight', PreflightResultEntry> = {
  key: 'preflight',
  entry: (step, result) => ({
    taskId: step.taskId,
    stepId: step.id,
    // Only preflight and repreflight present through this entry.
    stepType: step.type as PreflightResultEntry['stepType'],
    status: step.status,
    outcome: step.outcome,
    report: (result as PreflightStepResult | null) ?? null,
  }),
};

export const STEP_CATALOGUE = catalogue({
  preflight: {
    accepts: ['pdf', 'raster'],
    worker: preflightWorker,
    check: true,
    params: preflightParams,
    defaults: { profileId: 'default' },
    description: 'Checks the file against a preflight profile (params.profileId).',
    results: preflightResults,
  },
  autofix: {
    accepts: ['pdf'],
    worker: autofixWorker,
    check: false,
    params: autofixParams,
    defaults: {},
    description:
      'Applies fixes: params.items once, as asked; else the fixes the preceding preflight recommends, checking the result again with the same profile and applying what is then recommended, up to 3 rounds. params.fixParams per fix id.',
    results: {
      key: 'autofix',
      entry: (step, result): AutofixResultEntry => {
        const r = result as AutofixStepResult | null;
        const applied = r?.applied ?? [];
        const skipped = r?.skipped ?? [];
        // A result stored before autofix worked in rounds was one round.
        return { taskId: step.taskId, applied, skipped, rounds: r?.rounds ?? (r ? [{ applied, skipped }] : []) };
      },
    },
  },
  repreflight: {
    accepts: ['pdf', 'raster'],
    worker: preflightWorker,
    check: true,
    params: preflightParams,
    defaults: {},
    description: 'Preflights the current file again with the profile of the preceding preflight.',
    results: preflightResults,
  },
  validate: {
    accepts: ['pdf'],
    worker: validateWorker,
    check: true,
    params: validateParams,
    defaults: { profile: 'auto' },
    description: 'Checks conformance with PDF/A or PDF/UA (params.profile).',
    results: {
      key: 'validate',
      entry: (step, result): ValidateResultEntry => {
        const r = result as ValidateStepResult | null;
        return { taskId: step.taskId, status: step.status, outcome: step.outcome, compliant: r?.compliant === true, profiles: r?.profiles ?? [] };
      },
    },
  },
  previews: {
    accepts: ['pdf', 'raster'],
    worker: previewsWorker,
    check: false,
    params: previewsParams,
    defaults: { format: 'jpeg', dpi: 72, thumbnail: true },
    description: 'Renders page images (params: format, dpi or width/height, pages, quality, background, thumbnail).',
    results: {
      key: 'previews',
      entry: (step, result): PreviewsResultEntry => {
        const r = result as PreviewsStepResult | null;
        return { taskId: step.taskId, pages: typeof r?.pages === 'number' ? r.pages : 0 };
      },
    },
  },
  optimize: {
    accepts: ['pdf', 'raster'],
    worker: optimizeWorker,
    check: false,
    params: optimizeParams,
    defaults: OPTIMIZE_DEFAULTS,
    description: 'Makes the file smaller without a visible change (params.pdf, params.raster; GET /profiles lists the options under optimize). Outcome fixed when it got smaller, else unchanged.',
    results: {
      key: 'optimize',
      entry: async (step, result, links): Promise<OptimizeResultEntry> => {
        const r = result as OptimizeStepResult | null;
        const file = step.outputs.find((o) => o.role === 'optimized');
        if (!r?.changed || !file) return { output: null };
        return {
          output: {
            bucket: file.bucket,
            key: file.key,
            sizeBytes: file.sizeBytes,
            sizeBytesBefore: r.sizeBytesBefore,
            ...(await links.link(file)),
            appliedFixes: r.appliedFixes,
            skippedFixes: r.skippedFixes,
          },
        };
      },
    },
  },
});

export type StepType = keyof typeof STEP_CATALOGUE;
/** The step types, in catalogue order; typed non-empty, as z.enum wants. */
export const STEP_TYPES = Object.keys(STEP_CATALOGUE) as readonly StepType[] as readonly [StepType, ...StepType[]];

/** The id of a worker that runs step types (WORKERS' key). */
export type StepWorkerId = (typeof STEP_CATALOGUE)[StepType]['worker']['id'];

/** The step workers, each once, in catalogue order. */
export function stepWorkers(): WorkerSpec<StepWorkerId>[] {
  const byId = new Map<string, WorkerSpec<StepWorkerId>>();
  for (const spec of Object.values(STEP_CATALOGUE)) if (!byId.has(spec.worker.id)) byId.set(spec.worker.id, spec.worker);
  return [...byId.values()];
}

/** The step types a worker runs, in catalogue order. */
export const stepTypesOf = (workerId: string): StepType[] => STEP_TYPES.filter((type) => STEP_CATALOGUE[type].worker.id === workerId);

export function acceptsFileType(type: StepType, fileType: FileType): boolean {
  return (STEP_CATALOGUE[type].accepts as readonly FileType[]).includes(fileType);
}

/** The reason recorded on a step skipped for its file type. */
export function skipReason(type: StepType, fileType: FileType): string {
  const accepts = STEP_CATALOGUE[type].accepts.join(', ');
  return `The ${type} step does not accept ${fileType} files (it accepts: ${accepts}).`;
}
