/**
 * GET /profiles (docs/api.md §5): what a client may ask for — the preflight
 * profiles with their checks and the fixes each recommends, the validate
 * profile codes, the fixes autofix can apply, and the step types with the file
 * types they accept and their parameter defaults. Static data of the engine and
 * the step catalogue; the response shape is documented in the OpenAPI document:
 *
 *   { profiles: [ { id, name, description, kind, source, fileTypes, checks: [ { id, severity, description, thresholds? } ], defaultFixes,
 *                   and for an account's own: base, version, changes, createdAt, updatedAt } ],
 *     thresholdSpecs: [ { check, name, type, unit, min?, max?, integer?, description } ],
 *     validateProfiles: [ { code, name, description, standard, coverage } ],
 *     fixes: [ { id, name, description, resolves, params, appearance, runsAfter, order } ],
 *     optimize: { accepts, options: [ { name, type, default, values?, min?, max?, description } ], fixIds },
 *     steps: [ { type, accepts, description, defaults } ] }
 *
 * `optimize` lists the optimize step's options (`params.pdf.*`, `params.raster.*`)
 * with their defaults (docs/api.md §11 rule 11), and the fix ids its results
 * name in `appliedFixes` and `skippedFixes`.
 *
 * The built-ins (`source: "store"`) come first, then the caller's account's own
 * profiles (`source: "account"`, account-profiles.ts) by id, each resolved against
 * its base, so `checks` is what a job with it runs. `thresholdSpecs` lists every
 * threshold a profile may set, with its unit and range (threshold-specs.ts).
 */
import {
  findPreflightProfile,
  FIXES,
  fixOrder,
  OPTIMIZE_FIX_IDS,
  OPTIMIZE_PARAMS,
  PREFLIGHT_PROFILES,
  VALIDATE_PROFILES,
  type FixInfo,
  type FixParamSpec,
  type OptimizeParamInfo,
} from '../../engine/profile-catalogue';
import type { PreflightProfileInfo } from '../../engine/preflight/profiles';
import { BUILT_IN_PROFILE_KIND, type CheckOverride } from '../../engine/preflight/account-profile';
import { THRESHOLD_SPECS, type ThresholdSpec } from '../../engine/preflight/threshold-specs';
import type { AccountProfileRecord } from '../model';
import { resolvedAccountProfile } from './account-profiles';
import { STEP_CATALOGUE } from '../../../step-definitions/catalogue';
import { STEP_TYPES, type FileType, type StepType } from '../model';

/** One preflight profile as GET /profiles lists it and GET /profiles/{id} answers it. */
export interface ListedProfile {
  id: string;
  name: string;
  description: string;
  /**
   * The kind of file the profile is for, as the clients written for the original service pick one
   * (docs/api.md §11 rule 10). Ours are print-PDF profiles that judge image files too (their image
   * checks): `pdf`, with both types in `fileTypes`.
   */
  kind: 'pdf' | 'raster';
  /** `store` for the built-ins; `account` for an account's own profiles. */
  source: 'store' | 'account';
  /** The file types the profile judges. */
  fileTypes: FileType[];
  checks: { id: string; severity: string; description: string; thresholds?: Record<string, number | string | boolean> }[];
  defaultFixes: string[];
  /** An account's own profile: the built-in it is made from, its version, what it changes, and when it was made and last changed. */
  base?: string;
  version?: number;
  changes?: Record<string, CheckOverride>;
  createdAt?: string;
  updatedAt?: string;
}

/** One threshold a profile may set (POST /profiles `checks.<check>.thresholds.<name>`). */
export type ListedThresholdSpec = { check: string; name: string } & ThresholdSpec;

export interface ProfilesListing {
  profiles: ListedProfile[];
  thresholdSpecs: ListedThresholdSpec[];
  validateProfiles: { code: string; name: string; description: string; standard: string; coverage: string }[];
  fixes: { id: string; name: string; description: string; resolves: string[]; params: FixParamSpec[]; appearance: FixInfo['appearance']; runsAfter: string[]; order: number }[];
  optimize: { accepts: FileType[]; options: OptimizeParamInfo[]; fixIds: string[] };
  steps: { type: StepType; accepts: FileType[]; description: string; defaults: Record<string, unknown> }[];
}

/** The listing with the account's own profiles after the built-ins. */
export function listProfiles(accountProfiles: readonly AccountProfileRecord[] = []): ProfilesListing {
  return {
    profiles: [...PREFLIGHT_PROFILES.map(listedProfile), ...accountProfiles.map(listedAccountProfile)],
    thresholdSpecs: Object.entries(THRESHOLD_SPECS).flatMap(([check, specs]) =>
      Object.entries(specs as Record<string, ThresholdSpec>).map(([name, spec]) => ({ check, name, ...spec })),
    ),
    validateProfiles: VALIDATE_PROFILES.map((v) => ({
      code: v.code,
      name: v.name,
      description: v.description,
      standard: v.standard,
      coverage: v.coverage,
    })),
    fixes: FIXES.map((f) => ({ id: f.id, name: f.name, description: f.description, resolves: [...f.resolves], params: f.params.map((p) => ({ ...p })),
      appearance: f.appearance,
      runsAfter: [...(f.runsAfter ?? [])],
      order: fixOrder(f.id),
    })),
    optimize: {
      accepts: [...STEP_CATALOGUE.optimize.accepts],
      options: OPTIMIZE_PARAMS.map((p) => ({ ...p, ...(p.values ? { values: [...p.values] } : {}) })),
      fixIds: [...OPTIMIZE_FIX_IDS],
    },
    steps: STEP_TYPES.map((type) => ({
      type,
      accepts: [...STEP_CATALOGUE[type].accepts],
      description: STEP_CATALOGUE[type].description,
      defaults: { ...STEP_CATALOGUE[type].defaults },
    })),
  };
}

function listedProfile(p: PreflightProfileInfo): ListedProfile {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    kind: BUILT_IN_PROFILE_KIND,
    source: 'store',
    fileTypes: [...STEP_CATALOGUE.preflight.accepts],
    checks: p.checks.map((c) => ({
      id: c.id,
      severity: c.severity,
      description: c.description,
      ...(c.thresholds ? { thresholds: c.thresholds } : {}),
    })),
    defaultFixes: [...p.defaultFixes],
  };
}

/** An account's own profile as listed: resolved against its base, with what it changes and its version. */
export function listedAccountProfile(record: AccountProfileRecord): ListedProfile {
  return {
    ...listedProfile(resolvedAccountProfile(record)),
    kind: record.kind,
    source: 'account',
    base: record.base,
    version: record.version,
    changes: record.checks,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** GET /profiles/{id}: a built-in profile, else the account's own (`accountProfile`, read by the caller), or null. */
export function getProfile(id: string, accountProfile: AccountProfileRecord | null = null): ListedProfile | null {
  const found = findPreflightProfile(id);
  if (found) return listedProfile(found);
  return accountProfile ? listedAccountProfile(accountProfile) : null;
}
