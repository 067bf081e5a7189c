import { describe, expect, it } from 'vitest';
import { totalApplied, totalSkipped } from '../../../../lambdas/engine/autofix/round-totals';

describe('the totals of several autofix rounds', () => {
  const rounds = [
    { applied: [{ fixId: 'boxes.normalize', count: 2, pages: [1, 2] }], skipped: [{ fixId: 'actions.remove', reason: 'Nothing to change.' }] },
    {
      applied: [
        { fixId: 'bleed.mirror', count: 1, pages: [2] },
        { fixId: 'boxes.normalize', count: 1, pages: [3, 1] },
      ],
      skipped: [{ fixId: 'actions.remove', reason: 'Still nothing.' }],
    },
    { applied: [], skipped: [{ fixId: 'bleed.mirror', reason: 'Nothing to change.' }] },
  ];

  it('lists each applied fix once, where it first changed something, with its counts added and its pages joined', () => {
    expect(totalApplied(rounds)).toEqual([
      { fixId: 'boxes.normalize', count: 3, pages: [1, 2, 3] },
      { fixId: 'bleed.mirror', count: 1, pages: [2] },
    ]);
  });

  it('lists as skipped only fixes that never changed anything, with the reason they gave last', () => {
    expect(totalSkipped(rounds)).toEqual([{ fixId: 'actions.remove', reason: 'Still nothing.' }]);
  });
});
