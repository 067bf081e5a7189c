/**
 * Reading a step's params leniently and resolving what earlier steps decided.
 * Submission validated params against the catalogue, but records outlive
 * deployments, so a value of the wrong shape falls back to the default instead of
 * failing a customer's job.
 */
import type { JobGraph, StepRecord } from '../domain/model';
import type { BlobStore } from '../domain/ports';
import { VALIDATE_PROFILE_CODES, type ValidateProfileCode } from '../../step-definitions/catalogue';
import { latestPrecedingDone } from './task-graph';
import { loadStepResult } from '../domain/load-step-result';
import type { PreflightReportLike } from '../domain/step-results';
import type { PreflightProfileInfo } from '../engine/preflight/profiles';
import { optimizeParams, type OptimizeParams } from '../engine/optimize/params';

export const DEFAULT_PROFILE_ID = 'default';

const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The latest preflight or repreflight before this step that finished. */
export function precedingPreflight(graph: JobGraph, step: StepRecord): StepRecord | undefined {
  return latestPrecedingDone(graph, step, ['preflight', 'repreflight']);
}

/**
 * The preflight profile a step applies: its own `params.profileId`, else the one
 * the latest preceding preflight applied (so `repreflight` and `autofix` use the
 * profile the file was checked against), else `default`. A built-in profile is
 * its id; an account's own is the definition resolved at submission and kept on
 * the step that named it (StepRecord.profile), so a later version of it never
 * reaches this job.
 */
export function resolveProfile(graph: JobGraph, step: StepRecord): string | PreflightProfileInfo {
  if (nonEmptyString(step.params?.profileId)) return step.profile ?? step.params.profileId;
  const earlier = precedingPreflight(graph, step);
  const applied = earlier?.runtimeParams?.profileId;
  if (!earlier || !nonEmptyString(applied)) return DEFAULT_PROFILE_ID;
  // What the earlier step recorded it applied; an account profile's definition is on the step
  // that named it, which the earlier one found the same way.
  const earlierProfile = resolveProfile(graph, earlier);
  return profileIdOf(earlierProfile) === applied ? earlierProfile : applied;
}

/** The id of a profile as resolveProfile gives it. */
export const profileIdOf = (profile: string | PreflightProfileInfo): string => (typeof profile === 'string' ? profile : profile.id);

/** `params.items` when it is a list of fix ids; null means "not given" (the engine then chooses). */
export function fixItems(step: StepRecord): string[] | null {
  const items = step.params?.items;
  return Array.isArray(items) ? items.filter(nonEmptyString) : null;
}

/** `params.fixParams` (parameters per fix id) when it is an object; the engine checks each value. */
export function fixParamsOf(step: StepRecord): Record<string, unknown> | null {
  const v = step.params?.fixParams;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The fixes the latest preceding preflight recommended, or null when none ran. */
export async function recommendedFixes(blobs: BlobStore, graph: JobGraph, step: StepRecord): Promise<string[] | null> {
  const earlier = precedingPreflight(graph, step);
  if (!earlier) return null;
  const report = (await loadStepResult(blobs, earlier)) as Partial<PreflightReportLike> | null;
  return Array.isArray(report?.recommendedFixes) ? report.recommendedFixes.filter(nonEmptyString) : null;
}

const isProfileCode = (v: unknown): v is ValidateProfileCode => (VALIDATE_PROFILE_CODES as readonly unknown[]).includes(v);

/** `params.profile` as a list of codes: a code or an array of codes; default `auto`; duplicates dropped. */
export function validateProfiles(step: StepRecord): ValidateProfileCode[] {
  const raw = step.params?.profile;
  const list = (Array.isArray(raw) ? raw : [raw]).filter(isProfileCode);
  return list.length > 0 ? [...new Set(list)] : ['auto'];
}

/** `params` of an optimize step when they have the shape submission checked, else the defaults (`{}`). */
export function optimizeParamsOf(step: StepRecord): OptimizeParams {
  const parsed = optimizeParams.safeParse(step.params ?? {});
  return parsed.success ? parsed.data : {};
}
