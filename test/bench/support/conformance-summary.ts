/**
 * The conformance benchmark's figures: per profile, agreement with the
 * manifest's expected verdict and, for expected-fail files we also fail, how
 * often one of our failures names the expected clause (a sub-clause counts: the
 * manifest's 6.2.11.4 is matched by our 6.2.11.4.1).
 */
export interface ManifestEntry {
  file: string;
  profile: string;
  expect: 'pass' | 'fail';
  clause: string;
}

export interface ConformanceRun {
  entry: ManifestEntry;
  ms: number;
  compliant?: boolean;
  failures?: { ruleId: string; clause: string | null; occurrences: number; context: string | undefined }[];
  error?: string;
}

/** The agreement targets: these profiles need 97 %, the others 90 %. */
const STRICT = new Set(['1b', '2b', '2u', '3b', '4', 'ua1']);

export const clauseMatches = (ours: string | null, expected: string): boolean => ours !== null && (ours === expected || ours.startsWith(`${expected}.`));

export const agrees = (r: ConformanceRun): boolean => r.error === undefined && r.compliant === (r.entry.expect === 'pass');

export function summariseConformance(runs: readonly ConformanceRun[], options: { list?: boolean } = {}): string {
  const byProfile = new Map<string, ConformanceRun[]>();
  for (const r of runs) byProfile.set(r.entry.profile, [...(byProfile.get(r.entry.profile) ?? []), r]);
  const lines = ['profile  files  agree            right clause     errors  target'];
  const pct = (n: number, d: number) => (d === 0 ? '   —  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
  let agreeAll = 0;
  let clauseAll = 0;
  let clauseDen = 0;
  for (const [profile, rs] of [...byProfile].sort(([a], [b]) => a.localeCompare(b))) {
    const agree = rs.filter(agrees).length;
    const failed = rs.filter((r) => r.entry.expect === 'fail' && r.compliant === false);
    const right = failed.filter((r) => r.failures!.some((f) => clauseMatches(f.clause, r.entry.clause))).length;
    const errors = rs.filter((r) => r.error !== undefined).length;
    const target = STRICT.has(profile) ? 97 : 90;
    const met = (100 * agree) / rs.length >= target && (failed.length === 0 || (100 * right) / failed.length >= 90);
    agreeAll += agree;
    clauseAll += right;
    clauseDen += failed.length;
    lines.push(`${profile.padEnd(7)} ${String(rs.length).padStart(6)}  ${String(agree).padStart(4)} ${pct(agree, rs.length)}    ${String(right).padStart(4)}/${String(failed.length).padEnd(4)} ${pct(right, failed.length)}  ${String(errors).padStart(5)}  ≥${target}% ${met ? 'met' : 'NOT MET'}`);
  }
  lines.push(`all     ${String(runs.length).padStart(6)}  ${String(agreeAll).padStart(4)} ${pct(agreeAll, runs.length)}    ${String(clauseAll).padStart(4)}/${String(clauseDen).padEnd(4)} ${pct(clauseAll, clauseDen)}`);
  if (options.list) {
    lines.push('', 'Disagreements (expected verdict, clause; what we said):');
    for (const r of runs) {
      const wrongClause = r.entry.expect === 'fail' && r.compliant === false && !r.failures!.some((f) => clauseMatches(f.clause, r.entry.clause));
      if (agrees(r) && !wrongClause) continue;
      const said = r.error !== undefined ? `error: ${r.error}` : r.failures!.length === 0 ? 'compliant' : r.failures!.map((f) => `${f.ruleId} [${f.clause}] ×${f.occurrences}${f.context ? ` (${f.context})` : ''}`).join('; ');
      lines.push(`${agrees(r) ? 'CLAUSE' : 'VERDICT'} ${r.entry.profile} expect ${r.entry.expect} ${r.entry.clause}  ${r.entry.file}\n    ${said}`);
    }
  }
  return lines.join('\n');
}
