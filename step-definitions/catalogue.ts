/**
 * The step-type catalogue (API.md §5): which file types each step accepts, the
 * worker that runs it, its parameter schema and defaults. Submission validates
 * `params` against it; the step runner skips a step whose type does not accept
 * the detected file type; GET /profiles and the OpenAPI document describe it.
 */
import { z } from 'zod';
import type { FileType, StepType } from '../lambdas/domain/model';

export type WorkerName = 'preflight' | 'autofix' | 'validate' | 'previews';

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

export interface StepTypeSpec {
  type: StepType;
  accepts: readonly FileType[];
  worker: WorkerName;
  /** Preflight, repreflight and validate produce a verdict (pass/warn/fail). */
  check: boolean;
  params: z.ZodType<Record<string, unknown>>;
  defaults: Record<string, unknown>;
  description: string;
}

export const STEP_CATALOGUE: Record<StepType, StepTypeSpec> = {
  preflight: {
    type: 'preflight',
    accepts: ['pdf', 'raster'],
    worker: 'preflight',
    check: true,
    params: preflightParams,
    defaults: { profileId: 'default' },
    description: 'Checks the file against a preflight profile (params.profileId).',
  },
  autofix: {
    type: 'autofix',
    accepts: ['pdf'],
    worker: 'autofix',
    check: false,
    params: autofixParams,
    defaults: {},
    description: 'Applies fixes (params.items; default: the fixes the preceding preflight recommends), with params.fixParams per fix id.',
  },
  repreflight: {
    type: 'repreflight',
    accepts: ['pdf', 'raster'],
    worker: 'preflight',
    check: true,
    params: preflightParams,
    defaults: {},
    description: 'Preflights the current file again with the profile of the preceding preflight.',
  },
  validate: {
    type: 'validate',
    accepts: ['pdf'],
    worker: 'validate',
    check: true,
    params: validateParams,
    defaults: { profile: 'auto' },
    description: 'Checks conformance with PDF/A or PDF/UA (params.profile).',
  },
  previews: {
    type: 'previews',
    accepts: ['pdf', 'raster'],
    worker: 'previews',
    check: false,
    params: previewsParams,
    defaults: { format: 'jpeg', dpi: 72, thumbnail: true },
    description: 'Renders page images (params: format, dpi or width/height, pages, quality, background, thumbnail).',
  },
};

export function acceptsFileType(type: StepType, fileType: FileType): boolean {
  return STEP_CATALOGUE[type].accepts.includes(fileType);
}

/** The reason recorded on a step skipped for its file type. */
export function skipReason(type: StepType, fileType: FileType): string {
  const accepts = STEP_CATALOGUE[type].accepts.join(', ');
  return `The ${type} step does not accept ${fileType} files (it accepts: ${accepts}).`;
}
