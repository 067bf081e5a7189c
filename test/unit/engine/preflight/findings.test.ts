import { describe, expect, it } from 'vitest';
import { groupFindings, pagesText, recommendedFixes, verdictOf, type Observation } from '../../../../lambdas/engine/preflight/findings';

const group = (obs: Observation[], severity: Record<string, 'error' | 'warn' | 'info' | 'off'> = {}) =>
  groupFindings(
    obs,
    (id) => severity[id] ?? 'warn',
    () => (g) => `${g.count} on ${g.pagesText}`,
    (id) => (id === 'fixable' ? 'some.fix' : null),
    ['a', 'b', 'fixable'],
  );

describe('findings', () => {
  it('writes page lists with ranges', () => {
    expect(pagesText([3])).toBe('page 3');
    expect(pagesText([1, 2, 3, 4, 7, 9, 10])).toBe('pages 1–4, 7, 9–10');
  });

  it('groups observations of one check per subject and keeps the worst as measured', () => {
    const f = group([
      { checkId: 'a', page: 2, subject: 'X', measured: 5, rank: 5 },
      { checkId: 'a', page: 1, subject: 'X', measured: 1, rank: 1 },
      { checkId: 'a', page: 3, subject: 'Y', measured: 9 },
    ]);
    expect(f.map((x) => [x.count, x.pages ?? [x.page], x.measured, x.message])).toEqual([
      [2, [1, 2], 1, '2 on pages 1–2'],
      [1, [3], 9, '1 on page 3'],
    ]);
  });

  it('drops checks whose severity is off and orders errors before warnings before infos', () => {
    const f = group(
      [
        { checkId: 'b', page: 1 },
        { checkId: 'a', page: 1 },
        { checkId: 'fixable', page: 1 },
      ],
      { a: 'info', b: 'error', fixable: 'off' },
    );
    expect(f.map((x) => x.checkId)).toEqual(['b', 'a']);
  });

  it('offers a fix only when at least one observation can use it', () => {
    expect(group([{ checkId: 'fixable', page: 1, fixable: false }])[0]!.fix).toEqual({ available: false, fixId: 'some.fix' });
    const f = group([{ checkId: 'fixable', page: 1, fixable: false }, { checkId: 'fixable', page: 2 }]);
    expect(f[0]!.fix).toEqual({ available: true, fixId: 'some.fix' });
    expect(recommendedFixes(f)).toEqual(['some.fix']);
  });

  it('derives the verdict from severities', () => {
    expect(verdictOf(group([{ checkId: 'a', page: 1 }], { a: 'error' }))).toBe('fail');
    expect(verdictOf(group([{ checkId: 'a', page: 1 }], { a: 'warn' }))).toBe('warn');
    expect(verdictOf(group([{ checkId: 'a', page: 1 }], { a: 'info' }))).toBe('pass');
    expect(verdictOf([])).toBe('pass');
  });
});
