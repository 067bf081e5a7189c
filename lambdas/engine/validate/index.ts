/**
 * Validate: checks a PDF against PDF/A and PDF/UA profiles and reports, per
 * profile, what was checked and what failed.
 *
 * Honesty rule: a profile whose rule set does not cover its standard never
 * reports `compliant: true`. Every profile is `coverage: 'partial'` today, so a
 * file that passes every implemented rule still gets `compliant: false` and a
 * `coverage.partial` failure saying how many rules were checked.
 */
import type { ValidateProfileCode } from '../../../step-definitions/catalogue';
import type { ValidationFailure, ValidationProfileResult } from '../../domain/step-results';
import { VALIDATE_PROFILES } from '../catalog';
import { openPdfFile } from '../core/load-pdf';
import { readEmbeddedFiles } from '../core/embedded-files';
import { ValidationModel, type ModelOptions } from './model';
import { ALL_RULES } from './rules';
import { claimedProfiles, familyKey, standardProfile, type StandardProfile } from './profiles';
import type { Rule } from './rule';

export interface ValidateInput extends ModelOptions {
  path: string;
  profiles: ValidateProfileCode[];
}

export interface ValidateResult {
  outcome: 'pass' | 'fail';
  compliant: boolean;
  profiles: ValidationProfileResult[];
}

/** Examples listed per failing rule; `occurrences` still counts all. */
const MAX_EXAMPLES = 5;

export async function validate(input: ValidateInput): Promise<ValidateResult> {
  const pdf = await openPdfFile(input.path);
  const facts = new ValidationModel(pdf, await readEmbeddedFiles(pdf.doc), input.deadline !== undefined ? { deadline: input.deadline } : {});
  const requested = [...new Set(input.profiles.length ? input.profiles : (['auto'] as ValidateProfileCode[]))];
  const profiles: ValidationProfileResult[] = [];
  for (const code of requested) {
    if (code !== 'auto') {
      profiles.push(evaluate(code, standardProfile(code), facts));
      continue;
    }
    const claims = claimedProfiles(facts.facts.xmp);
    if (claims.length === 0) profiles.push(unmatched('claim.none', 'The file claims no PDF/A or PDF/UA conformance in its XMP metadata, so "auto" has nothing to validate against; request a specific profile such as 2b or ua1.'));
    for (const claim of claims) {
      profiles.push('code' in claim ? evaluate('auto', standardProfile(claim.code), facts) : unmatched('claim.unknown', `The file claims ${claim.unknown}, which is not a conformance level Proofline knows; it cannot be validated automatically.`));
    }
  }
  const compliant = profiles.length > 0 && profiles.every((p) => p.compliant);
  return { outcome: compliant ? 'pass' : 'fail', compliant, profiles };
}

/** The rules that apply to a profile: those with a clause for its part, and its level if restricted. */
export function rulesFor(p: StandardProfile): Rule[] {
  const key = familyKey(p);
  return ALL_RULES.filter((r) => r.clauses[key] !== undefined && (!r.levels || r.levels.includes(p.level)));
}

function evaluate(requested: string, p: StandardProfile, facts: ValidationModel): ValidationProfileResult {
  const rules = rulesFor(p);
  const failures: ValidationFailure[] = [];
  let checksPassed = 0;
  let checksFailed = 0;
  let rulesFailed = 0;
  for (const rule of rules) {
    const clause = rule.clauses[familyKey(p)]!;
    const description = typeof rule.description === 'function' ? rule.description(p) : rule.description;
    let outcome;
    try {
      outcome = rule.test(facts, p);
    } catch {
      // A structure the predicate did not expect: the rule is not verified, which must not read as passed.
      outcome = { checked: 1, failures: [{ context: 'the rule could not be evaluated on this file\'s structure' }] };
    }
    const failed = outcome.failures.length;
    checksFailed += failed;
    checksPassed += Math.max(0, outcome.checked - failed);
    if (failed > 0) {
      rulesFailed++;
      failures.push({ ruleId: rule.id, clause, description, occurrences: failed, examples: outcome.failures.slice(0, MAX_EXAMPLES).map((e) => ({ ...e })) });
    }
  }
  const coverage = VALIDATE_PROFILES.find((v) => v.code === p.code)?.coverage ?? 'partial';
  if (coverage !== 'complete') {
    failures.push({
      ruleId: 'coverage.partial',
      clause: null,
      description: `Proofline checks ${rules.length} rules of ${p.name} so far; the remaining requirements were not verified, so compliance cannot be confirmed.`,
      occurrences: 1,
      examples: [],
    });
  }
  return {
    requested,
    matched: p.code,
    profileName: p.name,
    compliant: coverage === 'complete' && rulesFailed === 0,
    checks: { passed: checksPassed, failed: checksFailed },
    rules: { passed: rules.length - rulesFailed, failed: rulesFailed },
    failures,
  };
}

function unmatched(ruleId: string, description: string): ValidationProfileResult {
  return {
    requested: 'auto',
    matched: null,
    profileName: null,
    compliant: false,
    checks: { passed: 0, failed: 0 },
    rules: { passed: 0, failed: 0 },
    failures: [{ ruleId, clause: null, description, occurrences: 1, examples: [] }],
  };
}
