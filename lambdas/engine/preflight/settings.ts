/**
 * A profile's checks with the order context applied (docs/api.md §6): the context
 * narrows thresholds the profile already has (required bleed, artwork size, page
 * count, safety margin) and never adds a check. What was applied is returned as
 * the step's runtimeParams so the customer sees exactly which numbers were used.
 */
import { UnprocessableFileError } from '../../domain/errors';
import type { OrderContext } from '../../domain/model';
import { findPreflightProfile, FIXES, PREFLIGHT_PROFILES } from '../profile-catalogue';
import type { PreflightProfileInfo } from './profiles';
import type { CheckId, ThresholdedCheckId } from './check-catalogue';
import type { Severity } from './findings';

export type Thresholds = Record<string, number | string | boolean>;

export interface PreflightSettings {
  profile: PreflightProfileInfo;
  /** Check id → severity ('off' for disabled checks). */
  severity(checkId: CheckId): Severity | 'off';
  /** Thresholds of an active check; undefined when the check is off or inactive. */
  thresholds(checkId: ThresholdedCheckId): Thresholds | undefined;
  fixFor(checkId: CheckId): string | null;
  /** The profile's checks in catalogue order: findings of equal severity are listed in this sequence. */
  checkSequence: CheckId[];
  runtimeParams: Record<string, unknown>;
}

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);
const nonNegative = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

/**
 * `profile` is a built-in profile's id, or a profile already resolved (an account's own,
 * account-profile.ts, as the job recorded it at submission).
 */
export function resolveSettings(profileOrId: string | PreflightProfileInfo, context: OrderContext | null): PreflightSettings {
  const profileId = typeof profileOrId === 'string' ? profileOrId : profileOrId.id;
  const profile = typeof profileOrId === 'string' ? findPreflightProfile(profileOrId) : profileOrId;
  if (!profile) {
    const known = PREFLIGHT_PROFILES.map((p) => p.id).join(', ');
    throw new UnprocessableFileError(`There is no preflight profile "${profileId}" (available: ${known}); GET /profiles lists them.`);
  }

  const applied = new Map<CheckId, Thresholds>();
  for (const c of profile.checks) {
    if (c.severity !== 'off') applied.set(c.id, { ...(c.thresholds ?? {}) });
  }
  const contextApplied: string[] = [];
  const contextIgnored: string[] = [];

  // Context-only checks stay inactive without the matching context.
  const artwork = context?.artworkSize;
  const artW = positive(artwork?.width_mm);
  const artH = positive(artwork?.height_mm);
  for (const id of ['artwork.size-mismatch', 'artwork.aspect-mismatch'] as const) {
    const t = applied.get(id);
    if (!t) continue;
    if (artW && artH) Object.assign(t, { width_mm: artW, height_mm: artH });
    else applied.delete(id);
  }
  if (artwork) {
    const used = artW !== undefined && artH !== undefined && [...applied.keys()].some((id) => id.startsWith('artwork.'));
    (used ? contextApplied : contextIgnored).push('artworkSize');
  }

  const pc = context?.pageCount;
  const min = nonNegative(pc?.min);
  const max = nonNegative(pc?.max);
  const pageCheck = applied.get('document.page-count');
  if (pageCheck && (min !== undefined || max !== undefined)) {
    if (min !== undefined) pageCheck.min = min;
    if (max !== undefined) pageCheck.max = max;
    contextApplied.push('pageCount');
  } else {
    applied.delete('document.page-count');
    if (pc) contextIgnored.push('pageCount');
  }

  const bleed = nonNegative(context?.bleed?.required_mm);
  const bleedCheck = applied.get('bleed.insufficient');
  if (bleed !== undefined && bleedCheck) {
    bleedCheck.required_mm = bleed;
    contextApplied.push('bleed');
  } else if (context?.bleed) contextIgnored.push('bleed');

  // The safety margin only means something as ordered: the check stays inactive without it.
  const safety = nonNegative(context?.safety?.min_mm);
  const safetyCheck = applied.get('safety.live-content');
  if (safetyCheck && safety !== undefined && safety > 0) {
    safetyCheck.min_mm = safety;
    contextApplied.push('safety');
  } else {
    applied.delete('safety.live-content');
    if (context?.safety) contextIgnored.push('safety');
  }

  // File count is judged per job, not per file.
  if (context?.fileCount) contextIgnored.push('fileCount');

  const severities = new Map(profile.checks.map((c) => [c.id, c.severity] as const));
  const fixByCheck = new Map<string, string>();
  for (const fix of FIXES) for (const checkId of fix.resolves) if (!fixByCheck.has(checkId)) fixByCheck.set(checkId, fix.id);

  const thresholds: Record<string, Thresholds> = {};
  for (const [id, t] of applied) if (Object.keys(t).length > 0) thresholds[id] = t;

  return {
    profile,
    severity: (id) => (applied.has(id) ? (severities.get(id) ?? 'off') : 'off'),
    thresholds: (id) => applied.get(id),
    fixFor: (id) => fixByCheck.get(id) ?? null,
    checkSequence: profile.checks.map((c) => c.id),
    runtimeParams: {
      profileId: profile.id,
      // An account's profile changes by version; the job shows which one it was judged with.
      ...(profile.version !== undefined ? { profileVersion: profile.version } : {}),
      thresholds,
      ...(contextApplied.length ? { contextApplied } : {}),
      ...(contextIgnored.length ? { contextIgnored } : {}),
    },
  };
}
