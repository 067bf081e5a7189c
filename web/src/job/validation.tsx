/**
 * A task's validation results (results.validate, docs/api.md §4): per standard asked for, whether
 * the file complies, and each failed requirement grouped by the clause of the standard it
 * implements, with its description, how often it failed and the examples the validator kept.
 */
import type { ValidationFailure, ValidationProfile } from './job-detail';

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function byClause(failures: ValidationFailure[]): [string, ValidationFailure[]][] {
  const groups = new Map<string, ValidationFailure[]>();
  for (const f of failures) {
    const key = f.clause ?? 'No clause given';
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }));
}

function Profile({ p }: { p: ValidationProfile }) {
  return (
    <section class="validation-profile">
      <h4>
        {p.profileName ?? p.requested} ({p.matched ?? p.requested}):{' '}
        <span class={`badge badge-${p.compliant ? 'pass' : 'fail'}`}>
          <span aria-hidden="true">{p.compliant ? '✓' : '✕'}</span> {p.compliant ? 'compliant' : 'not compliant'}
        </span>
      </h4>
      <p class="muted">
        Checks: {p.checks.passed} passed, {p.checks.failed} failed. Rules: {p.rules.passed} passed, {p.rules.failed} failed.
      </p>
      {byClause(p.failures).map(([clause, failures]) => (
        <div class="clause">
          <h5>Clause {clause}</h5>
          <ul>
            {failures.map((f) => (
              <li>
                {f.description} <span class="muted">({f.occurrences === 1 ? 'once' : `${f.occurrences} times`}; rule {f.ruleId})</span>
                {f.examples.length > 0 && (
                  <ul class="examples" aria-label="Examples">
                    {f.examples.map((ex) => (
                      <li>
                        {Object.entries(ex).map(([k, v], i) => (
                          <>
                            {i > 0 && '; '}
                            <span class="muted">{k}:</span> {show(v)}
                          </>
                        ))}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

export function ValidationResults({ profiles }: { profiles: ValidationProfile[] }) {
  if (profiles.length === 0) return <p>The validation produced no results.</p>;
  return (
    <>
      {profiles.map((p) => (
        <Profile p={p} />
      ))}
    </>
  );
}
