import { describe, expect, it } from 'vitest';
import type { StepRecord, StoredArtifact } from '../../../lambdas/domain/model';
import { outputsNeedResult, stepOutputs } from '../../../lambdas/domain/present/step-outputs';

const step = (type: StepRecord['type'], extra: Partial<StepRecord> = {}): StepRecord =>
  ({ id: 's1', jobId: 'j', taskId: 't', index: 0, type, status: 'done', outcome: 'pass', reason: null, params: {}, runtimeParams: null, started: null, ended: null, duration: null, outputs: [], result: null, resultKey: null, ...extra }) as StepRecord;
const file = (role: StoredArtifact['role'], kind: StoredArtifact['kind'] = 'report'): StoredArtifact => ({ kind, role, bucket: 'b', key: `k/${role}`, mimeType: 'application/json', sizeBytes: 10, fileName: `${role}.json` });

describe('what a finished step’s outputs show beside its files (docs/api.md §11 rules 1 and 6)', () => {
  it('a preflight report file carries the report’s counts inline as body.summary', () => {
    const summary = { errors: 1, warnings: 2, infos: 0, pages: 1 };
    const out = stepOutputs(step('preflight'), [file('preflight-report'), file('proof', 'image')], { summary, findings: [] });
    expect(out[0]).toMatchObject({ role: 'preflight-report', body: { summary } });
    expect(out[1]).not.toHaveProperty('body');
  });

  it('a validate step adds { kind: validate, profile, result: { results } } in the original service’s words', () => {
    const result = {
      compliant: true,
      profiles: [{ requested: 'auto', matched: '1b', profileName: 'PDF/A-1b', compliant: true, checks: { passed: 128, failed: 0 }, rules: { passed: 42, failed: 0 }, failures: [] }],
    };
    const out = stepOutputs(step('validate', { params: { profile: ['auto'] } }), [file('validation-report')], result);
    expect(out).toHaveLength(2);
    expect(out[1]).toEqual({
      kind: 'validate',
      profile: ['auto'],
      result: { results: [{ profile: 'auto:1b', profileName: 'PDF/A-1b', compliant: true, passedChecks: 128, failedChecks: 0, passedRules: 42, failedRules: 0, failedRuleDetails: [] }] },
    });
    // A single code, or none (the default), is a list of one.
    expect((stepOutputs(step('validate', { params: { profile: '2b' } }), [], result)[0] as { profile: string[] }).profile).toEqual(['2b']);
    expect((stepOutputs(step('validate'), [], result)[0] as { profile: string[] }).profile).toEqual(['auto']);
  });

  it('adds nothing to a step that did not finish, or has no result, and reads results only for the step types that use them', () => {
    expect(stepOutputs(step('validate', { status: 'error' }), [], { profiles: [] })).toEqual([]);
    expect(stepOutputs(step('validate'), [], null)).toEqual([]);
    expect(outputsNeedResult(step('autofix'))).toBe(false);
    expect(outputsNeedResult(step('preflight', { status: 'running' }))).toBe(false);
    expect(outputsNeedResult(step('previews'))).toBe(true);
  });
});
