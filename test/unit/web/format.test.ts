/** web/src/format.ts: how the console writes a progress in words (beside its bar, progress-bar.tsx). */
import { describe, expect, it } from 'vitest';
import { progressWords } from '../../../web/src/format';

describe('progressWords', () => {
  it('says steps, and pages once the current step knows how many it has', () => {
    expect(progressWords({ stepsDone: 2, stepsTotal: 3, pagesDone: 40, pagesTotal: 120 })).toBe('2 of 3 steps, 40 of 120 pages');
    expect(progressWords({ stepsDone: 0, stepsTotal: 1, pagesDone: 0, pagesTotal: null })).toBe('0 of 1 step');
    expect(progressWords({ stepsDone: 0, stepsTotal: 1, pagesDone: 0, pagesTotal: 1 })).toBe('0 of 1 step, 0 of 1 page');
  });
});
