/** web/src/progress-bar.tsx: the words beside the bar, which say what the bar shows. */
import { describe, expect, it } from 'vitest';
import { progressWords } from '../../../web/src/progress-bar';

describe('progressWords', () => {
  it('says steps, and pages once the current step knows how many it has', () => {
    expect(progressWords({ stepsDone: 2, stepsTotal: 3, pagesDone: 40, pagesTotal: 120, percent: 77 })).toBe('2 of 3 steps, 40 of 120 pages');
    expect(progressWords({ stepsDone: 0, stepsTotal: 1, pagesDone: 0, pagesTotal: null, percent: 0 })).toBe('0 of 1 step');
    expect(progressWords({ stepsDone: 0, stepsTotal: 1, pagesDone: 0, pagesTotal: 1, percent: 0 })).toBe('0 of 1 step, 0 of 1 page');
  });
});
