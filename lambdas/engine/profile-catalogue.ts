/**
 * The profile catalogue: what the engines offer, as data — preflight profiles
 * with their checks and thresholds, validate profiles with their coverage,
 * the fixes (fix-catalogue/) and the optimize options (optimize/params.ts). GET /profiles lists exactly this, and the engines read their settings from it,
 * so the listing can never promise something the engines do not do.
 *
 * Kept free of engine imports: the API's profiles handler loads it without
 * pulling pdf-lib, pdfjs or sharp into its bundle.
 */
import type { ValidateProfileCode } from '../../step-definitions/catalogue';
import { PREFLIGHT_PROFILES, type PreflightProfileInfo } from './preflight/profiles';

/**
 * The preflight profiles (default, the GWG 2022 print profiles, screen) and the
 * checks they run are data in preflight/profiles.ts and preflight/check-catalogue.ts;
 * both are import-free, so this module stays light.
 */
export { PREFLIGHT_PROFILES };

export function findPreflightProfile(id: string): PreflightProfileInfo | undefined {
  return PREFLIGHT_PROFILES.find((p) => p.id === id);
}

export interface ValidateProfileInfo {
  code: ValidateProfileCode;
  name: string;
  description: string;
  standard: string;
  coverage: 'partial' | 'complete';
}

const pdfa = (code: ValidateProfileCode, part: 1 | 2 | 3 | 4, level: string, year: string): ValidateProfileInfo => ({
  code,
  name: `PDF/A-${part}${level}`,
  description: `PDF/A-${part}${level} (ISO 19005-${part}${level ? `, level ${level.toUpperCase()}` : ''}): the requirements of the standard a machine can check.`,
  standard: `ISO 19005-${part}:${year}`,
  coverage: 'complete',
});

export const VALIDATE_PROFILES: readonly ValidateProfileInfo[] = [
  {
    code: 'auto',
    name: 'Claimed conformance',
    description: 'Validates against the PDF/A and/or PDF/UA conformance the file claims in its XMP metadata.',
    standard: 'As claimed by the file',
    coverage: 'complete',
  },
  pdfa('1a', 1, 'a', '2005'),
  pdfa('1b', 1, 'b', '2005'),
  pdfa('2a', 2, 'a', '2011'),
  pdfa('2b', 2, 'b', '2011'),
  pdfa('2u', 2, 'u', '2011'),
  pdfa('3a', 3, 'a', '2012'),
  pdfa('3b', 3, 'b', '2012'),
  pdfa('3u', 3, 'u', '2012'),
  pdfa('4', 4, '', '2020'),
  pdfa('4e', 4, 'e', '2020'),
  pdfa('4f', 4, 'f', '2020'),
  {
    code: 'ua1',
    name: 'PDF/UA-1',
    description: 'PDF/UA-1 (ISO 14289-1) accessibility: the requirements of the standard a machine can check (the Matterhorn Protocol\'s machine-checkable failure conditions).',
    standard: 'ISO 14289-1:2014',
    coverage: 'complete',
  },
  {
    code: 'ua2',
    name: 'PDF/UA-2',
    description: 'PDF/UA-2 (ISO 14289-2) accessibility: the requirements of the standard a machine can check.',
    standard: 'ISO 14289-2:2024',
    coverage: 'complete',
  },
];

/** The fix catalogue lives in fix-catalogue/ (one file per area). */
export { FIXES, findFix, fixApplicationOrder, fixOrder, orderFixes, fixParams, givenParams, fixParamsProblem, paramProblem, type FixInfo, type FixParamSpec } from './fix-catalogue';

/** The optimize step's options with their defaults (import-free data, like the rest of this module). */
export { OPTIMIZE_PARAMS, type OptimizeParamInfo } from './optimize/params';
export { OPTIMIZE_FIX_IDS } from './optimize/types';
