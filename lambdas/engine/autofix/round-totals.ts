/**
 * What several rounds of autofix add up to, as `applied` and `skipped` report
 * it: a fix applied in any round is applied (its counts added, its pages
 * joined), listed where it first changed something; a fix that never changed
 * anything is skipped, with the reason it gave last. A fix that changed the
 * file in one round and found nothing more to do in the next is applied only.
 */
import type { AppliedFix, SkippedFix } from './fix-round';

interface Round {
  applied: readonly AppliedFix[];
  skipped: readonly SkippedFix[];
}

export function totalApplied(rounds: readonly Round[]): AppliedFix[] {
  const byFix = new Map<string, AppliedFix>();
  for (const round of rounds) {
    for (const a of round.applied) {
      const total = byFix.get(a.fixId);
      if (!total) byFix.set(a.fixId, { fixId: a.fixId, count: a.count, pages: [...a.pages] });
      else {
        total.count += a.count;
        total.pages = [...new Set([...total.pages, ...a.pages])].sort((x, y) => x - y);
      }
    }
  }
  return [...byFix.values()];
}

export function totalSkipped(rounds: readonly Round[]): SkippedFix[] {
  const applied = new Set(rounds.flatMap((r) => r.applied.map((a) => a.fixId)));
  const byFix = new Map<string, SkippedFix>();
  for (const round of rounds) for (const s of round.skipped) if (!applied.has(s.fixId)) byFix.set(s.fixId, { ...s });
  return [...byFix.values()];
}
