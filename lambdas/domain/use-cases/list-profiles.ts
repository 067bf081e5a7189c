/**
 * GET /profiles (docs/api.md §5): what a client may ask for — the preflight
 * profiles with their checks and the fixes each recommends, the validate
 * profile codes, the fixes autofix can apply, and the step types with the file
 * types they accept and their parameter defaults. Static data of the engine and
 * the step catalogue; the response shape is documented in the OpenAPI document:
 *
 *   { profiles: [ { id, name, description, checks: [ { id, severity, description, thresholds? } ], defaultFixes } ],
 *     validateProfiles: [ { code, name, description, standard, coverage } ],
 *     fixes: [ { id, name, description, resolves, params, appearance } ],
 *     steps: [ { type, accepts, description, defaults } ] }
 */
import { FIXES, PREFLIGHT_PROFILES, VALIDATE_PROFILES, type FixInfo, type FixParamSpec } from '../../engine/profile-catalogue';
import { STEP_CATALOGUE } from '../../../step-definitions/catalogue';
import { STEP_TYPES, type FileType, type StepType } from '../model';

export interface ProfilesListing {
  profiles: {
    id: string;
    name: string;
    description: string;
    checks: { id: string; severity: string; description: string; thresholds?: Record<string, number | string | boolean> }[];
    defaultFixes: string[];
  }[];
  validateProfiles: { code: string; name: string; description: string; standard: string; coverage: string }[];
  fixes: { id: string; name: string; description: string; resolves: string[]; params: FixParamSpec[]; appearance: FixInfo['appearance'] }[];
  steps: { type: StepType; accepts: FileType[]; description: string; defaults: Record<string, unknown> }[];
}

export function listProfiles(): ProfilesListing {
  return {
    profiles: PREFLIGHT_PROFILES.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      checks: p.checks.map((c) => ({
        id: c.id,
        severity: c.severity,
        description: c.description,
        ...(c.thresholds ? { thresholds: c.thresholds } : {}),
      })),
      defaultFixes: [...p.defaultFixes],
    })),
    validateProfiles: VALIDATE_PROFILES.map((v) => ({
      code: v.code,
      name: v.name,
      description: v.description,
      standard: v.standard,
      coverage: v.coverage,
    })),
    fixes: FIXES.map((f) => ({ id: f.id, name: f.name, description: f.description, resolves: [...f.resolves], params: f.params.map((p) => ({ ...p })), appearance: f.appearance })),
    steps: STEP_TYPES.map((type) => ({
      type,
      accepts: [...STEP_CATALOGUE[type].accepts],
      description: STEP_CATALOGUE[type].description,
      defaults: { ...STEP_CATALOGUE[type].defaults },
    })),
  };
}
