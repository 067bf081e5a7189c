/**
 * The shape of a validation rule: data (id, the clause of each standard part it
 * implements, a description) plus one small predicate over the gathered facts.
 * A rule reports how many objects it checked and which of them failed, with
 * examples a person can find.
 */
import type { ValidationModel } from './model';
import type { StandardProfile } from './profiles';

export interface Example {
  page?: number;
  objectNumber?: number;
  context?: string;
}

export interface RuleOutcome {
  /** Objects (or document-level conditions) examined. */
  checked: number;
  /** One entry per failing object. */
  failures: Example[];
}

export interface Rule {
  id: string;
  /**
   * Clause implemented, per standard part: keys `1`–`4` (ISO 19005 parts) and
   * `ua1`/`ua2` (ISO 14289 parts). A rule applies only where it has a clause.
   * Numbers follow the standards' own numbering (as also used by veraPDF).
   */
  clauses: Readonly<Record<string, string>>;
  /** Only these conformance levels (e.g. `a`, `u`); all levels when absent. */
  levels?: readonly string[];
  /** What the rule requires, as the failure's description. */
  description: string | ((p: StandardProfile) => string);
  test(m: ValidationModel, p: StandardProfile): RuleOutcome;
}

/** A document-level condition: one check that passes or fails. */
export function condition(ok: boolean, failure: Example = {}): RuleOutcome {
  return { checked: 1, failures: ok ? [] : [failure] };
}

/** Checks each item; failing items become examples. */
export function eachOf<T>(items: readonly T[], ok: (item: T) => boolean, example: (item: T) => Example): RuleOutcome {
  const failures: Example[] = [];
  for (const item of items) if (!ok(item)) failures.push(example(item));
  return { checked: items.length, failures };
}
