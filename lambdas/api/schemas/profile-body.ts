/**
 * The body of POST /profiles and PUT /profiles/{id} (an account's own preflight
 * profile, docs/api.md §11 rule 10): `{ id?, name, description?, kind, base,
 * checks?: { <checkId>: { severity?, thresholds? } }, recommendFixes? }`.
 *
 * Derived from the engine's data, so it accepts exactly what the engine can run:
 * one closed object per check of the check catalogue (check-catalogue.ts), whose
 * `thresholds` are that check's thresholds with their type, unit and range
 * (threshold-specs.ts); fixes from the fix catalogue. An unknown check, an unknown
 * threshold, a value out of range, a kind its base is not, a check turned on
 * without a value for one of its thresholds or an unknown fix is a 400 whose
 * `param` points at it: `checks["colour.tac"].thresholds.max_percent` (parsed with
 * formatQuotedParam, as check ids have dots).
 */
import { z } from 'zod';
import { CHECK_DESCRIPTIONS, type CheckId } from '../../engine/preflight/check-catalogue';
import { thresholdSpecsOf, type ThresholdSpec } from '../../engine/preflight/threshold-specs';
import { BUILT_IN_PROFILE_KIND, missingThresholds, type CheckSeverity, type ProfileDefinition } from '../../engine/preflight/account-profile';
import { findPreflightProfile, PREFLIGHT_PROFILES } from '../../engine/profile-catalogue';
import { checkFixIds } from './steps';
import type { ProfileInput } from '../../domain/use-cases/account-profiles';

/** Field lengths of a profile (docs/api.md §11 rule 10). */
export const PROFILE_LIMITS = { idLength: 64, nameLength: 100, descriptionLength: 1000, recommendFixes: 32 } as const;

/** A profile id: lower-case letters, digits and inner hyphens, as the built-ins' ids are. */
export const PROFILE_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

export const profileIdField = z
  .string()
  .max(PROFILE_LIMITS.idLength)
  .regex(PROFILE_ID_PATTERN, { error: 'must be lower-case letters, digits and hyphens, starting and ending with a letter or digit' })
  .meta({ description: `A slug unique in the account (at most ${PROFILE_LIMITS.idLength} characters), not a built-in profile's id. Default: made from the name.` });

const severity = z.enum(['error', 'warn', 'info', 'off']).meta({ description: 'The severity of the check in this profile; `off` does not run it.' });

function thresholdValue(spec: ThresholdSpec) {
  if (spec.type === 'boolean') return z.boolean({ error: 'must be true or false' }).meta({ description: spec.description });
  const range = `must be from ${spec.min} to ${spec.max} ${spec.unit}`;
  const number = z.number({ error: `must be a number of ${spec.unit}` });
  return (spec.integer ? number.int({ error: `must be a whole number of ${spec.unit}` }) : number)
    .min(spec.min, { error: range })
    .max(spec.max, { error: range })
    .meta({ description: `${spec.description} In ${spec.unit}, ${spec.min} to ${spec.max}.` });
}

/** A closed object whose unknown keys are refused with `message` (the quoted param points at the key), rather than zod's "unknown field". */
function closed<Shape extends z.ZodRawShape>(shape: Shape, message: string) {
  return z.object(shape).catchall(z.unknown().superRefine((_, ctx) => ctx.addIssue({ code: 'custom', message })));
}

function checkOverride(checkId: CheckId) {
  const specs = thresholdSpecsOf(checkId);
  const thresholds = specs
    ? closed(
        Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, thresholdValue(spec).optional()])),
        `is not a threshold of ${checkId} (it has: ${Object.keys(specs).join(', ')})`,
      )
    : z.never({ error: `${checkId} has no thresholds` });
  return z.strictObject({ severity: severity.optional(), thresholds: thresholds.optional() }).meta({ description: CHECK_DESCRIPTIONS[checkId] });
}

const checks = closed(
  Object.fromEntries((Object.keys(CHECK_DESCRIPTIONS) as CheckId[]).map((id) => [id, checkOverride(id).optional()])),
  'is not a preflight check; GET /profiles lists the checks of each profile',
).meta({ description: 'Changes to the base profile, by check id: its severity and any of its thresholds (GET /profiles lists each threshold with its unit and range).' });

const BUILT_IN_IDS = PREFLIGHT_PROFILES.map((p) => p.id) as [string, ...string[]];

const profileFields = {
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(PROFILE_LIMITS.nameLength),
  description: z.string().max(PROFILE_LIMITS.descriptionLength).optional(),
  kind: z.enum(['pdf', 'raster']).meta({ description: 'The kind of file the profile is for; the kind of its base (every built-in is `pdf`: it judges image files too).' }),
  base: z.enum(BUILT_IN_IDS).meta({ description: 'The built-in profile it is made from.' }),
  checks: checks.optional(),
  recommendFixes: z
    .array(z.string().min(1).max(64))
    .max(PROFILE_LIMITS.recommendFixes)
    .nullish()
    .meta({ description: "Fix ids autofix applies when neither the request nor the preceding preflight names any. Default: the base's." }),
};

type ParsedChecks = Record<string, { severity?: CheckSeverity | undefined; thresholds?: Record<string, number | boolean | undefined> | undefined } | undefined>;

/** The checks as a definition keeps them: without the keys the body left undefined. */
export function definedChecks(parsed: ParsedChecks | undefined): ProfileDefinition['checks'] {
  const out: ProfileDefinition['checks'] = {};
  for (const [id, entry] of Object.entries(parsed ?? {})) {
    if (!entry) continue;
    const thresholds = Object.fromEntries(Object.entries(entry.thresholds ?? {}).filter((e): e is [string, number | boolean] => e[1] !== undefined));
    out[id] = { ...(entry.severity ? { severity: entry.severity } : {}), ...(Object.keys(thresholds).length > 0 ? { thresholds } : {}) };
  }
  return out;
}

/** What no single field's schema can see: the id is not a built-in's, the kind is the base's, checks turned on have every threshold. */
function checkProfile(body: { id?: string | undefined; kind: string; base: string; checks?: ParsedChecks | undefined; recommendFixes?: string[] | null | undefined }, ctx: z.RefinementCtx): void {
  if (body.id !== undefined && findPreflightProfile(body.id)) {
    ctx.addIssue({ code: 'custom', message: `"${body.id}" is a built-in profile's id; choose another`, path: ['id'] });
  }
  if (body.kind !== BUILT_IN_PROFILE_KIND) {
    ctx.addIssue({ code: 'custom', message: `must be "${BUILT_IN_PROFILE_KIND}", the kind of the base profile "${body.base}" (every built-in profile is for PDFs and judges image files too)`, path: ['kind'] });
  }
  const base = findPreflightProfile(body.base);
  if (base) {
    for (const missing of missingThresholds({ checks: definedChecks(body.checks) }, base)) {
      ctx.addIssue({
        code: 'custom',
        message: `is required: the check is turned on and the base profile "${base.id}" has no value for it`,
        path: ['checks', missing.checkId, 'thresholds', missing.threshold],
      });
    }
  }
  checkFixIds(body.recommendFixes, ctx, ['recommendFixes']);
}

export const profileBody = z.strictObject({ id: profileIdField.optional(), ...profileFields }).superRefine(checkProfile);

export type ProfileBody = z.infer<typeof profileBody>;

/** The definition a parsed body gives, with the defaults of what it left out. */
export function profileInputOf(body: ProfileBody): ProfileInput {
  return {
    ...(body.id !== undefined ? { id: body.id } : {}),
    name: body.name,
    description: body.description ?? '',
    kind: body.kind,
    base: body.base,
    checks: definedChecks(body.checks),
    recommendFixes: body.recommendFixes ?? null,
  };
}

/** The `{id}` of /profiles/{id} when it could be a profile's id, else null (a 404, as for any unknown id). */
export function profileIdFromPath(pathParameters: Record<string, string | undefined> | null | undefined): string | null {
  const id = pathParameters?.id ?? '';
  return id.length <= PROFILE_LIMITS.idLength && PROFILE_ID_PATTERN.test(id) ? id : null;
}
