/**
 * Every (check, fix) pair of the fix catalogue, run as a job runs it: on a
 * file where the check fires and offers the fix, the fix removes the finding
 * and brings none that was not there before.
 */
import { describe, expect, it } from 'vitest';
import { FIXES } from '../../../../lambdas/engine/profile-catalogue';
import { tempFiles } from '../temp-files';
import { PAIR_CASES } from './pair-cases';
import { expectResolved, runPair } from './pair-run';

const files = tempFiles('check-fix-pairs');

describe('check-fix pairs', () => {
  it('has a case for every pair the fix catalogue names in `resolves`', () => {
    const pairs = FIXES.flatMap((f) => f.resolves.map((checkId) => `${f.id} → ${checkId}`));
    expect(pairs.filter((p) => !(p in PAIR_CASES))).toEqual([]);
    expect(Object.keys(PAIR_CASES).filter((p) => !pairs.includes(p))).toEqual([]);
  });

  for (const [pair, c] of Object.entries(PAIR_CASES)) {
    it(`${pair}: ${c.name}`, async () => {
      expectResolved(c, await runPair(c, files.dir));
    }, 60_000);
  }
});
