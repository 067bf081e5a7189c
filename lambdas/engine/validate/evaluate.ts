/**
 * Runs a profile's rules over the model and shapes the contract's per-profile
 * result: rules and checks passed/failed, and per failing rule its clause,
 * description, occurrence count and a few examples.
 *
 * Honesty: a rule that throws on a structure its predicate did not expect is
 * reported as failed (not verified must not read as passed), and a profile the
 * catalogue marks `coverage: 'partial'` never reports compliance.
 */
import type { ValidationFailure, ValidationProfileResult } from '../../domain/step-results';
import { VALIDATE_PROFILES } from '../profile-catalogue';
import type { ValidationModel } from './model';
import { familyKey, type StandardProfile } from './profiles';
import type { Rule, RuleOutcome } from './rule';
import { ALL_RULES } from './rules';

/** Examples listed per failing rule; `occurrences` still counts all. */
const MAX_EXAMPLES = 5;

/** The rules that apply to a profile: those with a clause for its part, and its level if restricted. */
export function rulesFor(p: StandardProfile, rules: readonly Rule[] = ALL_RULES): Rule[] {
  const key = familyKey(p);
  return rules.filter((r) => r.clauses[key] !== undefined && (!r.levels || r.levels.includes(p.level)));
}

export function evaluateProfile(requested: string, p: StandardProfile, model: ValidationModel, rules: readonly Rule[] = rulesFor(p)): ValidationProfileResult {
  const failures: ValidationFailure[] = [];
  let checksPassed = 0;
  let checksFailed = 0;
  let rulesFailed = 0;
  for (const rule of rules) {
    const outcome = runRule(rule, model, p);
    const failed = outcome.failures.length;
    checksFailed += failed;
    checksPassed += Math.max(0, outcome.checked - failed);
    if (failed === 0) continue;
    rulesFailed++;
    failures.push({
      ruleId: rule.id,
      clause: rule.clauses[familyKey(p)]!,
      description: typeof rule.description === 'function' ? rule.description(p) : rule.description,
      occurrences: failed,
      examples: outcome.failures.slice(0, MAX_EXAMPLES).map((e) => ({ ...e })),
    });
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

function runRule(rule: Rule, model: ValidationModel, p: StandardProfile): RuleOutcome {
  try {
    return rule.test(model, p);
  } catch {
    return { checked: 1, failures: [{ context: "the rule could not be evaluated on this file's structure" }] };
  }
}

/** `auto` with nothing to validate against: matched null, not compliant, and the reason as the failure. */
export function unmatched(ruleId: string, description: string): ValidationProfileResult {
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
