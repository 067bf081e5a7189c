/**
 * An account's own preflight profile (POST /profiles): a built-in profile (its
 * `base`) with some checks' severity and thresholds changed, and optionally its
 * own recommended fixes. `resolveAccountProfile` turns that definition into the
 * full profile the engine runs, the same shape as a built-in.
 *
 * Rules of the merge:
 * - a check the definition does not name is run exactly as the base runs it;
 * - a named check takes the definition's severity, if given, and its thresholds
 *   laid over the base's (a threshold not given keeps the base's value);
 * - a check the base has off may be turned on, but every threshold it is judged
 *   with must then have a value: from the base (some built-ins keep values for
 *   checks they have off) or from the definition. There is no guessing from
 *   another profile: `missingThresholds` names what is missing, and the request
 *   is refused with it (a 400 at submission of the profile, never at a job).
 *
 * Pure and import-free apart from types, like the rest of the catalogue.
 */
import type { CheckSpec } from './check-catalogue';
import type { PreflightProfileInfo } from './profiles';
import { thresholdSpecsOf } from './threshold-specs';

export type ProfileKind = 'pdf' | 'raster';

/**
 * Every built-in profile is for PDFs (`kind: "pdf"`), and judges image files with its image
 * checks as well. An account profile has its base's kind; there is no raster base to build on.
 */
export const BUILT_IN_PROFILE_KIND: ProfileKind = 'pdf';

export type CheckSeverity = CheckSpec['severity'];

/** What a definition changes about one check. */
export interface CheckOverride {
  severity?: CheckSeverity;
  thresholds?: Record<string, number | boolean>;
}

/** An account profile as its owner wrote it (the store keeps this, with its version). */
export interface ProfileDefinition {
  id: string;
  name: string;
  description: string;
  kind: ProfileKind;
  /** The id of the built-in profile it is made from. */
  base: string;
  /** By check id. */
  checks: Record<string, CheckOverride>;
  /** The fixes autofix applies when neither the request nor a preflight names any; null keeps the base's. */
  recommendFixes: string[] | null;
}

/** A threshold a definition turns on without a value for it, anywhere. */
export interface MissingThreshold {
  checkId: string;
  threshold: string;
}

/** The thresholds of checks the definition turns on that neither it nor the base gives a value for. */
export function missingThresholds(definition: Pick<ProfileDefinition, 'checks'>, base: PreflightProfileInfo): MissingThreshold[] {
  const missing: MissingThreshold[] = [];
  for (const [checkId, override] of Object.entries(definition.checks)) {
    const specs = thresholdSpecsOf(checkId);
    const inBase = base.checks.find((c) => c.id === checkId);
    if (!specs || !inBase) continue;
    const severity = override.severity ?? inBase.severity;
    if (severity === 'off') continue;
    for (const threshold of Object.keys(specs)) {
      if (override.thresholds?.[threshold] === undefined && inBase.thresholds?.[threshold] === undefined) missing.push({ checkId, threshold });
    }
  }
  return missing;
}

/** The full profile the engine runs: the base's checks with the definition's changes, in the base's (catalogue) order. */
export function resolveAccountProfile(definition: ProfileDefinition, base: PreflightProfileInfo, version: number): PreflightProfileInfo {
  const missing = missingThresholds(definition, base);
  if (missing.length > 0) {
    const list = missing.map((m) => `${m.checkId} ${m.threshold}`).join(', ');
    throw new Error(`profile ${definition.id}: turned on without a value for ${list}`);
  }
  const checks = base.checks.map((check): CheckSpec => {
    const override = definition.checks[check.id];
    if (!override) return { ...check, ...(check.thresholds ? { thresholds: { ...check.thresholds } } : {}) };
    const thresholds = check.thresholds || override.thresholds ? { ...check.thresholds, ...override.thresholds } : undefined;
    return { ...check, severity: override.severity ?? check.severity, ...(thresholds ? { thresholds } : {}) };
  });
  return {
    id: definition.id,
    name: definition.name,
    description: definition.description,
    checks,
    defaultFixes: [...(definition.recommendFixes ?? base.defaultFixes)],
    base: base.id,
    version,
  };
}
