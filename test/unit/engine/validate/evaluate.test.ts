import { describe, expect, it } from 'vitest';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { evaluateProfile, rulesFor } from '../../../../lambdas/engine/validate/evaluate';
import { ValidationModel } from '../../../../lambdas/engine/validate/model';
import { standardProfile } from '../../../../lambdas/engine/validate/profiles';
import { condition, eachOf, type Rule } from '../../../../lambdas/engine/validate/rule';
import { buildPdf } from '../../../support/pdf-fixtures';

const model = async () => new ValidationModel(await openPdfBytes(await buildPdf({ pages: 1 })), []);
const rule = (id: string, test: Rule['test'], extra: Partial<Rule> = {}): Rule => ({ id, clauses: { 2: '6.1.2', 4: '6.1.3', ua1: '7.1' }, description: `Rule ${id} requires something of the file.`, test, ...extra });

describe('evaluating a profile', () => {
  const p2b = standardProfile('2b');

  it('is compliant when every rule passes, and counts rules and checks', async () => {
    const r = evaluateProfile('2b', p2b, await model(), [rule('a', () => condition(true)), rule('b', () => eachOf([1, 2, 3], () => true, () => ({})))]);
    expect(r).toEqual({ requested: '2b', matched: '2b', profileName: 'PDF/A-2b', compliant: true, checks: { passed: 4, failed: 0 }, rules: { passed: 2, failed: 0 }, failures: [] });
  });

  it('lists a failing rule with the clause of the profile’s part, every occurrence counted and five examples kept', async () => {
    const failing = rule('fonts', () => eachOf([1, 2, 3, 4, 5, 6, 7], (n) => n === 1, (n) => ({ page: n, context: `font F${n}` })));
    const r2 = evaluateProfile('2b', p2b, await model(), [failing, rule('ok', () => condition(true))]);
    expect(r2.compliant).toBe(false);
    expect(r2.rules).toEqual({ passed: 1, failed: 1 });
    expect(r2.checks).toEqual({ passed: 2, failed: 6 });
    expect(r2.failures).toEqual([{ ruleId: 'fonts', clause: '6.1.2', description: 'Rule fonts requires something of the file.', occurrences: 6, examples: [2, 3, 4, 5, 6].map((n) => ({ page: n, context: `font F${n}` })) }]);
    const r4 = evaluateProfile('4', standardProfile('4'), await model(), [failing]);
    expect(r4.failures[0]!.clause).toBe('6.1.3');
  });

  it('reports a rule that throws on an unexpected structure as failed, never as passed', async () => {
    const r = evaluateProfile('2b', p2b, await model(), [rule('fragile', () => { throw new TypeError('x is undefined'); })]);
    expect(r.compliant).toBe(false);
    expect(r.failures[0]).toMatchObject({ ruleId: 'fragile', occurrences: 1, examples: [{ context: "the rule could not be evaluated on this file's structure" }] });
  });

  it('words a description per profile when the rule gives a function', async () => {
    const r = evaluateProfile('2b', p2b, await model(), [rule('part', () => condition(false), { description: (p) => `The part shall be ${p.part}.` })]);
    expect(r.failures[0]!.description).toBe('The part shall be 2.');
  });
});

describe('the rules of a profile', () => {
  const rules = [rule('all-levels', () => condition(true)), rule('level-a', () => condition(true), { levels: ['a'] }), rule('levels-a-u', () => condition(true), { levels: ['a', 'u'] }), rule('ua-only', () => condition(true), { clauses: { ua1: '7.1' } })];
  const ids = (code: Parameters<typeof standardProfile>[0]) => rulesFor(standardProfile(code), rules).map((r) => r.id);

  it('are those with a clause for its part, restricted by level where a rule names levels', () => {
    expect(ids('2b')).toEqual(['all-levels']);
    expect(ids('2u')).toEqual(['all-levels', 'levels-a-u']);
    expect(ids('2a')).toEqual(['all-levels', 'level-a', 'levels-a-u']);
    expect(ids('1b')).toEqual([]);
    expect(ids('ua1')).toEqual(['all-levels', 'ua-only']);
  });
});
