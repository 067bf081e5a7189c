/**
 * A source's `steps` on POST /jobs (docs/api.md §3, §5): 1 to 16 `{ type, params? }`.
 * One closed object per step type, whose `params` are that type's schema in the
 * step catalogue, so an unknown type is a 400 listing the known ones and a bad
 * parameter is a 400 at `…steps[i].params.<field>`. A preflight profile must be
 * a built-in or one of the account's own (GET /profiles lists them): that needs the
 * store, so submission checks it (use-cases/create-job.ts, 400 profile_not_found).
 */
import { z } from 'zod';
import { STEP_TYPES, type StepType } from '../../domain/model';
import { STEP_CATALOGUE } from '../../../step-definitions/catalogue';
import { FIXES, findFix, fixParamsProblem, paramProblem } from '../../engine/profile-catalogue';

export const MAX_STEPS = 16;

function stepOf<T extends StepType>(type: T) {
  const spec = STEP_CATALOGUE[type];
  return z
    .strictObject({
      type: z.literal(type),
      params: spec.params.nullish(),
    })
    .meta({ description: spec.description });
}

/** One closed object per step type (the OpenAPI document names each). */
export const stepVariants = STEP_TYPES.map((type) => stepOf(type)) as unknown as [
  ReturnType<typeof stepOf<'preflight'>>,
  ...ReturnType<typeof stepOf<StepType>>[],
];

/** Refinement for fix ids (`autofix` items). */
export function checkFixIds(items: unknown, ctx: z.RefinementCtx, path: PropertyKey[]): void {
  if (!Array.isArray(items)) return;
  items.forEach((item, i) => {
    if (typeof item === 'string' && !FIXES.some((fix) => fix.id === item)) {
      ctx.addIssue({ code: 'custom', message: `unknown fix "${item}"; GET /profiles lists them`, path: [...path, i] });
    }
  });
}

/** Refinement for `fixParams`: known fixes, their known parameters, values of the right type and range, combinations the fix can apply. */
export function checkFixParams(fixParams: unknown, ctx: z.RefinementCtx, path: PropertyKey[]): void {
  if (!fixParams || typeof fixParams !== 'object') return;
  for (const [fixId, given] of Object.entries(fixParams as Record<string, unknown>)) {
    const info = findFix(fixId);
    if (!info) {
      ctx.addIssue({ code: 'custom', message: `unknown fix "${fixId}"; GET /profiles lists them`, path: [...path, fixId] });
      continue;
    }
    let valid = true;
    for (const [name, value] of Object.entries((given ?? {}) as Record<string, unknown>)) {
      const spec = info.params.find((p) => p.name === name);
      const known = info.params.map((p) => p.name).join(', ') || 'none';
      const problem = spec ? paramProblem(spec, value) : `${fixId} has no parameter "${name}" (it has: ${known})`;
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [...path, fixId, name] });
      valid &&= problem === null;
    }
    // Each value is fine on its own; the combination may not be (PDF/A-1 has no level u).
    const combination = valid ? fixParamsProblem(info, given) : null;
    if (combination) ctx.addIssue({ code: 'custom', message: combination, path: [...path, fixId] });
  }
}

export const stepRequest = z.discriminatedUnion('type', stepVariants).superRefine((step, ctx) => {
  const params = (step.params ?? {}) as Record<string, unknown>;
  if (step.type === 'autofix') {
    checkFixIds(params.items, ctx, ['params', 'items']);
    checkFixParams(params.fixParams, ctx, ['params', 'fixParams']);
  }
});

export const stepsRequest = z
  .array(stepRequest)
  .min(1)
  .max(MAX_STEPS)
  .meta({ description: `The steps to run on the file, in order (1 to ${MAX_STEPS}).` });

export type StepInput = z.infer<typeof stepRequest>;
