/**
 * One check-fix pair run as a customer's job runs it: preflight the file,
 * apply the one fix (`items: [fixId]`, so autofix passes the profile's
 * resolved settings), preflight the result. What a pair must show: the check
 * fired and offered the fix; afterwards it no longer fires, and nothing fires
 * that did not fire before.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { OrderContext } from '../../../../lambdas/domain/model';
import { autofix, type AutofixResult } from '../../../../lambdas/engine/autofix/index';
import type { CheckId } from '../../../../lambdas/engine/preflight/check-catalogue';
import { preflight, type Finding } from '../../../../lambdas/engine/preflight/index';
import { FIXES } from '../../../../lambdas/engine/profile-catalogue';

export interface PairCase {
  fixId: string;
  checkId: CheckId;
  /** What about the file makes the check fire. */
  name: string;
  build: () => Promise<Uint8Array>;
  profileId?: string;
  context?: OrderContext | null;
}

export interface PairRun {
  before: Finding[];
  after: Finding[];
  fixed: AutofixResult;
}

let n = 0;

export async function runPair(c: PairCase, dir: string): Promise<PairRun> {
  const path = join(dir, `pair${++n}.pdf`);
  await writeFile(path, await c.build());
  const profileId = c.profileId ?? 'default';
  const context = c.context ?? null;
  const findings = async (p: string) => (await preflight({ path: p, fileType: 'pdf', profileId, context })).report.findings;
  const before = await findings(path);
  const fixed = await autofix({ path, outPath: `${path}.fixed.pdf`, items: [c.fixId], recommended: null, profileId, context });
  const after = fixed.changed ? await findings(`${path}.fixed.pdf`) : before;
  return { before, after, fixed };
}

/**
 * The check fired offering a fix (the first fix that resolves it, which is this
 * one or another of the same check); after this fix, the check is gone and no
 * other check fires that did not before.
 */
export function expectResolved(c: PairCase, run: PairRun): void {
  const finding = run.before.find((f) => f.checkId === c.checkId);
  expect(finding, `${c.checkId} fires on ${c.name}`).toBeDefined();
  expect(finding!.fix.available, `${c.checkId} offers a fix`).toBe(true);
  const offered = finding!.fix.fixIds ?? [finding!.fix.fixId];
  expect(offered.every((id) => FIXES.find((f) => f.id === id)?.resolves.includes(c.checkId)), `offered ${offered.join(', ')}`).toBe(true);
  expect(run.fixed.applied.map((a) => a.fixId), JSON.stringify(run.fixed.skipped)).toEqual([c.fixId]);
  expect(run.after.filter((f) => f.checkId === c.checkId).map((f) => f.message)).toEqual([]);
  const firedBefore = new Set(run.before.map((f) => f.checkId));
  expect(run.after.filter((f) => !firedBefore.has(f.checkId)).map((f) => f.message)).toEqual([]);
}

/** The check fired without offering the fix (a case the fix cannot resolve). */
export function expectNotOffered(findings: Finding[], checkId: CheckId, fixId: string): void {
  const finding = findings.find((f) => f.checkId === checkId);
  expect(finding, `${checkId} fires`).toBeDefined();
  expect(finding!.fix.available ? (finding!.fix.fixIds ?? [finding!.fix.fixId]) : []).not.toContain(fixId);
}
