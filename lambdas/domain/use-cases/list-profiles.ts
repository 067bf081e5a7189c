/**
 * GET /profiles (docs/api.md §5): what a client may ask for — the preflight
 * profiles with their checks and the fixes each recommends, the validate
 * profile codes, the fixes autofix can apply, and the step types with the file
 * types they accept and their parameter defaults. Static data of the engine and
 * the step catalogue; the response shape is documented in the OpenAPI document:
 *
 *   { profiles: [ { id, name, description, kind, source, fileTypes, checks: [ { id, severity, description, thresholds? } ], defaultFixes } ],
 *     validateProfiles: [ { code, name, description, standard, coverage } ],
 *     fixes: [ { id, name, description, resolves, params, appearance } ],
 *     optimize: { accepts, options: [ { name, type, default, values?, min?, max?, description } ], fixIds },
 *     steps: [ { type, accepts, description, defaults } ] }
 *
 * `optimize` lists the optimize step's options (`params.pdf.*`, `params.raster.*`)
 * with their defaults (docs/api.md §11 rule 11), and the fix ids its results
 * name in `appliedFixes` and `skippedFixes`.
 */
import {
  findPreflightProfile,
  FIXES,
  OPTIMIZE_FIX_IDS,
  OPTIMIZE_PARAMS,
  PREFLIGHT_PROFILES,
  VALIDATE_PROFILES,
  type FixInfo,
  type FixParamSpec,
  type OptimizeParamInfo,
} from '../../engine/profile-catalogue';
import type { PreflightProfileInfo } from '../../engine/preflight/profiles';
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
  /** `store` for the built-ins; `account` is kept for an account's own profiles. */
  source: 'store' | 'account';
  /** The file types the profile judges. */
  fileTypes: FileType[];
  checks: { id: string; severity: string; description: string; thresholds?: Record<string, number | string | boolean> }[];
  defaultFixes: string[];
}

export interface ProfilesListing {
  profiles: ListedProfile[];
  validateProfiles: { code: string; name: string; description: string; standard: string; coverage: string }[];
  fixes: { id: string; name: string; description: string; resolves: string[]; params: FixParamSpec[]; appearance: FixInfo['appearance'] }[];
  optimize: { accepts: FileType[]; options: OptimizeParamInfo[]; fixIds: string[] };
  steps: { type: StepType; accepts: FileType[]; description: string; defaults: Record<string, unknown> }[];
}

export function listProfiles(): ProfilesListing {
  return {
    profiles: PREFLIGHT_PROFILES.map(listedProfile),
    validateProfiles: VALIDATE_PROFILES.map((v) => ({
      code: v.code,
      name: v.name,
      description: v.description,
      standard: v.standard,
      coverage: v.coverage,
    })),
    fixes: FIXES.map((f) => ({ id: f.id, name: f.name, description: f.description, resolves: [...f.resolves], params: f.params.map((p) => ({ ...p })), appearance: f.appearance })),
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
    kind: 'pdf',
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

/** GET /profiles/{id}: one preflight profile, or null for an id no profile has. */
export function getProfile(id: string): ListedProfile | null {
  const found = findPreflightProfile(id);
  return found ? listedProfile(found) : null;
}
