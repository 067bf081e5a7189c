/**
 * Autofix: applies fixes to a PDF and writes the result to `outPath` when
 * anything changed. The input file is never modified.
 *
 * Which fixes: the explicit `items` when given (run once, as asked), else the
 * fixes the preceding preflight recommended, else the profile's default fixes.
 * They run in the order of application the fix catalogue derives from what
 * each fix runs after (fix-catalogue/fix-order.ts), whatever order they were
 * named in.
 *
 * Without `items`, autofix works to a fixed point: after a round that changed
 * the file it checks the result again with the same profile and order context,
 * and applies what that check now recommends (a page given a TrimBox equal to
 * its MediaBox has no bleed, which bleed.mirror then adds). It stops when no
 * finding with an available fix remains, when a round changes nothing, after
 * MAX_ROUNDS rounds, or when less time is left before `deadline` than twice
 * what the rounds so far took (a further round is a check and a round). Each round is reported; `applied` and `skipped` are the
 * totals.
 */
import { rename, rm } from 'node:fs/promises';
import type { OrderContext } from '../../domain/model';
import { orderFixes } from '../profile-catalogue';
import { preflight } from '../preflight';
import type { PreflightProfileInfo } from '../preflight/profiles';
import { resolveSettings, type PreflightSettings } from '../preflight/settings';
import { runFixRound, type AppliedFix, type RoundResult, type SkippedFix } from './fix-round';
import { totalApplied, totalSkipped } from './round-totals';

export interface AutofixInput {
  path: string;
  outPath: string;
  items: string[] | null;
  recommended: string[] | null;
  /** A built-in profile's id, or a resolved profile (an account's own, as recorded at submission). */
  profileId: string | PreflightProfileInfo;
  context: OrderContext | null;
  /** Parameters per fix id (`params.fixParams` of the step); defaults fill the rest. */
  fixParams?: Record<string, unknown> | null;
  /** Most rounds of fixing and checking again (default MAX_ROUNDS); explicit items always run once. */
  maxRounds?: number;
  /** Epoch ms the work must be done by: a further round starts only when twice the time the rounds so far took is left. */
  deadline?: number;
}

/** Why the rounds ended. */
export type AutofixStop =
  /** Explicit items: one round, as asked. */
  | 'items'
  /** The check after the last round found nothing more a fix can resolve. */
  | 'no-fixable-findings'
  /** The last round changed nothing (the first one: there was nothing to do). */
  | 'nothing-changed'
  | 'round-limit'
  | 'time';

export interface AutofixRound {
  applied: AppliedFix[];
  skipped: SkippedFix[];
}

export interface AutofixResult {
  changed: boolean;
  /** Totals over the rounds: each fix that changed something, with its counts added and its pages joined. */
  applied: AppliedFix[];
  /** Totals over the rounds: each fix that never changed anything, with the reason it last gave. */
  skipped: SkippedFix[];
  rounds: AutofixRound[];
  stoppedBecause: AutofixStop;
  runtimeParams: Record<string, unknown>;
}

/** A fix that exposes a finding another fix resolves makes a second round; a third catches a rare chain. More would hide a fix that undoes another. */
export const MAX_ROUNDS = 3;

export async function autofix(input: AutofixInput): Promise<AutofixResult> {
  // Throws the customer's sentence for an unknown profile.
  const settings = resolveSettings(input.profileId, input.context);
  const source = input.items ? 'items' : input.recommended ? 'recommended' : 'profile';
  const first = orderFixes(input.items ?? input.recommended ?? settings.profile.defaultFixes);
  const maxRounds = input.items ? 1 : Math.max(1, input.maxRounds ?? MAX_ROUNDS);
  const { rounds, finalPath, stoppedBecause } = await fixUntilRight(input, settings, first, maxRounds);
  const changed = finalPath !== null;
  if (finalPath !== null) await rename(finalPath, input.outPath);

  const paramsApplied = Object.assign({}, ...rounds.map((r) => r.paramsApplied)) as RoundResult['paramsApplied'];
  const savedAs = rounds.some((r) => r.savedAs === 'whole') ? 'rewritten' : 'incremental-update';
  return {
    changed,
    applied: totalApplied(rounds),
    skipped: totalSkipped(rounds),
    rounds: rounds.map((r) => ({ applied: r.applied, skipped: r.skipped })),
    stoppedBecause,
    runtimeParams: {
      profileId: settings.profile.id,
      // An account's profile changes by version; the job shows which one the fixes judged by.
      ...(settings.profile.version !== undefined ? { profileVersion: settings.profile.version } : {}),
      fixes: first,
      fixesFrom: source,
      ...(rounds.length > 1 ? { laterRounds: rounds.slice(1).map((r) => [...r.applied.map((a) => a.fixId), ...r.skipped.map((s) => s.fixId)]) } : {}),
      rounds: rounds.length,
      stoppedBecause,
      ...(Object.keys(paramsApplied).length > 0 ? { fixParams: paramsApplied } : {}),
      ...(input.context?.artworkSize ? { artworkSize: input.context.artworkSize } : {}),
      ...(input.context?.bleed ? { bleed_mm: input.context.bleed.required_mm } : {}),
      // Saving a file that was only owner-password protected writes it decrypted.
      ...(changed && rounds[0]!.encrypted ? { encryptionRemoved: true } : {}),
      // An incremental update keeps the original's bytes as they were (and a signature's byte range with them).
      ...(changed ? { savedAs } : {}),
    },
  };
}

/**
 * Rounds of fixing, each on the file the last one wrote (`<outPath>.round-N`),
 * until a stop condition holds. Returns the rounds, the last file written (null:
 * nothing changed) and why it stopped; every other round file is removed.
 */
async function fixUntilRight(
  input: AutofixInput,
  settings: PreflightSettings,
  firstFixes: string[],
  maxRounds: number,
): Promise<{ rounds: RoundResult[]; finalPath: string | null; stoppedBecause: AutofixStop }> {
  const started = Date.now();
  const rounds: RoundResult[] = [];
  let current: string | null = null;
  let fixes = firstFixes;
  try {
    for (;;) {
      const outPath = `${input.outPath}.round-${rounds.length + 1}`;
      const round = await runFixRound({ path: current ?? input.path, outPath, fixes, context: input.context, fixParams: input.fixParams, settings });
      rounds.push(round);
      if (!round.changed) return { rounds, finalPath: current, stoppedBecause: input.items ? 'items' : 'nothing-changed' };
      if (current !== null) await rm(current, { force: true });
      current = outPath;
      if (input.items) return { rounds, finalPath: current, stoppedBecause: 'items' };
      if (rounds.length >= maxRounds) return { rounds, finalPath: current, stoppedBecause: 'round-limit' };
      const spent = Date.now() - started;
      if (input.deadline !== undefined && Date.now() + 2 * spent > input.deadline) return { rounds, finalPath: current, stoppedBecause: 'time' };
      fixes = orderFixes(await stillRecommended(current, input, settings));
      if (fixes.length === 0) return { rounds, finalPath: current, stoppedBecause: 'no-fixable-findings' };
    }
  } catch (e) {
    if (current !== null) await rm(current, { force: true });
    throw e;
  } finally {
    // A round that changed nothing, or failed, may have left a partial file.
    await rm(`${input.outPath}.round-${rounds.length + 1}`, { force: true });
    if (rounds.length > 0 && !rounds[rounds.length - 1]!.changed) await rm(`${input.outPath}.round-${rounds.length}`, { force: true });
  }
}

/** The fixes a check of the round's result recommends: the same profile and order context as the first check. */
async function stillRecommended(path: string, input: AutofixInput, settings: PreflightSettings): Promise<string[]> {
  // The listing of image placements is not needed, only the findings (which cover every placement).
  const { report } = await preflight({ path, fileType: 'pdf', profileId: settings.profile, context: input.context, maxListedImages: 0 });
  return report.recommendedFixes;
}
